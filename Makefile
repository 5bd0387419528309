# Two entry points that work on a machine with only Python and make:
#   make site   set up, validate the registry and build the site into site/
#   make test   set up, lint, type-check and run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: setup site test lint typecheck pytest browser-deps bench clean serve rules-docs

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check uv
	$(BIN)/uv pip install -q --compile-bytecode --python $(BIN)/python -e '.[dev]'
	$(BIN)/python -m generator.site.pagefind_binary
	touch $(STAMP)

setup: $(STAMP)

# The browser tests need Debian's chromium; install it when it is missing (CI runs as root).
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq chromium >/dev/null; fi; }

site: setup
	$(BIN)/dify-registry build --site-dir site .

serve: setup
	$(BIN)/mkdocs serve

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup
	$(BIN)/mypy

pytest: setup browser-deps
	$(BIN)/pytest -n 2 --dist loadgroup

test: lint typecheck pytest

# The rule tables of registry/docs/ are written from the rules (tests/test_ruledocs.py compares them).
rules-docs: setup
	$(BIN)/python -m generator.ruledocs registry/docs

bench: setup
	$(BIN)/python -m benchmarks

clean:
	rm -rf site .venv .pytest_cache .mypy_cache .ruff_cache

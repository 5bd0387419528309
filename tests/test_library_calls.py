"""R130: calls that do not fit the library definition they name, read from a `site-packages`
folder's source without importing it. The library folders here are written by the tests (real
files, parsed as the check parses an environment's); the plugin that does not load is run for real."""

from __future__ import annotations

import pytest

from generator.check.call_signatures import Signature
from generator.check.library_calls import _Library
from generator.pipeline import Pipeline, resolve_schemas
from generator.run import RunOptions
from tests.conftest import REPO

CASES = REPO / "tests" / "cases" / "library_calls"

# A library with the shapes the check follows and those it leaves alone.
LIBRARY = {
    "acme/__init__.py": (
        "from acme._client import Client\n"
        "from acme._api import *\n"
        "from acme._models import Model as Renamed\n"
    ),
    # a star import without a literal __all__ may bind any name, also one bound before it
    "acme/more.py": "from acme._client import Client\nfrom acme._lazy import *\n",
    "acme/_client.py": (
        "class Base:\n    pass\n\n"
        "class Client(Base):\n"
        "    def __init__(self, url, /, token=None, *, timeout=5.0):\n        pass\n"
    ),
    "acme/_api.py": (
        '__all__ = ["fetch"]\n\ndef fetch(url, params=None):\n    pass\n\ndef hidden(x):\n    pass\n'
    ),
    "acme/_lazy.py": "def fetch_all(*urls, **options):\n    pass\n",
    "acme/_models.py": (
        "import functools\n\n"
        "class Model:\n    def __init__(self, name):\n        pass\n\n"
        "@functools.total_ordering\nclass Decorated:\n    def __init__(self, x):\n        pass\n\n"
        "class Meta(type):\n    pass\n\n"
        "class WithMeta(metaclass=Meta):\n    def __init__(self, x):\n        pass\n\n"
        "class Inherits(Model):\n    pass\n\n"
        "def wrapped(f):\n    return f\n\n"
        "@wrapped\ndef decorated(x):\n    pass\n\n"
        "try:\n    from fast import parse\nexcept ImportError:\n    def parse(text):\n        pass\n"
    ),
    "acme/_lazy_getattr.py": "def __getattr__(name):\n    return name\n",
    "acme/_namespace.py": (
        "space = globals()\nspace['Gone'] = 1\n\nfor key in ['A']:\n    setattr(object, key, 1)\n"
    ),
    "acme-1.2.dist-info/METADATA": "Metadata-Version: 2.1\nName: acme-sdk\nVersion: 1.2\n",
    "acme-1.2.dist-info/RECORD": "acme/__init__.py,,\nacme/_client.py,,\n",
}


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> _Library:
    root = tmp_path_factory.mktemp("site-packages")
    for relative, text in LIBRARY.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return _Library(root)


def test_a_class_reexported_by_name(library: _Library) -> None:
    """`acme.Client` is `acme/_client.py`'s class: `self` left out, a positional-only parameter
    not a keyword, a keyword-only one a keyword."""
    found = library.signature("acme", "Client")
    assert found == Signature(
        "acme._client.Client",
        ("url", "token"),
        ("token", "timeout"),
        ("url",),
        False,
        False,
        "acme/_client.py",
        4,
        "acme-sdk 1.2",
    )
    assert found.shown() == "(url, token=..., *, timeout=...)"


def test_a_function_through_a_star_import_with_all(library: _Library) -> None:
    found = library.signature("acme", "fetch")
    assert found is not None
    expected = ("acme._api.fetch", ("url", "params"), ("url",))
    assert (found.target, found.positional, found.required) == expected


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("acme.more", "fetch_all"),  # behind a star import without a literal __all__: unsure
        ("acme.more", "Client"),  # bound, then maybe bound again by such a star import
        ("acme", "hidden"),  # not in the star module's __all__: not bound there
        ("acme._models", "Decorated"),  # a decorator may change how it is called
        ("acme._models", "WithMeta"),  # so may a metaclass
        ("acme._models", "Inherits"),  # no __init__ of its own
        ("acme._models", "decorated"),
        ("acme._models", "parse"),  # bound inside a try
        ("acme", "missing"),
        ("nothing_here", "x"),
    ],
)
def test_what_is_not_written_plainly_is_left_alone(library: _Library, module: str, name: str) -> None:
    assert library.signature(module, name) is None


def test_an_alias_is_followed_to_its_definition(library: _Library) -> None:
    found = library.signature("acme", "Renamed")
    assert found is not None
    assert (found.target, found.keywords) == ("acme._models.Model", ("name",))


@pytest.mark.parametrize(
    ("module", "name", "lacks"),
    [
        ("acme", "Gone", True),  # no binding, and every star import's __all__ leaves it out
        ("acme", "Client", False),
        ("acme", "fetch", False),  # bound by a star import
        ("acme", "_client", False),  # a submodule: an attribute once anything imports it
        ("acme", "__version__", False),  # dunders are not judged
        ("acme.more", "Gone", False),  # a star import without a literal __all__
        ("acme._models", "parse", False),
        ("acme._lazy_getattr", "Gone", False),  # a module __getattr__
        ("acme._namespace", "Gone", False),  # a write through globals()
        ("acme._namespace", "Other", False),  # setattr with a computed name
        ("nothing_here", "Gone", False),
    ],
)
def test_a_name_a_module_surely_lacks(library: _Library, module: str, name: str, lacks: bool) -> None:
    assert (library.lacks(module, name) is not None) is lacks


def test_the_release_without_metadata_is_the_module_name(library: _Library) -> None:
    assert library.release("acme") == "acme-sdk 1.2"
    assert library.release("other") == "other"


@pytest.fixture(scope="module")
def findings(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Both case plugins validated with `--run` (one environment, built for real), as
    "RULE severity file:line"."""
    run = RunOptions(cache_dir=tmp_path_factory.mktemp("cache"), jobs=1)
    roots = (CASES / "call_misfits", CASES / "masked_plugin")
    catalog = Pipeline(roots, resolve_schemas(roots), run=run).catalog()
    return sorted(
        f"{f.rule} {f.severity} {f.file.split('/library_calls/')[-1]}:{f.line}" for f in catalog.findings
    )


def test_calls_that_do_not_fit_the_installed_httpx(findings: list[str]) -> None:
    """An error on the path every call takes (the smoke run's TypeError there is that finding,
    not another R001), warnings in branches; calls that fit, or unpack arguments, are silent."""
    assert [f for f in findings if f.split()[2].startswith("call_misfits/")] == [
        "R031 info call_misfits/tools/case.yaml:1",
        "R130 error call_misfits/tools/case.py:17",
        "R130 warning call_misfits/tools/case.py:14",
        "R130 warning call_misfits/tools/case.py:25",
        "R130 warning call_misfits/tools/case.py:31",
        "R131 warning call_misfits/tools/case.py:28",
    ]


def test_a_plugin_that_does_not_load_is_still_checked(findings: list[str]) -> None:
    """A provider YAML Dify refuses stops every run; the environment is built all the same and
    the call that would break next is told now, at its line."""
    assert [f for f in findings if f.split()[2].startswith("masked_plugin/")] == [
        "R052 info masked_plugin/manifest.yaml:0",
        "R130 error masked_plugin/tools/case.py:12",
        "Y001 error masked_plugin/provider/case.yaml:3",
    ]

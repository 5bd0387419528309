"""The weight of a built site: what GitHub Pages would publish, by kind of file, and the pages a
visitor loads first (each language's home page with its cards file, the translations page).

    python -m benchmarks weight --site=DIR          a site built already (the official catalog, say)
    python -m benchmarks weight [--tools=1000]      a synthetic registry of that size, built here

Sizes are the files' own sizes (what a Pages artifact holds), in decimal megabytes.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

from benchmarks.sitebuild import write_config
from benchmarks.synthetic import make_registry
from generator.cli import main as cli
from generator.site.languages import DEFAULT_LANGUAGE, LANGUAGE_SITES

KINDS = {
    ".html": "pages",
    ".json": "JSON (search, index, cards)",
    ".md": "Markdown for llms.txt",
    ".txt": "llms.txt",
}


PREFIXES = {lang.prefix: lang.code for lang in LANGUAGE_SITES if lang.prefix}


def page_kind(parts: tuple[str, ...], head: bytes) -> str:
    """What a page is, from its path below its language's root and the start of its body: a
    plugin's page, a page below a plugin (a tool's, an event's), a small page served in place of
    an English-only one, a rule's or a schema's page, or another page."""
    if b"dr-stub" in head:
        return "English-only stub"
    if parts[0] == "plugins":
        return "plugin" if len(parts) <= 3 else "tool and other child"
    return {"rules": "rule", "schemas": "schema"}.get(parts[0], "other")


def breakdown(site: Path) -> None:
    """Print the pages by kind and language, and Pagefind's bundle by part, in MB."""
    pages: Counter[tuple[str, str]] = Counter()
    counts: Counter[tuple[str, str]] = Counter()
    for path in site.rglob("*.html"):
        parts = path.relative_to(site).parts
        code = PREFIXES.get(parts[0], DEFAULT_LANGUAGE.code) if len(parts) > 1 else DEFAULT_LANGUAGE.code
        inner = parts[1:] if parts[0] in PREFIXES and len(parts) > 1 else parts
        with path.open("rb") as page:
            head = page.read(4096)
        key = (page_kind(inner, head), code)
        pages[key] += path.stat().st_size
        counts[key] += 1
    codes = [lang.code for lang in LANGUAGE_SITES]
    print(f"{'pages, MB (count)':<24}" + "".join(f"{code:>17}" for code in codes))
    for kind in sorted({kind for kind, _ in pages}):
        cells = "".join(f"{pages[kind, code] / 1e6:>8.1f} ({counts[kind, code]:>6})" for code in codes)
        print(f"{kind:<24}{cells}")
    bundle = site / "pagefind"
    if bundle.is_dir():
        parts_size: Counter[str] = Counter()
        for path in bundle.rglob("*"):
            if path.is_file():
                part = path.relative_to(bundle).parts
                parts_size[part[0] if len(part) > 1 else "other"] += path.stat().st_size
        print("pagefind, MB: " + ", ".join(f"{k} {v / 1e6:.1f}" for k, v in parts_size.most_common()))


def measure(site: Path) -> None:
    """Print the figures of the site built in `site`."""
    sizes: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    for path in site.rglob("*"):
        if not path.is_file():
            continue
        parts = path.relative_to(site).parts
        kind = "media (icons, README images)" if parts[0] == "media" else KINDS.get(path.suffix, "other")
        if parts[0] == "pagefind":
            kind = "Pagefind (search index)"
        if "assets" in parts[:2]:
            kind = "theme and registry assets"
        sizes[kind] += path.stat().st_size
        counts[kind] += 1
    total = sum(sizes.values())
    print(f"{'what':<32} {'files':>7} {'MB':>8}")
    for kind, size in sizes.most_common():
        print(f"{kind:<32} {counts[kind]:>7} {size / 1e6:>8.1f}")
    print(f"{'total':<32} {sum(counts.values()):>7} {total / 1e6:>8.1f}")
    print()
    print(f"{'language':<10} {'home KB':>8} {'+cards KB':>10} {'translations KB':>16}")
    for lang in LANGUAGE_SITES:
        root = site / lang.prefix if lang.prefix else site
        home = (root / "index.html").stat().st_size
        cards = root / "cards.json"
        with_cards = home + (cards.stat().st_size if cards.is_file() else 0)
        translations = (root / "translations" / "index.html").stat().st_size
        print(f"{lang.code:<10} {home / 1e3:>8.0f} {with_cards / 1e3:>10.0f} {translations / 1e3:>16.0f}")
    print()
    breakdown(site)


def main(argv: list[str]) -> int:
    """Measure `--site`, or build a synthetic registry of `--tools` tools and measure it."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks weight", description=__doc__)
    parser.add_argument("--site", type=Path, default=None)
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="100 tools when no site is given")
    args, _ = parser.parse_known_args(argv)
    if args.site is not None:
        measure(args.site)
        return 0
    tools = 100 if args.quick else args.tools
    with tempfile.TemporaryDirectory(prefix="weight-") as folder:
        base = Path(folder)
        registry = make_registry(base / "registry", max(1, tools // 10), 10)
        config = write_config(base / "config", [registry])
        cli(["build", str(config.parent), "--site-dir", str(base / "site"), "--no-run", "--format", "json"])
        print(f"synthetic registry: {tools} tools")
        measure(base / "site")
    return 0

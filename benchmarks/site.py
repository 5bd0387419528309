"""Site build speed: generator time vs MkDocs's own time, for a synthetic registry and the corpus.

    python -m benchmarks.site [--plugins 100 --tools 10] [--corpus PATH]

The generator's share is the catalog (load + check; tool runs are cached, so they are left out here)
plus rendering every generated page in the four languages; MkDocs's own time is the rest of the
build (Markdown, theme templates, search index, copying). Targets: the generator adds at most 15%
to MkDocs's own time, and 1,000 tools in four languages build in under a minute on two cores.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from benchmarks.synthetic import make_registry

REPO = Path(__file__).resolve().parents[1]


def _config(folder: Path, registries: list[Path]) -> Path:
    config = {
        "site_name": "Benchmark",
        "site_url": "https://dify.ai/",
        "docs_dir": str(REPO / "registry"),
        "theme": {"name": "material", "features": ["navigation.prune"]},
        "plugins": [
            {"dify-registry": {"registry": [str(r) for r in registries], "schemas": str(REPO / "schemas")}},
            "search",
        ],
        "markdown_extensions": ["tables", "admonition"],
    }
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "mkdocs.yml"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def measure(name: str, registries: list[Path], work: Path) -> dict[str, float]:
    """Time the catalog, the page rendering in four languages, and the whole build."""
    import logging

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from generator.site.languages import LANGUAGE_SITES
    from generator.site.multilang import registry_plugin
    from generator.site.pages import SitePages
    from generator.site.publish import build_catalog_for

    logging.getLogger("mkdocs").setLevel(logging.WARNING)
    config_file = _config(work / name, registries)
    started = time.perf_counter()
    catalog = build_catalog_for(registries, REPO / "schemas", None)
    catalog_seconds = time.perf_counter() - started
    started = time.perf_counter()
    pages = 0
    for language in LANGUAGE_SITES:
        site = SitePages(catalog, language)
        site.home()
        pages += sum(1 for _ in site.all())
    render_seconds = time.perf_counter() - started
    config = load_config(str(config_file), site_dir=str(work / name / "site"))
    registry_plugin(config).preset = catalog
    started = time.perf_counter()
    build(config)
    build_seconds = time.perf_counter() - started
    mkdocs_seconds = build_seconds - render_seconds
    tools = sum(len(p.plugin.tools) for p in catalog.plugins if p.plugin)
    return {
        "plugins": len(catalog.plugins),
        "tools": tools,
        "generated_pages": pages,
        "catalog_s": round(catalog_seconds, 2),
        "render_s": round(render_seconds, 2),
        "mkdocs_s": round(mkdocs_seconds, 2),
        "total_s": round(catalog_seconds + build_seconds, 2),
        "generator_share_pct": round(100 * render_seconds / mkdocs_seconds, 1),
        "generator_with_catalog_pct": round(100 * (render_seconds + catalog_seconds) / mkdocs_seconds, 1),
    }


def main(argv: list[str] | None = None) -> None:
    """Print one JSON line per measured site."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--plugins", type=int, default=100)
    parser.add_argument("--tools", type=int, default=10)
    parser.add_argument(
        "--corpus", type=Path, default=REPO.parent / "shared" / "corpus" / "dify-official-plugins"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-site-") as folder:
        work = Path(folder)
        registry = make_registry(work / "synthetic", args.plugins, args.tools)
        print(json.dumps({"site": "synthetic", **measure("synthetic", [registry], work)}), flush=True)
        if args.corpus.is_dir():
            corpus = sorted(
                p for kind in ("tools", "datasources") for p in (args.corpus / kind).iterdir() if p.is_dir()
            )
            print(json.dumps({"site": "corpus", **measure("corpus", corpus, work)}), flush=True)


if __name__ == "__main__":
    main()

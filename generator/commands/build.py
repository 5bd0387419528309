"""`dify-registry build [PATH...] [--site-dir DIR] [--strict]`: validate, run, then build the site.

A registry with its own `mkdocs.yml` builds with it; anything else (a plugin folder, a package, a
collection such as Dify's official plugins repository, or several paths) builds with the registry's
built-in site configuration (`siteconfig.py`).
"""

from __future__ import annotations

import argparse
import io
import logging
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from generator import unchanged_build as unchanged
from generator.commands.options import (
    PATH_HELP,
    add_output_options,
    add_run_options,
    run_options,
    schemas_readable,
)
from generator.commands.siteconfig import (
    PREVIEW_ADDRESS,
    SiteSettings,
    catalog_settings,
    preview_settings,
    write_site_config,
)
from generator.errors import EXIT_OK, BrokenRegistry
from generator.inputs import InputError, display_root, is_plugin
from generator.progress import Stage, progress_wanted
from generator.published import SITE_URL
from generator.report import exit_code, report
from generator.site.rebuild import Ledger, Rebuild


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `build` subcommand."""
    parser = commands.add_parser("build", help="validate, run the examples and build the registry site")
    parser.add_argument(
        "paths",
        nargs="*",
        default=["."],
        metavar="PATH",
        help=f"a registry holding mkdocs.yml (default: .), or {PATH_HELP}",
    )
    parser.add_argument(
        "--site-dir", type=Path, default=None, help="where to write the site (default: site/)"
    )
    parser.add_argument("--no-run", action="store_true", help="build without running the tools' examples")
    parser.add_argument(
        "--title", default=None, help="the site's title (default: mkdocs.yml's, else the catalog's)"
    )
    parser.add_argument(
        "--site-url",
        default=None,
        metavar="URL",
        help=f"where the site will be served (default: mkdocs.yml's, else http://{PREVIEW_ADDRESS}/)",
    )
    add_output_options(parser, collections=True)
    add_run_options(parser)
    parser.set_defaults(handler=build_command)


def build_command(args: argparse.Namespace) -> int:
    """Report findings, then build; with --strict, findings stop the build."""
    paths = [Path(p) for p in args.paths]
    for path in paths:
        if not path.exists():
            raise InputError(f"{path}: no such file or folder")
    if len(paths) == 1 and (paths[0] / "mkdocs.yml").is_file():
        return _build(args, paths[0] / "mkdocs.yml", None)
    site_url = args.site_url or f"http://{PREVIEW_ADDRESS}/"
    settings: SiteSettings = (
        preview_settings(paths[0], site_url, False, None)
        if len(paths) == 1 and is_plugin(paths[0]) and args.title is None
        else catalog_settings(args.title, site_url)
    )
    with tempfile.TemporaryDirectory(prefix="dify-registry-site-") as folder:
        config_file = write_site_config(Path(folder), paths, settings)
        return _build(args, config_file, paths)


def _build(args: argparse.Namespace, config_file: Path, paths: list[Path] | None) -> int:
    """Validate, run and build with the configuration in `config_file`; `paths` are the plugins'
    paths as the user named them (None: the ones mkdocs.yml names)."""
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    from generator.site.multilang import registry_plugin

    site_dir = args.site_dir or (Path("site") if paths is not None else None)
    overrides = {"site_dir": str(site_dir.resolve())} if site_dir else {}
    if args.site_url:
        overrides["site_url"] = args.site_url
    if args.title:
        overrides["site_name"] = args.title
    try:
        config = load_config(str(config_file), **overrides)
        plugin = registry_plugin(config)
        named = plugin.source(config)
    except (MkDocsException, TypeError) as broken:
        raise BrokenRegistry(str(broken)) from None
    source = replace(
        named,
        paths=named.paths if paths is None else paths,
        run=None if args.no_run else run_options(args, site_url=config.site_url or SITE_URL),
        overlays=args.overlays,
    )
    from generator.run.runtypes import DEFAULT_CACHE

    site = Path(config.site_dir)
    cache = source.run.cache_dir if source.run else (args.cache_dir or DEFAULT_CACHE)
    view = f"{args.format} show_all={args.show_all}"
    digest, frame = unchanged.digests(config, source)
    record = unchanged.Record.of(cache, site, digest, view)
    last = None if args.strict else record.last_report(site, colour=sys.stdout.isatty())
    if last is not None:
        sys.stdout.write(last)
        print(
            f"site in {display_root(site)} is up to date: nothing it is built from changed", file=sys.stderr
        )
        return EXIT_OK
    with schemas_readable():
        catalog = plugin.catalog(config, source, progress_wanted(args.format))
    printed = _Tee(sys.stdout)
    report(catalog, args.format, printed, show_all=args.show_all)
    code = exit_code(catalog.findings, args.strict)
    if args.strict and code != EXIT_OK:
        print("dify-registry: not building the site (--strict and findings above)", file=sys.stderr)
        return code
    _render(config, Ledger.of(record.path), frame, progress_wanted(args.format))
    record.keep(printed.getvalue())
    print(f"site built in {display_root(site_dir or site)}", file=sys.stderr)
    return EXIT_OK


def _render(config: Any, ledger: Ledger, frame: dict[str, str], shown: bool) -> None:
    """Run MkDocs's build of `config`: when the last build of its site folder had the same `frame`,
    one that renders only the pages whose content changed (`site/rebuild.py`); else a full build,
    saying why when the folder was built before."""
    from mkdocs.commands.build import build
    from mkdocs.exceptions import MkDocsException

    from generator.site.multilang import registry_plugin

    plugin = registry_plugin(config)
    why_full = ledger.why_full(frame, Path(config.site_dir))
    plugin.rebuild = Rebuild(ledger, incremental=why_full is None)
    if why_full is not None and ledger.folder.exists():
        print(f"building every page: {why_full}", file=sys.stderr)
    watcher = render_progress(shown, why_full is None)
    config.plugins["dify-registry-progress"] = watcher
    ledger.start()
    try:
        with _KeptPagesAllowed():
            build(config, dirty=why_full is None)
    except MkDocsException as broken:
        raise BrokenRegistry(str(broken)) from None
    finally:
        watcher.close()
    ledger.complete(frame)
    if why_full is None:
        plan = plugin.plan
        said = (
            f"every page again: {plan.why_full}"
            if plan.why_full
            else f"{plan.rendered} rendered again, {len(plan.kept)} kept as the last build wrote them"
        )
        print(f"{config.theme['language']} pages: {said}", file=sys.stderr)


class _KeptPagesAllowed(logging.Filter):
    """While a build that keeps the pages that did not change runs: MkDocs warns that such a build
    (its `dirty` build) may show outdated navigation on the pages it renders, which holds only for
    the pages MkDocs itself skips; the registry reads every page's source and keeps a page only when
    the frame all pages share and the page's own content are what the kept HTML was made from."""

    LOGGER = "mkdocs.commands.build"

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("A 'dirty' build is being performed")

    def __enter__(self) -> None:
        logging.getLogger(self.LOGGER).addFilter(self)

    def __exit__(self, *_: object) -> None:
        logging.getLogger(self.LOGGER).removeFilter(self)


class _Tee(io.StringIO):
    """Writes through to `stream` and keeps what was written; a terminal to the reporter when
    `stream` is one (its colours)."""

    def __init__(self, stream: IO[str]) -> None:
        super().__init__()
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(text)
        return super().write(text)

    def isatty(self) -> bool:
        return self.stream.isatty()


def render_progress(shown: bool, incremental: bool = False) -> Any:
    """A MkDocs plugin drawing the render's progress: the default language's pages, one by one, then
    the other languages (built in their own processes: counted by the pages they have written), then
    the search index, until the build returns (`close`). A build that keeps the pages that did not
    change (`incremental`) counts the pages it renders again."""
    from mkdocs.plugins import BasePlugin, event_priority

    class RenderProgress(BasePlugin):  # type: ignore[type-arg,no-untyped-call]
        def __init__(self) -> None:
            self.stage = Stage.shown_if(False, "", 0)
            self.pages = 0
            self.polling: LaterStages | None = None
            self.started = time.time()
            self.rendered = 0

        def on_files(self, files: Any, *, config: Any) -> Any:
            self.pages = len(files.documentation_pages())
            self.stage = Stage.shown_if(shown, f"pages ({config.theme['language']})", self.pages)
            return files

        def on_post_page(self, output: str, *, page: Any, config: Any) -> str:
            self.stage.advance(page.file.src_uri)
            self.rendered += bool(output)
            return output

        @event_priority(50)  # before the registry's plugin waits for the other languages
        def on_post_build(self, *, config: Any) -> None:
            self.stage.close()
            self.stage = Stage.shown_if(False, "", 0)
            if shown:
                pages = self.rendered if incremental else self.pages
                self.polling = LaterStages(Path(config.site_dir), pages, self.started)
                self.polling.start()

        def close(self) -> None:
            if self.polling is not None:
                self.polling.stop()
            self.stage.close()

    return RenderProgress()


class LaterStages(threading.Thread):
    """Draws what follows the default language's pages, which this process cannot count itself: the
    other languages' pages (their folders' pages written since the build started, as many as the
    default language wrote), then the search index."""

    INTERVAL = 1.0

    def __init__(self, site: Path, pages: int, started: float) -> None:
        super().__init__(daemon=True)
        from generator.site.languages import LANGUAGE_SITES

        self.folders = [site / language.prefix for language in LANGUAGE_SITES if language.prefix]
        self.search = site / "pagefind"
        self.started = started
        self.stage = Stage.shown_if(True, "other languages", pages * len(self.folders))
        self.stopping = threading.Event()

    def _written(self, path: Path) -> bool:
        try:
            return path.stat().st_mtime >= self.started
        except OSError:
            return False

    def run(self) -> None:
        while not self.stopping.wait(self.INTERVAL):
            pages = (page for folder in self.folders for page in folder.rglob("index.html"))
            written = sum(self._written(page) for page in pages)
            if written >= self.stage.total or self._written(self.search):
                break
            self.stage.reach(written, " ".join(f.name for f in self.folders))
        if self.stopping.is_set():
            return
        self.stage.reach(self.stage.total, "")
        self.stage.close()
        self.stage = Stage.shown_if(True, "search index", 0)
        while not self.stopping.wait(self.INTERVAL):
            self.stage.show("Pagefind, every language")

    def stop(self) -> None:
        """The build returned: every stage is done. Close the one under way, and when the build
        was quicker than the first look at the folders (a small site), the ones not drawn yet."""
        self.stopping.set()
        self.join()
        if self.stage.label == "other languages":
            self.stage.reach(self.stage.total, "")
            self.stage.close()
            self.stage = Stage.shown_if(True, "search index", 0)
        self.stage.close()

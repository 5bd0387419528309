"""A publishing set-up for a collection the maintainer names (`dify-registry init`): the GitHub
workflow that runs the tools in shards, merges their runs, builds and checks the site and deploys it
to GitHub Pages; its configuration, at the top of the workflow; and a README section.

A collection is a folder of the maintainer's repository or a git repository at a ref
(`git+URL@REF`, optionally `#subdirectory=DIR` as pip spells it), fetched by the workflow into
`collections/<name>/`. Findings of plugins the maintainer does not own are shown on the pages and do
not stop the publication: the run step accepts `run`'s exit 1 (findings) and nothing else, so a
broken registry (exit 3), a usage error (2) or a crash still stops the job.
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from generator import __version__

WORKFLOW_PATH = ".github/workflows/publish-catalog.yml"
COLLECTIONS = "collections"
README_START = "<!-- dify-registry init: publishing -->"
README_END = "<!-- /dify-registry init -->"
# What the workflow installs: this release of the registry's own package.
DEFAULT_PACKAGE = f"dify-registry=={__version__}"
_NAME = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True, slots=True)
class Collection:
    """One collection: where the workflow finds its plugins (`path`, relative to the repository),
    and for a git repository the URL and ref it fetches into `folder`."""

    path: str
    url: str = ""
    ref: str = ""
    folder: str = ""


@dataclass(frozen=True, slots=True)
class Settings:
    """What the written set-up publishes, and how."""

    collections: tuple[Collection, ...]
    title: str
    site_url: str
    shards: int = 3
    overlays: str = "overlays"
    package: str = DEFAULT_PACKAGE


def parse_collection(text: str) -> Collection:
    """A collection as the command line names it: a folder of the repository, or
    `git+URL[@REF][#subdirectory=DIR]`. ValueError when it is neither."""
    if not text.startswith("git+"):
        path = posixpath.normpath(text.strip().rstrip("/") or ".")
        if path.startswith(("/", "../")) or path == "..":
            raise ValueError(f"{text}: a folder of the repository the workflow publishes from (relative)")
        return Collection(path)
    url, _, fragment = text.removeprefix("git+").partition("#")
    subdirectory = fragment.removeprefix("subdirectory=") if fragment.startswith("subdirectory=") else ""
    if fragment and not subdirectory:
        raise ValueError(f"{text}: the only fragment understood is #subdirectory=DIR")
    head, at, ref = url.rpartition("@")
    if at and "/" not in ref and ("/" in head.split("://", 1)[-1]):
        url = head
    else:
        ref = "HEAD"
    name = _NAME.sub("-", posixpath.basename(urlsplit(url).path.rstrip("/")).removesuffix(".git")).strip("-.")
    if not name or ":" not in url:
        raise ValueError(f"{text}: not a git URL (scheme://host/path or host:path) with a repository name")
    folder = f"{COLLECTIONS}/{name}"
    path = posixpath.normpath(posixpath.join(folder, subdirectory)) if subdirectory else folder
    if path != folder and not path.startswith(folder + "/"):
        raise ValueError(f"{text}: the subdirectory leaves the repository")
    return Collection(path, url, ref, folder)


def workflow(settings: Settings) -> str:
    """The GitHub workflow's text."""
    paths = " ".join(_quoted(c.path) for c in settings.collections)
    fetches = "".join(_fetch(c) for c in settings.collections if c.url)
    shards = ", ".join(str(i) for i in range(1, settings.shards + 1))
    text = _WORKFLOW
    for token, value in (
        ("@TITLE@", json.dumps(settings.title)),
        ("@SITE_URL@", json.dumps(settings.site_url)),
        ("@OVERLAYS@", json.dumps(settings.overlays)),
        ("@PACKAGE@", json.dumps(settings.package)),
        ("@SHARD_LIST@", shards),
        ("@SHARDS@", str(settings.shards)),
        ("@FETCH@", fetches),
        ("@PATHS@", paths),
        ("@HASHED@", ", ".join(_expression_text(f"{c.path}/**") for c in settings.collections)),
    ):
        text = text.replace(token, value)
    return text


def readme_section(settings: Settings) -> str:
    """The README section that explains the set-up, between markers `init` replaces when run again."""
    sources = "\n".join(
        f"- `{c.url}` at `{c.ref}` (fetched into `{c.folder}/`)" if c.url else f"- the folder `{c.path}/`"
        for c in settings.collections
    )
    return _README.format(
        start=README_START,
        end=README_END,
        workflow=WORKFLOW_PATH,
        sources=sources,
        title=settings.title,
        site_url=settings.site_url,
        shards=settings.shards,
        overlays=settings.overlays,
        package=settings.package,
        paths=" ".join(c.path for c in settings.collections),
        fetches="".join(
            f"git init -q {_quoted(c.folder)} && git -C {_quoted(c.folder)} fetch -q --depth 1"
            f" {_quoted(c.url)} {_quoted(c.ref)} && git -C {_quoted(c.folder)} checkout -q FETCH_HEAD\n"
            for c in settings.collections
            if c.url
        ),
    )


def with_section(readme: str, section: str) -> str:
    """`readme` with the set-up's section replaced, or added at its end."""
    start, end = readme.find(README_START), readme.find(README_END)
    if start != -1 and end > start:
        return readme[:start] + section.rstrip("\n") + readme[end + len(README_END) :]
    return (readme.rstrip("\n") + "\n\n" if readme.strip() else "") + section


def _quoted(path: str) -> str:
    """A path in a shell command (the paths are checked: no quote can be in them unescaped)."""
    return path if re.fullmatch(r"[A-Za-z0-9._/-]+", path) else "'" + path.replace("'", "'\\''") + "'"


def _expression_text(text: str) -> str:
    """A string literal of GitHub's expressions (single quotes, doubled inside)."""
    return "'" + text.replace("'", "''") + "'"


def _fetch(collection: Collection) -> str:
    # Values reach the script through `env`, never inside it (an expression there is shell
    # injection); a fetch by ref works for a branch, a tag and a commit alike.
    return _FETCH.format(
        folder=json.dumps(collection.folder), url=json.dumps(collection.url), ref=json.dumps(collection.ref)
    )


_FETCH = """      - name: Fetch {folder}
        env:
          DEST: {folder}
          URL: {url}
          REF: {ref}
        run: git init -q "$DEST" && git -C "$DEST" fetch -q --depth 1 "$URL" "$REF"
          && git -C "$DEST" checkout -q FETCH_HEAD
"""

_WORKFLOW = """# Publishes the plugin catalog to GitHub Pages (written by `dify-registry init`; run it
# again to change the collections). Each job of the matrix runs one shard of the tools (`--shard I/N`, the
# same split on every machine) with a cache of its own and uploads the runs; the site job merges
# them, builds the site from the merged cache without running anything again, checks it and
# deploys it. Findings of the plugins are shown on the pages and never stop the publication; a
# broken registry or a crash does.
name: Publish the plugin catalog

on:
  push:
    branches: [main]
  workflow_dispatch:

permissions:
  contents: read

concurrency:
  group: pages
  cancel-in-progress: false

# The configuration: the site's title and address, the registry's examples for plugins it does not
# own, and the package that builds it.
env:
  SITE_TITLE: @TITLE@
  SITE_URL: @SITE_URL@
  OVERLAYS: @OVERLAYS@
  DIFY_REGISTRY: @PACKAGE@

jobs:
  shard:
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      matrix:
        shard: [@SHARD_LIST@]
    env:
      SHARD: ${{ matrix.shard }}/@SHARDS@
    steps:
      - uses: actions/checkout@v4
@FETCH@      - uses: actions/setup-python@v5
        with:
          python-version: "3.12" # dify_plugin 0.8 and newer need it to run the tools
      - name: Keep uv's cache
        uses: actions/cache@v4
        with:
          path: ~/.cache/uv
          key: uv-${{ runner.os }}-${{ matrix.shard }}-${{ hashFiles(@HASHED@) }}
          restore-keys: uv-${{ runner.os }}-${{ matrix.shard }}-
      - name: Keep this shard's runs
        uses: actions/cache@v4
        with:
          path: shard-cache
          key: runs-${{ matrix.shard }}-${{ runner.os }}-${{ hashFiles(@HASHED@) }}
          restore-keys: runs-${{ matrix.shard }}-${{ runner.os }}-
      - name: Install dify-registry
        run: python -m pip install --disable-pip-version-check --quiet "$DIFY_REGISTRY"
      # Exit 1 means findings in the plugins, which the pages show; anything else stops the job.
      - name: Run this shard's tools
        run: dify-registry run @PATHS@ --shard "$SHARD" --cache-dir shard-cache --overlays "$OVERLAYS"
          || test $? -eq 1
      - name: Bound the shard's cache
        run: dify-registry cache prune --cache-dir shard-cache --max-size 2G
      - uses: actions/upload-artifact@v4
        with:
          name: runs-${{ matrix.shard }}
          # the runs only: environments are tied to the machine that built them
          path: |
            shard-cache
            !shard-cache/envs
            !shard-cache/overlays
          retention-days: 1

  site:
    needs: shard
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
@FETCH@      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - name: Install dify-registry
        run: python -m pip install --disable-pip-version-check --quiet "$DIFY_REGISTRY"
      # Pagefind 1.6 from npm, checked against its pinned hash: a third of 1.5's memory in Chinese
      # and Japanese (the build falls back to the wheel's 1.5 when it cannot be fetched)
      - name: Install Pagefind 1.6
        run: python -m generator.site.pagefind_binary
      - uses: actions/download-artifact@v4
        with:
          pattern: runs-*
          path: shards
      - name: Merge the shards' runs
        run: dify-registry cache merge shards/* --into .dify-registry-cache
      # Every run is in the merged cache: the build runs nothing, whatever the site's address.
      - name: Build the site
        run: dify-registry build @PATHS@ --site-dir site --title "$SITE_TITLE" --site-url "$SITE_URL"
          --overlays "$OVERLAYS"
      - name: Check the site
        run: dify-registry check-site site
      - uses: actions/upload-pages-artifact@v3
        with:
          path: site

  deploy:
    needs: site
    runs-on: ubuntu-latest
    permissions:
      pages: write
      id-token: write
    environment:
      name: github-pages
      url: ${{ steps.deployment.outputs.page_url }}
    steps:
      - id: deployment
        uses: actions/deploy-pages@v4
"""

_README = """{start}
## Publishing the catalog

`{workflow}` publishes **{title}** at <{site_url}>
on every push to `main` and by hand (Actions, "Run workflow"). Enable GitHub Pages with "GitHub
Actions" as its source first. It catalogs:

{sources}

{shards} jobs each run a shard of the tools with the real `dify_plugin` SDK (sandboxed, offline:
recorded requests are answered from their recordings), one job merges their runs, builds the site in
four languages from the merged runs without running anything again, checks it
(`dify-registry check-site`) and deploys it. What the validator and the runs find in plugins you do
not own is shown on their pages and does not stop the publication; a broken registry does.

The configuration is the `env` block at the top of the workflow: `SITE_TITLE`, `SITE_URL`,
`OVERLAYS` (your examples for plugins you do not own, as `{overlays}/<author>/<plugin>/`) and
`DIFY_REGISTRY` (the package installed: `{package}`). The same steps on your machine:

```sh
{fetches}dify-registry run {paths} --shard 1/2 --cache-dir cache-1      # and 2/2 into cache-2
dify-registry cache merge cache-1 cache-2 --into .dify-registry-cache
dify-registry build {paths} --site-dir site --site-url {site_url}
dify-registry check-site site
```
{end}
"""

"""Every read of a plugin's files goes through `generator.load.reader`: containment, links and
size limits are decided there once. This test greps the generator for file reads elsewhere; each
one allowed below reads something that is not a plugin file, and says what."""

from __future__ import annotations

import re

from tests.conftest import REPO

READS = re.compile(r"\bopen\(|read_text\(|read_bytes\(|os\.walk\(|\bread_head\(")
READER = "generator/load/reader.py"
# module -> (what the line holds, what it reads): none of these is a file of a plugin.
ALLOWED: dict[str, tuple[tuple[str, str], ...]] = {
    "generator/schemas/lock.py": (
        ("json.loads(path.read_bytes())", "the registry's schema lock file"),
        ("sha256(path.read_bytes())", "the registry's hosted schemas"),
    ),
    "generator/schemas/load.py": (("raw = path.read_bytes()", "the registry's hosted schemas"),),
    "generator/schemas/validators.py": (("path.read_text(", "the schemas shipped with the generator"),),
    "generator/load/recordings.py": (("RECORDING_SCHEMA.read_text(", "the shipped recording schema"),),
    "generator/load/package.py": (
        ("archive.open(info)", "a .difypkg being unpacked (bounded there) into the folder the reader reads"),
    ),
    "generator/run/cache.py": (('(folder / "run.json").read_text(', "a run in the generator's cache"),),
    "generator/run/own_code.py": (
        ("ast.parse(path.read_bytes())", "the generator's own code, for the modules a run depends on"),
        ("path.read_bytes() + ", "the generator's own code, for its digest"),
    ),
    "generator/site/pagefind_binary.py": (
        ("tarfile.open(fileobj=io.BytesIO(tarball)", "npm's Pagefind package, in memory, of the pinned hash"),
    ),
    "generator/cli.py": (("os.open(os.devnull", "/dev/null, in place of a stdout nobody reads"),),
    "generator/installed_from.py": (
        ('read_text("direct_url.json")', "the generator's own install record (PEP 610), not a plugin's"),
    ),
    "generator/run/worker.py": (
        ('(folder / "stdout").open(', "a worker's own output file"),
        ('(folder / "stderr").open(', "a worker's own output file"),
    ),
    "generator/inputs.py": (
        ("os.walk(root)", "a collection's folders, to find its plugin folders (it never enters one)"),
    ),
    "generator/ruledocs.py": (("path.read_text(", "the registry's own documentation pages"),),
    "generator/site/reencode.py": (
        ("return kept.read_bytes()", "an image re-encoded by an earlier build, in the user's cache"),
        ("Path(__file__).read_bytes()", "the re-encoding module's own code, for its version"),
        ("Pillow.open(io.BytesIO(content))", "an image's bytes in memory, read through the reader"),
    ),
    "generator/site/weight.py": (("base.read_text(", "the MkDocs theme's own base template"),),
    "generator/site/mkdocs_plugin.py": (
        ("(HERE / source).read_text(", "the registry's own stylesheet and script sources"),
    ),
    "generator/run/invented.py": (("wave.open(buffer", "an invented sound file in memory"),),
    "generator/run/environment.py": (('path.open("a")', "the lock file of a built environment"),),
    "generator/run/envbuild.py": (("os.walk(tree)", "a built environment, to give it to its owner"),),
    "generator/run/builder.py": (
        ("os.open(target, os.O_PATH", "a handle on the environment being built"),
        ('(entry / "stat").read_text()', "/proc, to find the build's processes"),
        ('Path("/proc", str(pid), "io").read_text()', "/proc, the build's bytes read and written"),
    ),
    "generator/check/library_calls.py": (
        ("ast.parse(path.read_bytes())", "a library's source in a built environment"),
        ('path.open("rb") as stream', "a library's metadata in a built environment"),
    ),
    "generator/run/native.py": (("archive.open(info)", "a member of a wheel the reader read (in memory)"),),
    "generator/run/child/zygote.py": (("os.open(os.devnull", "/dev/null, as the child's stdin"),),
    "generator/run/child/view.py": (
        ("os.walk(environment)", "the built environment, mirrored into a worker's private view"),
    ),
    "generator/run/child/isolation.py": (
        ("os.open(p, os.O_PATH", "handles on folders kept inside the sandbox"),
        ("os.walk(target)", "the sandbox's copy of the plugin, opened for its uid (modes only)"),
        ('(entry / "stat").read_text()', "/proc, to find the child's own processes"),
        ("table.read_text()", "/proc's mount table"),
        ("os.open(environment, os.O_PATH", "a handle on the cached environment under a run's writable view"),
        ("os.walk(environment)", "the cached environment, to give a run's writable view its folders"),
        ("os.open(str(path), os.O_PATH", "handles on a run's writable view (upper and work folders)"),
    ),
    "generator/run/share.py": (
        ("record.read_text(", "a built environment's RECORD files, to share what its wheels installed"),
        ('path.open("rb")', "a file of a built environment, hashed before it is shared"),
    ),
    "generator/run/cachedir.py": (
        ("os.walk(path, onerror", "the run cache's own folders, to size them"),
        ("os.walk(doomed)", "a cache entry being pruned, to make it removable"),
    ),
    "generator/sitecheck.py": (
        ("_link_problems(site, relative, file.read_bytes()", "a page of the built site"),
        ("_path_problems(relative, file.read_bytes()", "a file of the built site"),
        ("hashlib.sha256(target.read_bytes())", "a schema file of the built site"),
        ("(site / INDEX).read_text(", "the built site's own index.json"),
    ),
    "generator/commands/init.py": (
        ('readme.read_text(encoding="utf-8")', "the maintainer's own README, to add the publishing section"),
    ),
    "generator/site/search.py": (
        ("json.loads(entry.read_text(", "Pagefind's entry file of one language's index, in the built site"),
        (
            "json.loads((output / ENTRY).read_text(",
            "Pagefind's entry file of one language's index, in the built site",
        ),
    ),
    "generator/site/rebuild.py": (
        ('return path.read_text(encoding="utf-8")', "a site folder's build records, in the run cache"),
    ),
    "generator/unchanged_build.py": (
        ("self.path.read_text(", "the record of a site folder's last build, in the run cache"),
        ("hashlib.sha256(path.read_bytes())", "the site's hand-written pages (docs_dir)"),
        ("os.walk(folder)", "the folders a build reads, for their files' sizes and times (not content)"),
    ),
    "generator/commands/workflow.py": (
        ("read_dsl(file.read_bytes()", "a workflow DSL file, size checked before"),
    ),
    "generator/workflow/catalog.py": (
        ("json.loads(path.read_bytes())", "a published index.json, size checked before"),
    ),
    "generator/workflow/legacy.py": (("DATA.read_text(", "the shipped map of legacy provider names"),),
    "generator/check/sdk_index.py": (("INDEX.read_text(", "the shipped index of the SDK's File by version"),),
    "generator/check/sdk_api_index.py": (
        ("INDEX.read_text(", "the shipped index of the SDK's names by release"),
    ),
    "generator/check/import_index.py": (
        ("INDEX.read_text(", "the shipped index of import names by distribution"),
        (
            '(folder / "METADATA").read_text(',
            "an installed environment's metadata, when the index is rebuilt",
        ),
        ("path.read_text(", "an installed environment's metadata, when the index is rebuilt"),
    ),
}


def _reads() -> list[tuple[str, int, str]]:
    found = []
    for path in sorted((REPO / "generator").rglob("*.py")):
        relative = path.relative_to(REPO).as_posix()
        if relative == READER:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if READS.search(line) and not line.lstrip().startswith("#"):
                found.append((relative, number, line.strip()))
    return found


def _allowed(relative: str, line: str) -> bool:
    return any(held in line for held, _why in ALLOWED.get(relative, ()))


def test_plugin_files_are_read_only_through_the_reader() -> None:
    """No module but the reader opens, reads or walks files, apart from the listed non-plugin reads."""
    stray = [
        f"{relative}:{number}: {line}" for relative, number, line in _reads() if not _allowed(relative, line)
    ]
    assert stray == [], "read these through generator.load.reader.PluginReader:\n" + "\n".join(stray)


def test_every_allowed_read_still_exists() -> None:
    """An allowance whose line is gone is removed too, so the list stays the list of real reads."""
    present = {
        (relative, held)
        for relative, _n, line in _reads()
        for held, _ in ALLOWED.get(relative, ())
        if held in line
    }
    listed = {(relative, held) for relative, entries in ALLOWED.items() for held, _ in entries}
    assert listed - present == set()


def test_the_grep_finds_a_planted_read() -> None:
    """The pattern catches each kind of read it is meant to (so the first test can fail)."""
    lines = ["Path(x).read_text()", "p.read_bytes()", "open(name)", "os.walk(root)", "read_head(p, 1)"]
    assert all(READS.search(line) for line in lines)
    assert not READS.search("urlopen(request)")
    assert not READS.search("_link_open(tokens)")

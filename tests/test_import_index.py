"""The import names of distributions and what they bring along, from the index read from real
installs (`generator/check/import_index.json`)."""

from __future__ import annotations

from pathlib import Path

from generator.check.import_index import closure, derive, import_names


def test_the_sdk_brings_its_dependencies_in_every_version() -> None:
    """dify_plugin brings httpx, pydantic, yaml, gevent, werkzeug and flask (0.10), and pydub and
    dpkt (the older versions); requests brings urllib3."""
    installed, known = closure(["dify-plugin"])
    assert known
    modules = {module for distribution in installed for module in import_names(distribution)}
    assert {"httpx", "pydantic", "yaml", "gevent", "werkzeug", "flask", "pydub", "dpkt", "urllib3"} <= modules
    assert "PIL" not in modules


def test_a_package_the_index_does_not_hold_leaves_the_closure_open() -> None:
    installed, known = closure(["dify-plugin", "some-unknown-package"])
    assert not known
    assert "some-unknown-package" in installed


def test_import_names_of_packages_named_otherwise() -> None:
    assert import_names("Pillow") == {"PIL"}
    assert import_names("mysql-connector-python") == {"mysql"}
    assert import_names("python-dateutil") == {"dateutil"}
    assert import_names("PyYAML") >= {"yaml"}
    assert import_names("some.package") == {"some_package"}


def test_derive_reads_an_installed_environment(tmp_path: Path) -> None:
    """Names come from top_level.txt, else from RECORD; dependencies skip extras and markers that
    exclude Linux on Python 3.12."""
    site = tmp_path / "site-packages"
    first = site / "demo_pkg-1.0.dist-info"
    first.mkdir(parents=True)
    (first / "METADATA").write_text(
        "Name: Demo-Pkg\nRequires-Dist: requests>=2\nRequires-Dist: pytest; extra == 'test'\n"
        "Requires-Dist: pywin32; sys_platform == 'win32'\n\nbody\n",
        encoding="utf-8",
    )
    (first / "top_level.txt").write_text("demo\n", encoding="utf-8")
    second = site / "other-2.0.dist-info"
    second.mkdir()
    (second / "METADATA").write_text("Name: other\n", encoding="utf-8")
    (second / "RECORD").write_text(
        "other_mod/__init__.py,sha256=x,1\nsingle.py,sha256=y,2\nother-2.0.dist-info/METADATA,,\n",
        encoding="utf-8",
    )
    index = derive([site])
    assert index == {
        "distributions": {
            "demo-pkg": {"imports": ["demo"], "requires": ["requests"]},
            "other": {"imports": ["other_mod", "single"], "requires": []},
        }
    }

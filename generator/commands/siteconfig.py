"""The registry's built-in site configuration: an `mkdocs.yml` written into a temporary folder for
what has none of its own (a plugin folder, a package, a collection of plugins).

The folder is private to one command and never published: the site shows the catalog the command
built from the paths as the user named them, not the absolute paths written here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

PREVIEW_ADDRESS = "127.0.0.1:8000"  # the default site_url: where `python -m http.server` serves it
DEFAULT_TITLE = "Dify plugin catalog"

# Each home page in the site's four languages, by the prefix of its translated copy (`index.ja.md`,
# as generator/site/translate.py reads hand-written pages): a language's home reads in its language.
PREVIEW_HOME: Mapping[str, str] = MappingProxyType(
    {
        "": """# Preview

This is a local preview of the plugin's pages as the registry will show them. Edit the manifest,
a tool YAML, an examples file or a schema, or replace the package: the pages rebuild by themselves.
""",
        "zh": """# 预览

这是插件页面的本地预览，与注册表发布时的样子相同。修改清单、工具 YAML、示例文件或 schema，
或替换插件包，页面会自动重新生成。
""",
        "ja": """# プレビュー

レジストリが公開するとおりの、このプラグインのページのローカルプレビューです。マニフェスト、
ツールの YAML、例のファイル、スキーマを編集するか、パッケージを置き換えると、ページは自動で
再生成されます。
""",
        "pt": """# Pré-visualização

Esta é uma pré-visualização local das páginas do plugin, como o registro as mostrará. Edite o
manifesto, um YAML de ferramenta, um arquivo de exemplos ou um schema, ou substitua o pacote: as
páginas são refeitas sozinhas.
""",
    }
)

CATALOG_HOME: Mapping[str, str] = MappingProxyType(
    {
        "": """# {title}

The plugins of this catalog: each plugin with what it offers (tools with their parameters, output
variables and example runs, and the other plugin kinds), and what the registry's validator found in
them. Search (top right) finds plugins and tools by their label in any of the site's four languages.
""",
        "zh": """# {title}

本目录中的插件：每个插件提供的内容（工具及其参数、输出变量和示例运行，以及其他类型的插件），
以及注册表验证器在其中发现的问题。搜索（右上角）可以用网站四种语言中任意一种的标签找到插件和工具。
""",
        "ja": """# {title}

このカタログのプラグイン：各プラグインが提供するもの（ツールとそのパラメーター、出力変数、実行例、
およびその他の種類のプラグイン）と、レジストリのバリデーターが見つけた問題です。検索（右上）では、
サイトの 4 言語のいずれのラベルでもプラグインとツールを見つけられます。
""",
        "pt": """# {title}

Os plugins deste catálogo: o que cada plugin oferece (ferramentas com seus parâmetros, variáveis de
saída e execuções de exemplo, e os outros tipos de plugin) e o que o validador do registro encontrou
neles. A busca (no alto, à direita) encontra plugins e ferramentas pelo rótulo em qualquer um dos
quatro idiomas do site.
""",
    }
)


@dataclass(frozen=True)
class SiteSettings:
    """What a built-in configuration says: the site's title and address, and how plugins are read."""

    title: str
    site_url: str
    # the home page's Markdown by language prefix ("" is English), as PREVIEW_HOME
    home: Mapping[str, str]
    run: bool = False
    cache: Path | None = None


def preview_settings(plugin: Path, site_url: str, run: bool, cache: Path | None) -> SiteSettings:
    """One plugin's preview (`serve`, and `build` of one plugin without `--title`)."""
    return SiteSettings(f"Preview: {plugin.name}", site_url, PREVIEW_HOME, run, cache)


def catalog_settings(title: str | None, site_url: str) -> SiteSettings:
    """A catalog of collections, registries and plugins. Its home page names none of their folders:
    a published catalog is built from a checkout whose paths mean nothing to its readers."""
    title = title or DEFAULT_TITLE
    home = {prefix: text.format(title=title) for prefix, text in CATALOG_HOME.items()}
    return SiteSettings(title, site_url, MappingProxyType(home))


def write_site_config(folder: Path, registries: Sequence[Path], settings: SiteSettings) -> Path:
    """Write an mkdocs.yml (JSON is YAML) and a home page into `folder`; return the file's path."""
    from generator.schemas import shipped_schemas_root

    docs = folder / "docs"
    docs.mkdir()
    for prefix, text in settings.home.items():
        (docs / (f"index.{prefix}.md" if prefix else "index.md")).write_text(text, encoding="utf-8")
    options: dict[str, object] = {
        "registry": [str(path.absolute()) for path in registries],
        "schemas": str(shipped_schemas_root()),
        "run": settings.run,
    }
    if settings.cache is not None:
        options["cache"] = str(settings.cache)
    config = {
        "site_name": settings.title,
        "site_url": settings.site_url,
        "docs_dir": str(docs),
        "theme": {"name": "material", "features": ["navigation.prune"]},
        # dify-registry also indexes the built site for search (Material's search plugin is not used)
        "plugins": [{"dify-registry": options}],
        "markdown_extensions": ["tables", "admonition"],
    }
    path = folder / "mkdocs.yml"
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return path

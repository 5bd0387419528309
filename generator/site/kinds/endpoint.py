"""The extension kind on the site: an endpoint group's section of its plugin page, the settings a
user fills when enabling it and the HTTP endpoints it serves. Catalogued for browsing: no page below
it, no run."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from generator.kind_models.endpoint import EndpointGroup
from generator.plugin_model import I18n, KindPart, part_as

if TYPE_CHECKING:
    from generator.site.kinds import Build, Index, KindSection

PROVIDER_TEMPLATE = "endpoints_provider.html.j2"
# An endpoint group has no pages below it: its endpoints are listed in its section.
NO_CHILD_TEMPLATE = ""


def children(part: KindPart) -> tuple[str, ...]:
    """None: the endpoints are listed on the plugin page."""
    part_as(part, EndpointGroup)
    return ()


def section(part: KindPart, index: int, build: Build) -> KindSection:
    """The group's section (its settings and endpoints)."""
    from generator.site.kinds import KindSection, Listed

    group = part_as(part, EndpointGroup)
    listed = tuple(
        Listed(e.path, I18n(), (e.method.upper(), *(("hidden",) if e.hidden else ())))
        for e in group.endpoints
    )
    return KindSection("endpoints", group, PROVIDER_TEMPLATE, NO_CHILD_TEMPLATE, (), listed)


def indexed(section: KindSection, index: Index) -> dict[str, Any]:
    """An endpoint group in `index.json`: its settings and each endpoint's method and path."""
    group = part_as(section.part, EndpointGroup)
    return {
        "name": group.name,
        "label": index.i18n(group.label),
        "description": index.i18n(group.description),
        "settings": [index.field(f) for f in group.settings],
        "endpoints": [{"method": e.method, "path": e.path, "hidden": e.hidden} for e in group.endpoints],
    }

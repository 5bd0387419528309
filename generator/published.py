"""Where the registry is published: the site's URL, and the base of every hosted schema's `$id`
(the site serves `schemas/...` at the same URL). Spelled here only; a leaf module, so the command
line can name them without importing the schema stage."""

from __future__ import annotations

SITE_URL = "https://dify.ai/"
SCHEMA_BASE = SITE_URL + "schemas/"

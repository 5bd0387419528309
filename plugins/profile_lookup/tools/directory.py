"""The people directory that ships with the plugin (data/people.json)."""

import json
from pathlib import Path
from typing import Any

DIRECTORY = Path(__file__).resolve().parent.parent / "data" / "people.json"


def load_people() -> list[dict[str, Any]]:
    with DIRECTORY.open(encoding="utf-8") as handle:
        return json.load(handle)


def find_person(name: str) -> dict[str, Any]:
    wanted = " ".join(name.split()).casefold()
    people = load_people()
    for person in people:
        if person["name"].casefold() == wanted:
            return person
    known = ", ".join(person["name"] for person in people)
    raise ValueError(f"No profile named {name!r}. Known people: {known}.")

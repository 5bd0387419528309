"""Reading the bundled weather data (data/observations.json and data/forecast.csv)."""

import csv
import html
import json
import unicodedata
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data"


def _key(name: str) -> str:
    # "São Paulo", "sao paulo" and "SAO  PAULO" are the same place.
    decomposed = unicodedata.normalize("NFKD", " ".join(name.split()).casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _stations() -> tuple[str, list[dict[str, Any]]]:
    with (DATA / "observations.json").open(encoding="utf-8") as handle:
        data = json.load(handle)
    return data["observed_at"], data["stations"]


def find_station(location: str) -> tuple[str, dict[str, Any]]:
    """The observation time and the station for a city name or one of its aliases."""
    observed_at, stations = _stations()
    wanted = _key(location)
    for station in stations:
        if wanted in {_key(station["city"]), *(_key(alias) for alias in station["aliases"])}:
            return observed_at, station
    known = ", ".join(station["city"] for station in stations)
    raise ValueError(f"No weather station for {location!r}. Available: {known}.")


def forecast_rows(city: str, days: int) -> list[dict[str, Any]]:
    with (DATA / "forecast.csv").open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["city"] == city]
    return [
        {
            "date": row["date"],
            "high": to_unit(float(row["high_c"]), "celsius"),
            "low": to_unit(float(row["low_c"]), "celsius"),
            "conditions": row["conditions"],
        }
        for row in rows[:days]
    ]


def to_unit(celsius: float, unit: str) -> int | float:
    value = celsius * 9 / 5 + 32 if unit == "fahrenheit" else celsius
    rounded = round(value, 1)
    return int(rounded) if rounded.is_integer() else rounded


ICON_COLOURS = {
    "sunny": "#f5b400",
    "clear": "#f5b400",
    "partly cloudy": "#9bb7d4",
    "cloudy": "#8a99a8",
    "showers": "#4f86c6",
    "rain": "#2f6fde",
    "thunderstorms": "#5b4b8a",
    "snow": "#b8d8f0",
}


def condition_icon(conditions: str) -> bytes:
    """A small SVG badge for the conditions: a coloured disc with the first letter."""
    colour = ICON_COLOURS.get(conditions.casefold(), "#777777")
    letter = html.escape(conditions[:1].upper() or "?")
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">'
        f'<title>{html.escape(conditions)}</title><circle cx="48" cy="48" r="44" fill="{colour}"/>'
        '<text x="48" y="62" font-family="sans-serif" font-size="44" text-anchor="middle" '
        f'fill="#ffffff">{letter}</text></svg>'
    ).encode()

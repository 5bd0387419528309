import html
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from .stations import find_station, forecast_rows

WIDTH, HEIGHT, MARGIN = 480, 240, 40


def _chart(city: str, days: list[dict[str, Any]]) -> bytes:
    """A line chart of highs (red) and lows (blue), one column per day."""
    top = max(day["high"] for day in days) + 2
    bottom = min(day["low"] for day in days) - 2
    step = (WIDTH - 2 * MARGIN) / max(len(days) - 1, 1)

    def point(index: int, value: float) -> str:
        y = MARGIN + (top - value) * (HEIGHT - 2 * MARGIN) / (top - bottom)
        return f"{MARGIN + index * step:.1f},{y:.1f}"

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
        f"<title>Forecast for {html.escape(city)}</title>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
    ]
    for key, colour in (("high", "#d9480f"), ("low", "#1c7ed6")):
        points = " ".join(point(i, day[key]) for i, day in enumerate(days))
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for i, day in enumerate(days):
            x, y = point(i, day[key]).split(",")
            parts.append(f'<circle cx="{x}" cy="{y}" r="3" fill="{colour}"/>')
            parts.append(f'<text x="{x}" y="{float(y) - 6:.1f}" text-anchor="middle">{day[key]:g}</text>')
    for i, day in enumerate(days):
        x = point(i, bottom).split(",")[0]
        parts.append(f'<text x="{x}" y="{HEIGHT - 12}" text-anchor="middle">{day["date"][5:]}</text>')
    parts.append("</svg>")
    return "\n".join(parts).encode()


class ForecastChartTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        _, station = find_station(str(tool_parameters.get("location") or ""))
        count = int(tool_parameters.get("days") or 5)
        if not 1 <= count <= 5:
            raise ValueError("days must be between 1 and 5")
        days = forecast_rows(station["city"], count)
        yield self.create_variable_message("days", days)
        yield self.create_blob_message(
            _chart(station["city"], days),
            meta={"mime_type": "image/svg+xml", "filename": f"forecast-{len(days)}-days.svg"},
        )
        summary = "; ".join(f"{day['date']}: {day['low']:g} to {day['high']:g} °C, {day['conditions']}" for day in days)
        yield self.create_text_message(f"{station['city']}: {summary}")

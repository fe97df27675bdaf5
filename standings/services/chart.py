"""Cumulative points across the season as SVG geometry (drawn by a template, no JS). Pure calculator."""

from collections.abc import Sequence
from dataclasses import dataclass

# Colours for the highlighted lines (the logged-in member first, then the leaders); everyone else is grey.
PALETTE = ("#d63384", "#0d6efd", "#198754", "#fd7e14", "#6f42c1", "#20c997")
GREY = "#c5cad1"


@dataclass(frozen=True)
class ChartLine:
    label: str
    points: str  # "x,y x,y …" for <polyline points=…>
    color: str
    width: float
    total: int
    end_x: float
    end_y: float
    highlighted: bool


@dataclass(frozen=True)
class Tick:
    value: str
    x: float
    y: float


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int
    lines: list[ChartLine]  # grey ones first so the highlighted lines are drawn on top
    x_ticks: list[Tick]
    y_ticks: list[Tick]


def cumulative_chart(
    *,
    series: Sequence[tuple[str, list[int]]],
    event_numbers: Sequence[int],
    highlight: Sequence[str] = (),
    width: int = 440,
    height: int = 280,
) -> Chart | None:
    """``series``: (label, running totals after each event) per member; ``highlight``: labels to colour, in
    order of importance. None when there is nothing to draw (no event counted yet)."""
    if not event_numbers or not series:
        return None
    left, right, top, bottom = 30, width - 26, 10, height - 24
    top_value = max(max(values) for _label, values in series) or 1
    top_value = ((top_value + 9) // 10) * 10
    steps = len(event_numbers)

    def x_at(i: int) -> float:  # i = 0 is the start of the season (0 points)
        return round(left + (right - left) * i / steps, 1)

    def y_at(v: int) -> float:
        return round(bottom - (bottom - top) * v / top_value, 1)

    colours = {label: PALETTE[i % len(PALETTE)] for i, label in enumerate(highlight)}
    # Each event's x and each total's y worked out once (every member's line passes through the same ones).
    xs = [x_at(i) for i in range(steps + 1)]
    ys: dict[int, float] = {}
    lines = []
    for label, values in series:
        for v in values:
            if v not in ys:
                ys[v] = y_at(v)
        coords = [(xs[0], y_at(0))] + [(xs[i + 1], ys[v]) for i, v in enumerate(values)]
        lit = label in colours
        lines.append(
            ChartLine(
                label=label,
                points=" ".join([f"{x},{y}" for x, y in coords]),
                color=colours.get(label, GREY),
                width=3 if lit else 1.5,
                total=values[-1],
                end_x=round(coords[-1][0] + 4, 1),
                end_y=coords[-1][1],
                highlighted=lit,
            )
        )
    lines.sort(key=lambda line: (line.highlighted, -highlight.index(line.label) if line.highlighted else 0))
    y_step = max(10, ((top_value // 4 + 9) // 10) * 10)
    y_ticks = [Tick(str(v), left - 4, y_at(v)) for v in range(0, top_value + 1, y_step)]
    x_ticks = [Tick(f"E{n}", x_at(i + 1), bottom + 16) for i, n in enumerate(event_numbers)]
    return Chart(width, height, left, top, right, bottom, lines, x_ticks, y_ticks)

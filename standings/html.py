"""The standings table's rows and the points chart as HTML, built in Python.

They are the heaviest parts of the standings page: one row per member and one line per member, each with a
dozen values, computed again after every change. The template engine needed about 20,000 Python calls a
request for them, these functions about 1,000 (a cold request of the demo standings). Every text that comes
from the data goes through ``html.escape``; numbers and the constants here need none.
"""

from html import escape

from django.utils.safestring import SafeString, mark_safe

from events.addresses import address
from standings.services.chart import Chart

WSOP_BADGES = {
    "qualified": ("WSOP spot", "text-bg-success"),
    "replacement": ("WSOP spot (replacement)", "text-bg-success"),
    "declined": ("Declined", "text-bg-secondary"),
    "undecided": ("Tie at the cut", "text-bg-warning"),
    "ineligible": ("Not eligible", "text-bg-light border"),
    "none": ("", ""),
}
RACE_BADGES = {
    "clinched": ("Clinched", "text-bg-success"),
    "open": ("In the race", "border border-primary text-primary"),
    "out of reach": ("Out of reach", "text-bg-light border"),
}


def badges_html(row) -> str:
    """The WSOP status and race badges of one standings row (escaped HTML)."""
    parts = []
    wsop = WSOP_BADGES.get(row.wsop, ("", ""))
    if wsop[0]:
        parts.append(f'<span class="badge {wsop[1]}">{wsop[0]}</span>')
    race = RACE_BADGES.get(row.race) if row.race else None
    if race:
        parts.append(f'<span class="badge {race[1]}">{race[0]}</span>')
    return "\n".join(parts)


def standings_rows_html(rows, *, me=None) -> SafeString:
    """The ``<tr>`` rows of the standings table; the viewer's row is marked (``row-me``, ``aria-current``)."""
    me_id = me.membership.pk if me else None
    html = []
    for row in rows:
        mine = row.membership.pk == me_id
        badges = badges_html(row)
        average = f"{row.points_per_event:.1f}" if row.points_per_event is not None else "–"
        opening = '<tr class="row-me" aria-current="true">' if mine else '<tr class="">'
        html.append(
            f"{opening}\n"
            f'<td class="num">{escape(row.rank_label)}</td>\n'
            f'<td>\n{escape(row.person.full_name)}\n<span class="d-md-none">{badges}</span>\n</td>\n'
            f'<td class="num fw-semibold">{int(row.points)}</td>\n<td class="num">{int(row.events_played)}</td>\n'
            f'<td class="num">{average}</td>\n<td class="d-none d-md-table-cell">{badges}</td>\n</tr>'
        )
    return mark_safe("\n".join(html))  # noqa: S308  # nosec B308 B703: data escaped above


def chart_svg(chart: Chart | None) -> SafeString:
    """The cumulative points chart as inline SVG with its legend (no JavaScript)."""
    if chart is None:
        return SafeString("")
    out = [
        f'<svg viewBox="0 0 {chart.width} {chart.height}" width="100%" role="img" '
        'aria-label="Cumulative points of each member after each event" class="standings-chart">'
    ]
    for t in chart.y_ticks:
        out.append(
            f'<line x1="{chart.left}" x2="{chart.right}" y1="{t.y}" y2="{t.y}" stroke="#e9ecef" stroke-width="1"/>'
            f'<text x="{t.x}" y="{t.y}" font-size="11" text-anchor="end" dominant-baseline="middle" '
            f'fill="#6c757d">{escape(t.value)}</text>'
        )
    for t in chart.x_ticks:
        out.append(
            f'<text x="{t.x}" y="{t.y}" font-size="11" text-anchor="middle" fill="#6c757d">{escape(t.value)}</text>'
        )
    out.append(
        f'<line x1="{chart.left}" x2="{chart.left}" y1="{chart.top}" y2="{chart.bottom}" stroke="#adb5bd"/>'
        f'<line x1="{chart.left}" x2="{chart.right}" y1="{chart.bottom}" y2="{chart.bottom}" stroke="#adb5bd"/>'
    )
    for line in chart.lines:
        label = escape(line.label)
        out.append(
            f'<polyline fill="none" stroke="{line.color}" stroke-width="{line.width}" stroke-linejoin="round" '
            f'points="{line.points}"><title>{label}: {line.total}</title></polyline>'
        )
        if line.highlighted:
            out.append(
                f'<text x="{line.end_x}" y="{line.end_y}" font-size="11" dominant-baseline="middle" '
                f'fill="{line.color}">{line.total}</text>'
            )
    out.append('</svg>\n<ul class="list-inline small mb-0 mt-1">')
    for line in reversed(chart.lines):
        if line.highlighted:
            out.append(
                '<li class="list-inline-item"><svg class="chart-swatch" width="14" height="6" aria-hidden="true">'
                f'<rect width="14" height="6" fill="{line.color}"/></svg> {escape(line.label)} ({line.total})</li>'
            )
    out.append(
        '<li class="list-inline-item text-muted"><svg class="chart-swatch" width="14" height="4" '
        'aria-hidden="true"><rect width="14" height="4" fill="#c5cad1"/></svg> others</li>\n</ul>'
    )
    return mark_safe("\n".join(out))  # noqa: S308  # nosec B308 B703: data escaped above


def home_panel_html(*, season, rows, mine, played: int) -> SafeString:
    """The home page's standings panel: the top ``rows``, the viewer's line (``mine``, a standings row or None)
    when it is not among them or has a WSOP race status, and the link to the full standings. Built here for the
    same reason as the table's rows: the template cost a cold home page about 1,300 Python calls."""
    html = [] if played else ['<p class="text-muted mb-2">No results yet this season.</p>']
    mine_id = mine.membership.pk if mine is not None else None
    html.append('<ol class="list-unstyled mb-2 tabular">')
    for row in rows:
        marked = " row-me px-1 rounded" if row.membership.pk == mine_id else ""
        html.append(
            f'<li class="d-flex gap-2{marked}">\n<span class="text-muted">{escape(row.rank_label)}.</span>\n'
            f'<span class="me-auto">{escape(row.person.full_name)}</span>\n'
            f'<span class="fw-semibold">{int(row.points)}</span>\n</li>'
        )
    html.append("</ol>")
    if mine is not None and mine not in rows:
        race = f" · {escape(mine.race)}" if mine.race else ""
        html.append(
            f'<p class="mb-2 row-me px-1 rounded">You: rank {escape(mine.rank_label)} · {int(mine.points)} pts{race}</p>'
        )
    elif mine is not None and mine.race:
        html.append(f'<p class="mb-2 small">Your WSOP race: <strong>{escape(mine.race)}</strong></p>')
    url = address("standings:season", season.name)
    html.append(f'<a href="{escape(url)}">Full standings and the WSOP race →</a>')
    return mark_safe("\n".join(html))  # noqa: S308  # nosec B308 B703: data escaped above

"""The Vice President's monthly points report (§3.5.7) as files: one CSV table, or a PDF for the meeting."""

import datetime as dt

from django.http import HttpResponse

from ncpc.core.downloads import Table, csv_response
from ncpc.core.identity import club_file_prefix
from ncpc.core.pdf import ClubPDF
from standings.badges import WSOP_BADGES
from standings.selectors import SeasonStandings


def _name(standings: SeasonStandings, *, year: int, month: int) -> str:
    return f"{club_file_prefix()}-points-{standings.season.name}-{year:04d}-{month:02d}"


def _wsop(status: str) -> str:
    return WSOP_BADGES.get(status, ("", ""))[0]


def points_csv(standings: SeasonStandings, *, year: int, month: int) -> HttpResponse:
    numbers = standings.event_numbers
    table = Table(
        "Points",
        ["rank", "member", "name", *[f"event {n}" for n in numbers], "points", "events played", "wsop"],
        [
            [
                row.rank_label,
                row.key,
                row.person.full_name,
                *[row.per_event.get(n) for n in numbers],
                row.points,
                row.events_played,
                row.wsop,
            ]
            for row in standings.rows
        ],
    )
    return csv_response(table, name=_name(standings, year=year, month=month))


def points_pdf(standings: SeasonStandings, *, year: int, month: int, printed: dt.datetime) -> HttpResponse:
    """Landscape Letter: rank, member, points per event, total, events played, WSOP status."""
    first = dt.date(year, month, 1)
    pdf = ClubPDF(
        title=f"Points report, {first:%B %Y} · season {standings.season}", printed=printed, landscape=True
    )
    events = standings.events
    pdf.note(
        "Standings after the events with final results up to "
        f"{first:%B %Y}: {len(events)} event(s); {standings.member_count} members at event 1"
        + (f", {standings.prizes} WSOP seat(s)" if standings.prizes is not None else "")
        + f"; {standings.events_left} event(s) left."
    )
    numbers = [e.number for e in events]
    event_width = min(12.0, 110 / max(len(numbers), 1))
    pdf.grid(
        ["#", "Member", *[f"E{n}" for n in numbers], "Total", "Events", "WSOP"],
        [
            [
                row.rank_label,
                row.person.full_name,
                *[str(row.per_event.get(n, "")) for n in numbers],
                str(row.points),
                str(row.events_played),
                _wsop(row.wsop),
            ]
            for row in standings.rows
        ],
        widths=(10, 58, *[event_width] * len(numbers), 16, 16, 38),
        right=tuple(range(2, len(numbers) + 4)),
    )
    return pdf.response(name=_name(standings, year=year, month=month))

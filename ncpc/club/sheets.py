"""The event sheet (SPEC §11): the night's seating, blind structure and payouts on one printed page, as an
HTML page that prints on one sheet (``@media print``) and as a PDF.

Club-wide wiring: it combines the night's seats (events), the roster (members) and the prizes (finance)."""

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from events.models import Attendance, Event, NightSeat
from events.selectors import event_by_name, event_result_lines, season_rules
from events.services.console import night_overview
from finance.selectors.payouts import event_payout_lines, payout_member_names, payout_paid_to
from finance.services.payouts import payout_amounts
from members.selectors import roster_for_event
from ncpc.core.errors import NcpcError
from ncpc.core.identity import club_file_prefix, reference_paren
from ncpc.core.money import money_display as money
from ncpc.core.pdf import ClubPDF
from ncpc.core.permissions import Action, require


@dataclass(frozen=True)
class SheetSeat:
    seat: int
    name: str
    button: bool = False
    mark: str = ""  # "absent", or "called in late 19:40" (§5.2.4): the seat waits for its player


@dataclass(frozen=True)
class SheetTable:
    title: str
    seats: list[SheetSeat]


@dataclass(frozen=True)
class SheetLevel:
    label: str  # the level's number, or "Break"
    small_blind: int | None
    big_blind: int | None
    ante: int | None
    minutes: int | None
    note: str = ""

    @property
    def is_break(self) -> bool:
        return self.label == "Break"

    def texts(self) -> tuple[str, str, str, str]:
        """Small blind, big blind, ante and minutes as printed: 1,500; no ante and a break's blinds empty."""

        def n(value: int | None) -> str:
            return f"{value:,}" if value else ""

        minutes = "no limit" if self.minutes is None else str(self.minutes)
        return n(self.small_blind), n(self.big_blind), n(self.ante), minutes


@dataclass(frozen=True)
class SheetPrize:
    place: int
    amount: Decimal
    paid_to: str = ""


@dataclass(frozen=True)
class SheetPlace:
    """A place of the final results: who, their points, and the prize of the place (none below the paid
    places)."""

    place: int
    name: str
    points: int
    prize: Decimal | None = None
    removed_for_abuse: bool = False


@dataclass(frozen=True)
class EventSheet:
    event: Event
    where: str
    tables: list[SheetTable]
    levels: list[SheetLevel]
    members: int
    prizes: list[SheetPrize] = field(default_factory=list)
    payout_error: str = ""
    places: list[SheetPlace] = field(default_factory=list)  # once the results are final

    @property
    def total(self) -> Decimal:
        return sum((p.amount for p in self.prizes), Decimal(0))


def _called_in(event: Event) -> dict[tuple[int, int], str]:
    """(table, seat) → the time the member called in, for the seats still waiting for a late player."""
    rows = NightSeat.objects.filter(
        table__event=event, attendance__status=Attendance.Status.CALLED_IN
    ).select_related("table", "attendance")
    return {
        (r.table.number, r.seat): (
            f"{timezone.localtime(r.attendance.called_in_at):%H:%M}" if r.attendance.called_in_at else ""
        )
        for r in rows
    }


def event_sheet_read(*, event: Event) -> EventSheet:
    """What the event sheet shows, for the page and the PDF alike."""
    rules = season_rules(event.season)
    where = f" at {event.venue}" if event.venue_id and event.announced_on else ""
    called = _called_in(event)
    tables = []
    for table in night_overview(event=event).tables:
        seats = []
        for s in table.lines:
            if not s.name:
                continue
            mark = ""
            if s.status == Attendance.Status.ABSENT:
                mark = "absent"
            elif s.status == Attendance.Status.CALLED_IN:
                at = called.get((table.number, s.seat), "")
                mark = f"called in late{' ' + at if at else ''}"
            seats.append(SheetSeat(seat=s.seat, name=s.name, button=s.button, mark=mark))
        tables.append(
            SheetTable(title="Final table" if table.final else f"Table {table.number}", seats=seats)
        )
    levels, number = [], 0
    for level in rules.blind_structure:
        if level.kind == "break":
            levels.append(SheetLevel("Break", None, None, None, level.minutes, level.note))
        else:
            number += 1
            levels.append(
                SheetLevel(
                    str(number),
                    level.small_blind,
                    level.big_blind,
                    level.ante or None,
                    level.minutes,
                    level.note,
                )
            )
    count = len(roster_for_event(season=event.season, event_number=event.number))
    places = _places(event=event)
    try:
        amounts = payout_amounts(rules=rules, member_count=count)
    except NcpcError as exc:
        return EventSheet(event, where, tables, levels, count, payout_error=str(exc), places=places)
    winners: dict[int, str] = {}
    if event.status == Event.Status.FINAL:
        names = payout_member_names(season=event.season)
        for line in event_payout_lines(event=event, rules=rules):
            winners[line.place] = payout_paid_to(line, names=names)
    prizes = [
        SheetPrize(place=place, amount=amount, paid_to=winners.get(place, ""))
        for place, amount in enumerate(amounts, start=1)
    ]
    return EventSheet(event, where, tables, levels, count, prizes=prizes, places=places)


def _places(*, event: Event) -> list[SheetPlace]:
    """The final places with their points and prizes, as the event page shows them; none before the results
    are final."""
    if event.status != Event.Status.FINAL:
        return []
    return [
        SheetPlace(
            place=line.place,
            name=line.name,
            points=line.points,
            prize=getattr(line.payout, "amount", None),
            removed_for_abuse=line.removed_for_abuse,
        )
        for line in event_result_lines(event=event)
        if line.place is not None
    ]


def event_sheet_pdf(*, event: Event, printed: dt.datetime) -> HttpResponse:
    sheet = event_sheet_read(event=event)
    pdf = ClubPDF(title=f"Event sheet · event {event.number} of {event.season}", printed=printed)
    pdf.note(f"{event.date:%A, %B %-d, %Y} at {event.starts_at:%-I:%M %p}{sheet.where}.")

    if sheet.places:
        pdf.heading("Results")
        rows = [
            [
                str(p.place),
                p.name + (" (removed for abuse)" if p.removed_for_abuse else ""),
                str(p.points),
                money(p.prize) if p.prize is not None else "",
            ]
            for p in sheet.places
        ]
        pdf.grid(["Place", "Player", "Points", "Prize"], rows, widths=(16, 90, 18, 28), right=(0, 2, 3))

    pdf.heading("Seating")
    if not sheet.tables:
        pdf.note("The seats are not drawn yet.")
    for table in sheet.tables:
        rows = [
            [
                str(s.seat),
                s.name + (" (button)" if s.button else "") + (f" — {s.mark}" if s.mark else ""),
            ]
            for s in table.seats
        ]
        pdf.note(table.title)
        pdf.grid(["Seat", "Player"], rows, widths=(14, 80), right=(0,))

    pdf.heading("Blind structure")
    level_rows = [[level.label, *level.texts(), level.note] for level in sheet.levels]
    pdf.grid(
        ["Level", "Small blind", "Big blind", "Ante", "Minutes", "Note"],
        level_rows,
        widths=(16, 26, 26, 20, 18, 80),
        right=(1, 2, 3, 4),
        size=7.5,
    )

    pdf.heading("Payouts")
    if sheet.payout_error:
        pdf.note(sheet.payout_error)
    else:
        rows = [[str(p.place), money(p.amount), p.paid_to] for p in sheet.prizes]
        rows.append(["Total", money(sheet.total), ""])
        pdf.note(f"{sheet.members} members on the roster on the event's date{reference_paren('6.2')}.")
        pdf.grid(["Place", "Prize", "Paid to"], rows, widths=(16, 28, 80), right=(1,), bold_last=True)
    return pdf.response(name=f"{club_file_prefix()}-event-sheet-{event.season.name}-{event.number}")


def _event(season: str, number: int) -> Event:
    event = event_by_name(season_name=season, number=number)
    if event is None:
        raise Http404("No such event.")
    return event


@require(Action.VIEW_CLUB)
@require_safe
def event_sheet(request, season: str, number: int):
    return event_sheet_pdf(event=_event(season, number), printed=timezone.localtime())


@require(Action.VIEW_CLUB)
@require_safe
def event_sheet_page(request, season: str, number: int):
    """The event sheet as a page that prints on one sheet of paper (the PDF is linked from it)."""
    event = _event(season, number)
    return render(
        request,
        "events/night/sheet.html",
        {"event": event, "season": event.season, "sheet": event_sheet_read(event=event)},
    )

"""The event sheet (SPEC §11): the night's seating, blind structure and payouts on one printed page.

Club-wide wiring: it combines the night's seats (events), the roster (members) and the prizes (finance)."""

import datetime as dt

from django.http import Http404, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_safe

from events.models import Event
from events.selectors import event_by_name, season_rules
from events.services.night import night_overview
from finance.selectors import event_payout_lines, payout_member_names, payout_paid_to
from finance.services.payouts import payout_amounts
from members.selectors import roster_for_event
from ncpc.errors import NcpcError
from ncpc.money import money_display as money
from ncpc.pdf import ClubPDF
from ncpc.permissions import Action, require


def event_sheet_pdf(*, event: Event, printed: dt.datetime) -> HttpResponse:
    rules = season_rules(event.season)
    pdf = ClubPDF(title=f"Event sheet · event {event.number} of {event.season}", printed=printed)
    where = f" at {event.venue}" if event.venue_id and event.announced_on else ""
    pdf.note(f"{event.date:%A, %B %-d, %Y} at {event.starts_at:%-I:%M %p}{where}.")

    pdf.heading("Seating")
    overview = night_overview(event=event)
    if not overview.tables:
        pdf.note("The seats are not drawn yet.")
    for table in overview.tables:
        name = "Final table" if table.final else f"Table {table.number}"
        rows = [
            [
                str(s.seat),
                s.name + (" (button)" if s.button else "") + (" — absent" if s.status == "absent" else ""),
            ]
            for s in table.lines
            if s.name
        ]
        pdf.note(name)
        pdf.grid(["Seat", "Player"], rows, widths=(14, 80), right=(0,))

    pdf.heading("Blind structure")
    level_rows = []
    number = 0
    for level in rules.blind_structure:
        if level.kind == "break":
            level_rows.append(["Break", "", "", "", str(level.minutes), level.note])
        else:
            number += 1
            level_rows.append(
                [
                    str(number),
                    f"{level.small_blind:,}",
                    f"{level.big_blind:,}",
                    f"{level.ante:,}" if level.ante else "",
                    str(level.minutes),
                    level.note,
                ]
            )
    pdf.grid(
        ["Level", "Small blind", "Big blind", "Ante", "Minutes", "Note"],
        level_rows,
        widths=(16, 26, 26, 20, 18, 80),
        right=(1, 2, 3, 4),
        size=7.5,
    )

    pdf.heading("Payouts")
    count = len(roster_for_event(season=event.season, event_number=event.number))
    try:
        amounts = payout_amounts(rules=rules, member_count=count)
    except NcpcError as exc:
        pdf.note(str(exc))
    else:
        winners: dict[int, str] = {}
        if event.status == Event.Status.FINAL:
            names = payout_member_names(season=event.season)
            for line in event_payout_lines(event=event, rules=rules):
                winners[line.place] = payout_paid_to(line, names=names)
        rows = [
            [str(place), money(amount), winners.get(place, "")]
            for place, amount in enumerate(amounts, start=1)
        ]
        rows.append(["Total", money(sum(amounts)), ""])
        pdf.note(f"{count} members on the roster on the event's date (§6.2).")
        pdf.grid(["Place", "Prize", "Paid to"], rows, widths=(16, 28, 80), right=(1,), bold_last=True)
    return pdf.response(name=f"ncpc-event-sheet-{event.season.name}-{event.number}")


@require(Action.VIEW_CLUB)
@require_safe
def event_sheet(request, season: str, number: int):
    event = event_by_name(season_name=season, number=number)
    if event is None:
        raise Http404("No such event.")
    return event_sheet_pdf(event=event, printed=timezone.localtime())

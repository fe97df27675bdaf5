"""Attendance and results entry on tournament night (officers with ENTER_RESULTS). Thin views: plain POST,
then redirect back; every form carries the results version the page showed (optimistic concurrency). The
pages only read: listing the seats from the roster is a POST ("Open the night")."""

from dataclasses import dataclass
from decimal import Decimal

from django.contrib import messages
from django.shortcuts import redirect, render
from django.template.defaultfilters import pluralize
from django.views.decorators.http import require_POST

from events import hooks, selectors
from events.forms import ReasonForm, SubstituteForm
from events.models import Attendance, Event
from events.services import attendance as attendance_services
from events.services import results as results_services
from events.services import rsvp as rsvp_services
from events.services.console import night_date_note
from events.services.places import bust_places
from events.services.results_mail_late import results_mail_withheld
from events.views.helpers import (
    event_view,
    night_act,
    night_form,
    posted_int,
    posted_version,
    require_any,
    seats_to_list,
)
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.feedback import command_run
from ncpc.core.permissions import PRESIDENT, TREASURER, VICE_PRESIDENT, Action, require, user_can

# Where "Open the night" returns to: the pages that offer it.
SEATS_BACK = {
    "attendance": "events:attendance",
    "results": "events:results",
    "night": "events:night",
    "console": "events:console",
}

ABUSE_OFFICES = ((PRESIDENT, "President"), (VICE_PRESIDENT, "Vice President"), (TREASURER, "Treasurer"))


@require_POST
@require_any(Action.ENTER_RESULTS, Action.RECORD_PAYMENTS)  # the Treasurer opens the night at the door too
@event_view
def attendance_prepare(request, event):
    back = SEATS_BACK.get(request.POST.get("back", ""), "events:attendance")
    if event.status == Event.Status.FINAL:
        messages.info(request, "The results of this event are final: its seats stay as they are.")
        return _back(event, back)
    # A night not dated today is opened only once asked (issue 43): the page's button asks in the browser and
    # then sends "confirmed"; a post without it (no script, an old page, a hand-made request) is asked here.
    note = night_date_note(event=event, doing="Open the night")
    if note and request.POST.get("confirmed") != "1" and not Attendance.objects.filter(event=event).exists():
        return render(
            request,
            "events/night/open_confirm.html",
            {"event": event, "season": event.season, "note": note, "back": request.POST.get("back", "")},
            status=409,
        )
    # The members' answers (who's coming) become the seats in the same transaction (issue 19).
    opened = command_run(request, rsvp_services.night_open, event=event)
    if opened is None:
        return _back(event, back)
    added, answers = opened.seats_added, opened.answers
    if added:
        messages.success(request, f"Seats listed: {added} member{pluralize(added)} from the roster.")
    else:
        messages.info(request, "Every member on the roster has a seat already.")
    if answers.applied:
        messages.info(request, f"Answers applied to the seats: {answers.applied} (who's coming).")
    if answers.kept:
        messages.info(
            request,
            f"Answers kept on {answers.kept} seat{pluralize(answers.kept)} that cannot play yet: they apply "
            "when the member may play (a payment at the door, or the signature).",
        )
    for note in answers.notes:
        messages.warning(request, note)
    return _back(event, back)


@dataclass(frozen=True)
class AttendanceRow:
    """A seat on the attendance page, with what the page shows beside it."""

    seat: Attendance
    sub_form: SubstituteForm
    owes: Decimal | None  # what a member not in good standing owes by the event's date
    subs_used: int  # substitutes sent at the season's other events (§5.3.1)
    exemption_at: Event | None  # where the late-arrival exemption was used (§6.3)


@require(Action.ENTER_RESULTS)
@event_view
def attendance(request, event):
    rows = [
        AttendanceRow(
            seat=seat,
            sub_form=SubstituteForm(
                prefix=f"s{seat.pk}",
                initial={
                    "name": seat.substitute_name,
                    "prize_to": seat.prize_to,
                    "not_professional": bool(seat.substitute_name),
                },
            ),
            owes=(
                hooks.amount_owed(membership=seat.membership, on=event.date)
                if seat.status == Attendance.Status.NOT_IN_GOOD_STANDING
                else None
            ),
            subs_used=selectors.substitutes_used(membership=seat.membership, exclude_event=event),
            exemption_at=selectors.exemption_used_at(membership=seat.membership, exclude_event=event),
        )
        for seat in selectors.event_attendances(event=event)
    ]
    return render(
        request,
        "events/attendance.html",
        {
            "event": event,
            "season": event.season,
            "rows": rows,
            "statuses": Attendance.Status.choices,
            "field": selectors.event_field(event=event),
            "final": event.status == Event.Status.FINAL,
            "can_take_payments": user_can(request.user, Action.RECORD_PAYMENTS),
            "seats_to_list": seats_to_list(event=event),
            "seats_listed": bool(rows),
            "night_date_note": night_date_note(event=event, doing="Open the night"),
            "back": "attendance",
        },
    )


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def attendance_set(request, event):
    row = command_run(
        request,
        attendance_services.attendance_set,
        event=event,
        attendance_id=posted_int(request, "attendance"),
        status=request.POST.get("status", ""),
        version=posted_version(request),
    )
    if row is not None:
        messages.success(request, f"{row.membership.person.full_name}: {row.get_status_display()}.")
    return _back(event, "events:attendance")


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def attendance_recheck(request, event):
    command_run(
        request,
        attendance_services.attendance_recheck,
        success="Checked standing and signatures again.",
        event=event,
        version=posted_version(request),
    )
    return _back(event, "events:attendance")


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def substitute_set(request, event):
    pk = posted_int(request, "attendance")
    form = SubstituteForm(request.POST, prefix=f"s{pk}")
    if not form.is_valid():
        messages.error(request, "Enter the substitute's name and who gets the prize.")
        return _back(event, "events:attendance")
    command_run(
        request,
        attendance_services.substitute_set,
        success="Saved the substitute of {result.membership.person.full_name}.",
        event=event,
        attendance_id=pk,
        version=posted_version(request),
        **form.cleaned_data,
    )
    return _back(event, "events:attendance")


@require(Action.ENTER_RESULTS)
@event_view
def results_entry(request, event):
    rows = selectors.event_attendances(event=event)
    playing = [r for r in rows if r.is_playing]
    by_id = {r.pk: r for r in rows}
    busts = selectors.event_busts(event=event)
    try:
        places = {p.player: p for p in bust_places(entrants=[r.pk for r in playing], busts=busts)}
    except NcpcError:
        places = {}
    out = []
    for b in reversed(busts):
        row = by_id[b.player]
        out.append({"row": row, "bust": b, "place": places.get(b.player)})
    final_places = sorted((r for r in rows if r.place), key=lambda r: r.place or 0)
    return render(
        request,
        "events/results_entry.html",
        {
            "event": event,
            "season": event.season,
            "still_in": [r for r in playing if not hasattr(r, "elimination")],
            "abuse_offices": ABUSE_OFFICES,
            "entrants": len(playing),
            "absent": [r for r in rows if r.status == Attendance.Status.ABSENT],
            "out": out,
            "last_hand": busts[-1].hand if busts else None,
            "field": selectors.event_field(event=event),
            "final": event.status == Event.Status.FINAL,
            "final_places": final_places,
            "too_early": club_today() < event.date,
            # A correction of a closed month's event leaves that month's report as it was (SPEC §17.2).
            "month_closed": hooks.closed_month_refusal(day=event.date) is not None,
            "may_open_payouts": user_can(request.user, Action.MANAGE_LEDGER),
            "mail_withheld": results_mail_withheld(event=event),
            "reason_form": ReasonForm(),
            "seats_to_list": seats_to_list(event=event),
            "seats_listed": bool(rows),
            "night_date_note": night_date_note(event=event, doing="Open the night"),
            "back": "results",
        },
    )


# The night's actions this page offers go through the night's one registry, as the console's do.


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def results_bust(request, event):
    return night_form(request, event, "bust", to="events:results")


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def results_abuse(request, event):
    return night_form(request, event, "abuse", to="events:results")


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def results_undo(request, event):
    """The undo of the hand the page names (its last one): without one it is refused (SPEC §17.8)."""
    return night_form(request, event, "undo", to="events:results")


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def results_finish(request, event):
    if night_act(request, event, "finish").done:
        return redirect("events:event", season=event.season.name, number=event.number)
    return _back(event, "events:results")


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def results_reopen(request, event):
    command_run(
        request,
        results_services.results_reopen,
        success="Reopened for a correction: change what is wrong, then finish again.",
        event=event,
        reason=request.POST.get("reason", ""),
        version=posted_version(request),
    )
    return _back(event, "events:results")


def _back(event: Event, name: str):
    return redirect(name, season=event.season.name, number=event.number)

"""Who's coming (issue 19): a member answers for a night from the event page or the home page's next-event
card (plain POST forms: no script needed), and officers see the answers on the event page and record the answer
of a member who phoned (SPEC §16.5). Thin views: the rules are in ``events.services.rsvp``."""

import datetime as dt

from django import forms
from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from events.models import Attendance, Event, Rsvp
from events.services import rsvp as rsvp_services
from events.views.helpers import event_view
from ncpc.core.clock import club_today
from ncpc.core.feedback import command_run
from ncpc.core.forms import ClubReferencesForm
from ncpc.core.permissions import Action, require, user_can, user_person
from ncpc.core.text import PlainTextForm


class RsvpForm(PlainTextForm, ClubReferencesForm, forms.Form):
    answer = forms.ChoiceField(choices=Rsvp.Answer.choices)
    substitute_name = forms.CharField(max_length=120, required=False, label="Substitute's name")
    prize_to = forms.ChoiceField(
        choices=Attendance.PrizeTo.choices, required=False, initial=Attendance.PrizeTo.MEMBER
    )
    not_professional = forms.BooleanField(required=False, label="Not a professional gambler (§5.3.1)")
    exemption = forms.BooleanField(required=False, label="Use my late-arrival exemption (once a season)")


def _back(event: Event, where: str):
    if where == "home":
        return redirect("home")
    return redirect(f"{event_url(event)}#rsvp")


def event_url(event: Event) -> str:
    return reverse("events:event", kwargs={"season": event.season.name, "number": event.number})


@require_POST
@require(Action.VIEW_CLUB)
@event_view
def rsvp_answer(request, event):
    """The signed-in member's own answer: the seat is always the member's own (nothing posted names it)."""
    back = request.POST.get("back", "")
    membership = rsvp_services.roster_membership(event=event, person=user_person(request.user))
    if membership is None:
        messages.error(request, f"You hold no seat at event {event.number}: only its members answer.")
        return _back(event, back)
    form = RsvpForm(request.POST)
    if not form.is_valid():
        messages.error(request, _refusal(form))
        return _back(event, back)
    data = form.cleaned_data
    rsvp = command_run(
        request,
        rsvp_services.rsvp_answer,
        event=event,
        membership=membership,
        answer=data["answer"],
        substitute_name=data["substitute_name"],
        prize_to=data["prize_to"] or Attendance.PrizeTo.MEMBER,
        not_professional=data["not_professional"],
        exemption=data["exemption"],
    )
    if rsvp is not None:
        messages.success(request, f"Your answer for event {event.number}: {rsvp.get_answer_display()}.")
    return _back(event, back)


class RsvpRecordForm(RsvpForm):
    """An officer records a member's answer (a phone call): the member is chosen from the event's roster; a late
    call may say when the member phoned (today, club time; empty: now), as the console's "Called in" does."""

    membership = forms.IntegerField(min_value=1)
    called_at = forms.TimeField(required=False, input_formats=["%H:%M", "%H:%M:%S"])


@require_POST
@require(Action.ENTER_RESULTS)
@event_view
def rsvp_record(request, event):
    """An officer who runs the night records the answer of a member who phoned, marked as the officer's. The same
    form sent twice records one answer (the same answer again changes nothing)."""
    form = RsvpRecordForm(request.POST)
    if not form.is_valid():
        if "membership" in form.errors:
            messages.error(request, f"Choose a member on the roster of event {event.number}.")
        elif "called_at" in form.errors:
            messages.error(
                request, "Enter the time of the call as HH:MM (for example 18:45), or leave it empty."
            )
        else:
            messages.error(request, _refusal(form))
        return _back(event, "event")
    data = form.cleaned_data
    membership = rsvp_services.roster_member(event=event, membership_id=data["membership"])
    if membership is None:
        messages.error(request, f"Choose a member on the roster of event {event.number}.")
        return _back(event, "event")
    rsvp = command_run(
        request,
        rsvp_services.rsvp_answer,
        event=event,
        membership=membership,
        answer=data["answer"],
        substitute_name=data["substitute_name"],
        prize_to=data["prize_to"] or Attendance.PrizeTo.MEMBER,
        not_professional=data["not_professional"],
        exemption=data["exemption"],
        recorded=True,
        called_at=_call_time(data["called_at"]),
    )
    if rsvp is not None:
        messages.success(
            request,
            f"Recorded for {membership.person.full_name} (phone call): {rsvp_services.answer_describe(rsvp)}.",
        )
    return _back(event, "event")


def _refusal(form: RsvpForm) -> str:
    """What the member is told when the answer form is refused (the page shows no form errors)."""
    if "substitute_name" in form.errors:
        return f"Substitute's name: {form.errors['substitute_name'][0]}"
    return "Choose an answer: coming, not coming, late or sending a substitute."


def _call_time(at: dt.time | None) -> dt.datetime | None:
    """The time of a call typed on the form: today at that time, in the club's time zone."""
    if at is None:
        return None
    return timezone.make_aware(dt.datetime.combine(club_today(), at))


def rsvp_page_context(request, event: Event) -> dict:
    """What the event page shows of the answers: the member's own form, and for officers the list (and the form
    to record a member's answer while answers are open). A night under way past midnight still shows them."""
    if event.status == Event.Status.FINAL or not request.user.is_authenticated:
        return {}
    if event.date < club_today() and not rsvp_services.night_opened(event=event):
        return {}
    officer = user_can(request.user, Action.ENTER_RESULTS)
    return {
        "rsvp_card": rsvp_services.rsvp_card(
            event=event,
            membership=rsvp_services.roster_membership(event=event, person=user_person(request.user)),
        ),
        "rsvp_summary": rsvp_services.rsvp_summary(event=event),
        "rsvp_names": officer,
        "rsvp_record": officer and rsvp_services.answers_closed(event=event) is None,
    }

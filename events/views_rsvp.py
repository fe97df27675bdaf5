"""Who's coming (issue 19): a member answers for a night from the event page or the home page's next-event
card (plain POST forms: no script needed), and officers see the answers on the event page. Thin views: the
rules are in ``events.services.rsvp``."""

from django import forms
from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from events.models import Attendance, Event, Rsvp
from events.services import rsvp as rsvp_services
from events.view_helpers import event_view
from ncpc.core.clock import club_today
from ncpc.core.feedback import command_run
from ncpc.core.forms import ClubReferencesForm
from ncpc.core.permissions import Action, require, user_can, user_person


class RsvpForm(ClubReferencesForm, forms.Form):
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
        messages.error(request, "Choose an answer: coming, not coming, late or sending a substitute.")
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


def rsvp_page_context(request, event: Event) -> dict:
    """What the event page shows of the answers: the member's own form, and for officers the list."""
    if event.status == Event.Status.FINAL or event.date < club_today() or not request.user.is_authenticated:
        return {}
    return {
        "rsvp_card": rsvp_services.rsvp_card(
            event=event,
            membership=rsvp_services.roster_membership(event=event, person=user_person(request.user)),
        ),
        "rsvp_summary": rsvp_services.rsvp_summary(event=event),
        "rsvp_names": user_can(request.user, Action.ENTER_RESULTS),
    }

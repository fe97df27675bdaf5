"""Officers' pages for the seats: admitting a member, the waiting list, transfers and withdrawals, removals, suspensions, and opening a season (the seats carried over). Thin: form → service."""

import datetime as dt

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from events.forms import SeasonCreateForm
from events.selectors import current_season, season_rules, seasons_all
from members import forms
from members.models import Membership, Person, Removal, Suspension, WaitingListEntry
from members.selectors import (
    current_member_count,
    first_alternate,
    next_event_number,
    unpaid_at_first_january,
    waiting_list,
)
from members.services.admission import AdmissionRefused, VoteCounts, member_admit
from members.services.late_joiners import join_terms
from members.services.roster import season_open
from members.services.seats import member_remove, member_withdraw, seat_transfer
from members.services.standing import (
    suspension_create,
    suspension_end,
)
from members.services.waiting_list import waiting_list_add, waiting_list_move, waiting_list_withdraw
from members.views.common import no_season
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.feedback import command_run, error_show
from ncpc.core.money import percent_str
from ncpc.core.permissions import Action, require


@require(Action.MANAGE_MEMBERS)
def admit(request):
    season = current_season()
    if season is None:
        return no_season(request)
    today = club_today()
    initial: dict[str, object] = {"on": today, "held_on": today}
    if key := request.GET.get("person"):
        candidate = Person.objects.filter(key=key).first()
        if candidate is not None:
            initial["person"] = candidate
            entry = WaitingListEntry.objects.filter(person=candidate, status="waiting").first()
            if entry is not None and entry.sponsor_id:
                initial["sponsor"] = entry.sponsor
    form = forms.AdmissionForm(request.POST or None, season=season, initial=initial)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data

        def refused(exc: NcpcError) -> None:
            if isinstance(exc, AdmissionRefused):
                problems.extend(exc.problems)
                messages.error(
                    request, "Not admitted: nothing was saved. Every unmet condition is listed below."
                )
            else:
                error_show(request, exc, form=form)  # a closed month goes on the admission date

        membership = command_run(
            request,
            member_admit,
            refused=refused,
            person=data["person"],
            season=season,
            on=data["on"],
            sponsor=data["sponsor"],
            vote=VoteCounts(held_on=data["held_on"], yes=data["yes"], no=data["no"], abstain=data["abstain"]),
            declared_not_professional=data["declared_not_professional"],
            reason=data["reason"],
        )
        if membership is not None:
            messages.success(
                request,
                f"Admitted {membership.person}: plays from event {membership.first_event} of {season}.",
            )
            return redirect("members:profile", key=membership.person.key)
    elif request.method == "POST":
        messages.error(request, "Nothing was saved: please correct the fields marked below.")
    return render(
        request,
        "members/admit.html",
        {
            "season": season,
            "form": form,
            "problems": problems,
            "members": current_member_count(season=season),
            "next_number": next_event_number(season=season, on=today),
        },
    )


@require(Action.MANAGE_MEMBERS)
def waiting_list_page(request):
    season = current_season()
    if season is None:
        return no_season(request)
    form = forms.WaitingListAddForm(request.POST or None, season=season)
    if request.method == "POST" and form.is_valid():
        if command_run(
            request,
            waiting_list_add,
            person=form.cleaned_data["person"],
            sponsor=form.cleaned_data["sponsor"],
            notes=form.cleaned_data["notes"],
            on=club_today(),
            success="Added {result.person} to the waiting list at position {result.position}.",
        ):
            return redirect("members:waiting_list")
    members = current_member_count(season=season)
    return render(
        request,
        "members/waiting_list.html",
        {
            "season": season,
            "entries": waiting_list(),
            "form": form,
            "members": members,
            "seats_free": season_rules(season).max_members - members,
        },
    )


@require_POST
@require(Action.MANAGE_MEMBERS)
def waiting_list_reorder(request, pk):
    entry = get_object_or_404(WaitingListEntry, pk=pk)
    at = request.POST.get("at", "")
    command_run(
        request,
        waiting_list_move,
        entry=entry,
        up=request.POST.get("direction") == "up",
        # The place the page showed; a form without it (an older page) moves as before.
        at=int(at) if at.isascii() and at.isdigit() and len(at) <= 9 else None,
    )
    return redirect("members:waiting_list")


@require_POST
@require(Action.MANAGE_MEMBERS)
def waiting_list_remove(request, pk):
    entry = get_object_or_404(WaitingListEntry, pk=pk)
    command_run(
        request,
        waiting_list_withdraw,
        entry=entry,
        on=club_today(),
        reason=request.POST.get("reason", ""),
        success="Took {result.person} off the waiting list.",
    )
    return redirect("members:waiting_list")


@require(Action.MANAGE_MEMBERS)
def transfers(request):
    season = current_season()
    if season is None:
        return no_season(request)
    today = club_today()
    posted = request.POST if request.method == "POST" else None
    which = request.POST.get("form") if posted else None
    transfer_form = forms.TransferForm(
        posted if which == "transfer" else None,
        season=season,
        initial={"on": today, "held_on": today},
        prefix="t",
    )
    withdraw_form = forms.WithdrawForm(
        posted if which == "withdraw" else None, season=season, initial={"on": today}, prefix="w"
    )
    if which == "transfer" and transfer_form.is_valid():
        if _seat_transferred(request, season=season, form=transfer_form):
            return redirect("members:transfers")
    elif which == "withdraw" and withdraw_form.is_valid():
        if _member_withdrawn(request, form=withdraw_form):
            return redirect("members:transfers")
    elif posted:
        messages.error(request, "Nothing was saved: please correct the fields marked below.")
    recent = (
        Membership.objects.filter(season=season, left_after_event__isnull=False)
        .select_related("person", "seat_to__person")
        .order_by("-left_on", "-pk")
    )
    return render(
        request,
        "members/transfers.html",
        {"season": season, "transfer_form": transfer_form, "withdraw_form": withdraw_form, "recent": recent},
    )


def _seat_transferred(request, *, season, form) -> bool:
    """The transfer form's seat sold or given (§2.8): the buyer's terms told; False when refused."""
    data = form.cleaned_data
    seller = data["seller"]
    bought = command_run(
        request,
        seat_transfer,
        form=form,
        seller=seller,
        buyer=data["buyer"],
        how=data["how"],
        on=data["on"],
        sponsor=data["sponsor"],
        vote=VoteCounts(held_on=data["held_on"], yes=data["yes"], no=data["no"], abstain=data["abstain"]),
        declared_not_professional=data["declared_not_professional"],
        reason=data["reason"],
    )
    if bought is None:
        return False
    rules = season_rules(season)
    terms = join_terms(rules=rules, first_event=bought.first_event)
    messages.success(
        request,
        f"{bought.person} takes the seat of {seller.person} from event {bought.first_event}; "
        f"{seller.person} keeps their points. " + _terms_sentence(terms, rules=rules),
    )
    return True


def _member_withdrawn(request, *, form) -> bool:
    """The withdrawal form's member leaves; the seat offered to the first alternate. False when refused."""
    data = form.cleaned_data
    left = command_run(
        request,
        member_withdraw,
        form=form,
        membership=data["membership"],
        on=data["on"],
        reason=data["reason"],
    )
    if left is None:
        return False
    alternate = first_alternate()
    messages.success(
        request,
        f"{left.person} withdrew after event {left.left_after_event}."
        + (f" The seat is offered to the first alternate, {alternate.person}." if alternate else ""),
    )
    return True


def _terms_sentence(terms, *, rules) -> str:
    if not terms.is_late_joiner:
        return "Full member: no late-joiner conditions."
    if terms.can_qualify_for_wsop:
        return (
            f"Late joiner: owes the admin fee; WSOP-eligible only by playing at least {terms.min_events} "
            f"of events {terms.window_from} onwards."
        )
    return (
        "Late joiner: no admin fee, not WSOP-eligible, gets the "
        f"{percent_str(rules.late_joiner_share_pct)} benefit."
    )


@require(Action.MANAGE_MEMBERS)
def removals(request):
    season = current_season()
    if season is None:
        return no_season(request)
    form = forms.RemovalForm(request.POST or None, season=season, initial={"held_on": club_today()})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        removal = command_run(
            request,
            member_remove,
            refused=lambda exc: messages.error(request, f"Nothing was saved. {exc}"),
            membership=data["membership"],
            grounds=data["grounds"],
            held_on=data["held_on"],
            yes=data["yes"],
            no=data["no"],
            abstain=data["abstain"],
            nominated_by=data["nominated_by"],
            notes=data["notes"],
        )
        if removal is not None:
            alternate = first_alternate()
            messages.success(
                request,
                f"{removal.membership.person} is removed and forfeits the money paid."
                + (f" The seat is offered to the first alternate, {alternate.person}." if alternate else ""),
            )
            return redirect("members:removals")
    elif request.method == "POST":
        messages.error(request, "Nothing was saved: please correct the fields marked below.")
    return render(
        request,
        "members/removals.html",
        {
            "season": season,
            "form": form,
            "members": current_member_count(season=season),
            "unpaid": unpaid_at_first_january(season=season, on=club_today()),
            "today": club_today(),
            "removals": Removal.objects.filter(membership__season=season).select_related(
                "membership__person", "vote", "nominated_by"
            ),
        },
    )


@require(Action.MANAGE_MEMBERS)
def suspensions(request):
    season = current_season()
    if season is None:
        return no_season(request)
    today = club_today()
    form = forms.SuspensionForm(request.POST or None, season=season, initial={"start": today, "end": today})
    if request.method == "POST" and form.is_valid():
        if command_run(
            request, suspension_create, form=form, success="Recorded: {result}.", **form.cleaned_data
        ):
            return redirect("members:suspensions")
    elif request.method == "POST":
        messages.error(request, "Nothing was saved: please correct the fields marked below.")
    return render(
        request,
        "members/suspensions.html",
        {
            "season": season,
            "form": form,
            "today": today,
            "suspensions": Suspension.objects.filter(membership__season=season).select_related(
                "membership__person", "recorded_by"
            ),
            # Ending early: by default the suspension is lifted from today on (yesterday is its last day).
            "end_default": today - dt.timedelta(days=1),
        },
    )


@require_POST
@require(Action.MANAGE_MEMBERS)
def suspension_end_view(request, pk):
    suspension = get_object_or_404(Suspension.objects.select_related("membership__person"), pk=pk)
    form = forms.SuspensionEndForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing was changed: give the new last day and the reason.")
        return redirect("members:suspensions")
    command_run(
        request,
        suspension_end,
        suspension=suspension,
        success="{result.membership.person}'s suspension now ends on {result.end:%b %-d, %Y} (included).",
        **form.cleaned_data,
    )
    return redirect("members:suspensions")


@require_POST
@require(Action.EDIT_RULES)
def season_new(request):
    """The "new season" form of the Season rules page (its address stays under /events/)."""
    form = SeasonCreateForm(request.POST)
    if not form.is_valid():
        # The year, else the choice refused by name (a page sent with a choice the form no longer offers).
        field, errors = next(iter(form.errors.items()))
        messages.error(
            request,
            "Enter the year the season starts, like 2027."
            if field == "start_year"
            else f"Nothing was created: {form.fields[field].label}: {' '.join(str(e) for e in errors)}",
        )
        return redirect("events:rules_current")
    opened = command_run(request, season_open, **form.cleaned_data)
    if opened is None:
        return redirect("events:rules_current")
    season, carried = opened
    # A season with none before it (the club's first) starts from the bylaws' rules, as season_create gives it.
    first = not any(other.start < season.start for other in seasons_all())
    rules_from = "the bylaws' rules" if first else "the rules of the season before"
    # SPEC §17.2: seats carried into a season whose first months are closed take effect in the first open one.
    moved = next((m.joined_on for m in carried if m.joined_on != season.start), None)
    messages.success(
        request,
        f"Created season {season} with its {season.events_per_season} events and {rules_from}; "
        f"{len(carried)} members keep their seats (each signs the new rules document before playing)"
        + (
            f", from {moved:%b %-d, %Y} in the books since the months before it are closed (their dues are the "
            "season's, as always)."
            if moved is not None
            else "."
        ),
    )
    return redirect("events:rules", season=season.name)

"""Member directory and profile (members), and the officers' membership pages. Thin: form → service."""

import datetime as dt

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from events.forms import SeasonCreateForm
from events.selectors import current_season, season_rules
from members import forms
from members.models import Membership, Person, Removal, RulesSignature, Suspension, WaitingListEntry
from members.profile import profile_panels
from members.selectors import (
    current_member_count,
    first_alternate,
    next_event_number,
    person_seasons,
    season_roster,
    signature_checklist,
    unpaid_at_first_january,
    unsigned_before_next_event,
    waiting_list,
)
from members.services.admission import AdmissionRefused, VoteCounts, member_admit
from members.services.late_joiners import join_terms
from members.services.logins import login_email_problem
from members.services.people import EDITABLE, person_create, person_turned_pro, person_update
from members.services.roster import season_open
from members.services.seats import member_remove, member_withdraw, seat_transfer
from members.services.standing import (
    rules_signature_record,
    rules_signature_withdraw,
    rules_signatures_record,
    suspension_create,
    suspension_end,
)
from members.services.waiting_list import waiting_list_add, waiting_list_move, waiting_list_withdraw
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.money import percent_str
from ncpc.core.permissions import Action, require, user_can, user_person


def _no_season(request):
    return render(request, "members/no_season.html")


# Members' pages -------------------------------------------------------------------------------------------


@require(Action.VIEW_CLUB)
def directory(request):
    season = current_season()
    roster = season_roster(season=season) if season else []
    return render(
        request,
        "members/directory.html",
        {
            "season": season,
            "roster": roster,
            "me": user_person(request.user),
            "show_all_personal": user_can(request.user, Action.VIEW_PERSONAL_DATA),
            "can_manage": user_can(request.user, Action.MANAGE_MEMBERS),
            "seats_free": (season_rules(season).max_members - len(roster)) if season else 0,
        },
    )


@require(Action.VIEW_CLUB)
def profile(request, key):
    person = get_object_or_404(Person, key=key)
    me = user_person(request.user)
    season = current_season()
    seasons = []
    for membership in person_seasons(person=person):
        rules = season_rules(membership.season)
        seasons.append(
            {
                "membership": membership,
                "terms": join_terms(rules=rules, first_event=membership.first_event),
                "rules": rules,
                "removal": Removal.objects.filter(membership=membership).first(),
            }
        )
    return render(
        request,
        "members/profile.html",
        {
            "person": person,
            "seasons": seasons,
            "show_personal": user_can(request.user, Action.VIEW_PERSONAL_DATA) or (me and me.pk == person.pk),
            "is_me": bool(me and me.pk == person.pk and person.user_id),
            "can_manage": user_can(request.user, Action.MANAGE_MEMBERS),
            "panels": profile_panels(request=request, person=person, season=season),
            "turned_pro_form": forms.TurnedProForm(initial={"on": club_today()}),
        },
    )


# Officers' pages ------------------------------------------------------------------------------------------


@require(Action.MANAGE_MEMBERS)
def manage(request):
    season = current_season()
    if season is None:
        return _no_season(request)
    next_number, unsigned = unsigned_before_next_event(season=season, on=club_today())
    return render(
        request,
        "members/manage.html",
        {
            "season": season,
            "members": current_member_count(season=season),
            "alternate": first_alternate(),
            "waiting": len(waiting_list()),
            "next_number": next_number,
            "unsigned": unsigned,
            "can_sign": user_can(request.user, Action.RECORD_SIGNATURES),
        },
    )


@require(Action.MANAGE_MEMBERS)
def person_new(request):
    form = forms.PersonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            person = person_create(actor=request.user, **form.cleaned_data)
        except NcpcError as exc:
            form.add_error(exc.field, str(exc))
        else:
            messages.success(request, f"Recorded {person}. Put them on the waiting list or admit them.")
            return redirect("members:waiting_list")
    return render(request, "members/person_new.html", {"form": form})


@require(Action.MANAGE_MEMBERS)
def person_edit(request, key):
    person = get_object_or_404(Person, key=key)
    form = forms.PersonEditForm(
        request.POST or None,
        initial={name: getattr(person, name) for name in EDITABLE},
        email_locked=login_email_problem(person=person, actor=request.user, on=club_today()),
    )
    if request.method == "POST" and form.is_valid():
        try:
            changed = person_update(person=person, changes=form.cleaned_data, actor=request.user)
        except NcpcError as exc:
            form.add_error(exc.field, str(exc))
        else:
            if changed:
                person.refresh_from_db()
                messages.success(
                    request, f"Saved {person}'s {', '.join(n.replace('_', ' ') for n in changed)}."
                )
            else:
                messages.info(request, "Nothing changed.")
            return redirect("members:profile", key=person.key)
    return render(request, "members/person_edit.html", {"form": form, "person": person})


def own_email(request):
    """The e-mail of one's own login (SPEC §17.6): a member changes it here; an officer's is changed by the
    President, on the person's page."""
    person = user_person(request.user)
    if person is None:
        raise Http404("This login belongs to no person of the club.")
    problem = login_email_problem(person=person, actor=request.user, on=club_today())
    form = forms.OwnEmailForm(request.POST or None, user=request.user, initial={"email": person.email})
    if request.method == "POST" and not problem and form.is_valid():
        try:
            changed = person_update(
                person=person, changes={"email": form.cleaned_data["email"]}, actor=request.user
            )
        except NcpcError as exc:
            form.add_error("email" if exc.field == "email" else None, str(exc))
        else:
            if changed:
                messages.success(
                    request,
                    f"Your e-mail is now {form.cleaned_data['email']}; a note went to the address before.",
                )
            else:
                messages.info(request, "Nothing changed: that is your e-mail already.")
            return redirect("members:profile", key=person.key)
    status = 403 if request.method == "POST" and problem else 200
    return render(
        request, "members/own_email.html", {"form": form, "person": person, "problem": problem}, status=status
    )


@require(Action.MANAGE_MEMBERS)
def admit(request):
    season = current_season()
    if season is None:
        return _no_season(request)
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
    problems = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            membership = member_admit(
                person=data["person"],
                season=season,
                on=data["on"],
                sponsor=data["sponsor"],
                vote=VoteCounts(
                    held_on=data["held_on"], yes=data["yes"], no=data["no"], abstain=data["abstain"]
                ),
                declared_not_professional=data["declared_not_professional"],
                actor=request.user,
                reason=data["reason"],
            )
        except AdmissionRefused as exc:
            problems = exc.problems
            messages.error(request, "Not admitted: nothing was saved. Every unmet condition is listed below.")
        except NcpcError as exc:
            messages.error(request, str(exc))
        else:
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
        return _no_season(request)
    form = forms.WaitingListAddForm(request.POST or None, season=season)
    if request.method == "POST" and form.is_valid():
        try:
            entry = waiting_list_add(
                person=form.cleaned_data["person"],
                sponsor=form.cleaned_data["sponsor"],
                notes=form.cleaned_data["notes"],
                on=club_today(),
                actor=request.user,
            )
        except NcpcError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request, f"Added {entry.person} to the waiting list at position {entry.position}."
            )
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
    try:
        waiting_list_move(entry=entry, up=request.POST.get("direction") == "up", actor=request.user)
    except NcpcError as exc:
        messages.error(request, str(exc))
    return redirect("members:waiting_list")


@require_POST
@require(Action.MANAGE_MEMBERS)
def waiting_list_remove(request, pk):
    entry = get_object_or_404(WaitingListEntry, pk=pk)
    try:
        waiting_list_withdraw(
            entry=entry, on=club_today(), reason=request.POST.get("reason", ""), actor=request.user
        )
    except NcpcError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Took {entry.person} off the waiting list.")
    return redirect("members:waiting_list")


@require(Action.MANAGE_MEMBERS)
def transfers(request):
    season = current_season()
    if season is None:
        return _no_season(request)
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
        data = transfer_form.cleaned_data
        try:
            seller = data["seller"]
            bought = seat_transfer(
                seller=seller,
                buyer=data["buyer"],
                how=data["how"],
                on=data["on"],
                sponsor=data["sponsor"],
                vote=VoteCounts(
                    held_on=data["held_on"], yes=data["yes"], no=data["no"], abstain=data["abstain"]
                ),
                declared_not_professional=data["declared_not_professional"],
                actor=request.user,
                reason=data["reason"],
            )
        except NcpcError as exc:
            messages.error(request, str(exc))
        else:
            rules = season_rules(season)
            terms = join_terms(rules=rules, first_event=bought.first_event)
            messages.success(
                request,
                f"{bought.person} takes the seat of {seller.person} from event {bought.first_event}; "
                f"{seller.person} keeps their points. " + _terms_sentence(terms, rules=rules),
            )
            return redirect("members:transfers")
    elif which == "withdraw" and withdraw_form.is_valid():
        data = withdraw_form.cleaned_data
        try:
            left = member_withdraw(
                membership=data["membership"], on=data["on"], actor=request.user, reason=data["reason"]
            )
        except NcpcError as exc:
            messages.error(request, str(exc))
        else:
            alternate = first_alternate()
            messages.success(
                request,
                f"{left.person} withdrew after event {left.left_after_event}."
                + (f" The seat is offered to the first alternate, {alternate.person}." if alternate else ""),
            )
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
        return _no_season(request)
    form = forms.RemovalForm(request.POST or None, season=season, initial={"held_on": club_today()})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            removal = member_remove(
                membership=data["membership"],
                grounds=data["grounds"],
                held_on=data["held_on"],
                yes=data["yes"],
                no=data["no"],
                abstain=data["abstain"],
                nominated_by=data["nominated_by"],
                notes=data["notes"],
                actor=request.user,
            )
        except NcpcError as exc:
            messages.error(request, f"Nothing was saved. {exc}")
        else:
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
        return _no_season(request)
    today = club_today()
    form = forms.SuspensionForm(request.POST or None, season=season, initial={"start": today, "end": today})
    if request.method == "POST" and form.is_valid():
        try:
            suspension = suspension_create(actor=request.user, **form.cleaned_data)
        except NcpcError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, f"Recorded: {suspension}.")
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
    try:
        suspension = suspension_end(suspension=suspension, actor=request.user, **form.cleaned_data)
    except NcpcError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            f"{suspension.membership.person}'s suspension now ends on {suspension.end:%b %-d, %Y} (included).",
        )
    return redirect("members:suspensions")


@require(Action.RECORD_SIGNATURES)
def signatures(request):
    season = current_season()
    if season is None:
        return _no_season(request)
    today = club_today()
    if request.method == "POST" and request.POST.get("bulk"):
        return _signatures_bulk(request, season=season)
    if request.method == "POST":
        form = forms.SignatureForm(request.POST, season=season)
        if form.is_valid():
            try:
                rules_signature_record(
                    membership=form.cleaned_data["membership"],
                    signed_on=form.cleaned_data["signed_on"],
                    actor=request.user,
                )
            except NcpcError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(
                    request, f"Recorded the signature of {form.cleaned_data['membership'].person}."
                )
        else:
            messages.error(request, "Nothing was saved: give the date the rules document was signed.")
        return redirect("members:signatures")
    next_number, unsigned = unsigned_before_next_event(season=season, on=today)
    rows = signature_checklist(season=season)
    return render(
        request,
        "members/signatures.html",
        {
            "season": season,
            "next_number": next_number,
            "unsigned": unsigned,
            "rows": rows,
            "unsigned_count": sum(1 for _membership, signature in rows if signature is None),
            "today": today,
        },
    )


def _signatures_bulk(request, *, season):
    form = forms.SignaturesForm(request.POST, season=season)
    if not form.is_valid():
        problems = " ".join(str(e) for errors in form.errors.values() for e in errors)
        messages.error(request, f"Nothing was saved: {problems}")
        return redirect("members:signatures")
    try:
        created = rules_signatures_record(
            memberships=list(form.cleaned_data["membership"]),
            signed_on=form.cleaned_data["signed_on"],
            actor=request.user,
        )
    except NcpcError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Recorded {len(created)} signature{'s' if len(created) != 1 else ''}.")
    return redirect("members:signatures")


@require_POST
@require(Action.MANAGE_MEMBERS)
def signature_withdraw(request, pk):
    signature = get_object_or_404(RulesSignature, pk=pk)
    reason = request.POST.get("reason", "")
    try:
        membership = rules_signature_withdraw(signature=signature, reason=reason, actor=request.user)
    except NcpcError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request, f"Withdrew {membership.person}'s signature: {membership.person} is unsigned again."
        )
    return redirect("members:signatures")


@require_POST
@require(Action.MANAGE_MEMBERS)
def turned_pro(request, key):
    person = get_object_or_404(Person, key=key)
    form = forms.TurnedProForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing was saved: give the date they turned professional.")
        return redirect("members:profile", key=key)
    try:
        person_turned_pro(
            person=person, on=form.cleaned_data["on"], reason=form.cleaned_data["reason"], actor=request.user
        )
    except NcpcError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Recorded that {person} turned professional; the seat is kept (§2.4.2).")
    return redirect("members:profile", key=key)


@require_POST
@require(Action.EDIT_RULES)
def season_new(request):
    """The "new season" form of the Season rules page (its address stays under /events/)."""
    form = SeasonCreateForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Enter the year the season starts, like 2027.")
        return redirect("events:rules_current")
    try:
        season, carried = season_open(start_year=form.cleaned_data["start_year"], actor=request.user)
    except NcpcError as exc:
        messages.error(request, str(exc))
        return redirect("events:rules_current")
    messages.success(
        request,
        f"Created season {season} with its {season.events_per_season} events and the rules of the season before; "
        f"{len(carried)} members keep their seats (each signs the new rules document before playing).",
    )
    return redirect("events:rules", season=season.name)

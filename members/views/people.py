"""Member directory and profile (members), the officers' overview and a person's record. Thin: form → service."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from events.selectors import current_season, season_rules
from members import forms
from members.models import Person, Removal
from members.profile import profile_panels
from members.selectors import (
    current_member_count,
    first_alternate,
    person_seasons,
    season_roster,
    unsigned_before_next_event,
    waiting_list,
)
from members.services.late_joiners import join_terms
from members.services.logins import login_email_problem
from members.services.people import EDITABLE, person_create, person_turned_pro, person_update
from members.views.common import no_season
from ncpc.core.clock import club_today
from ncpc.core.feedback import command_run
from ncpc.core.permissions import Action, require, user_can, user_person


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


@require(Action.MANAGE_MEMBERS)
def manage(request):
    season = current_season()
    if season is None:
        return no_season(request)
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
        if command_run(
            request,
            person_create,
            form=form,
            success="Recorded {result}. Put them on the waiting list or admit them.",
            **form.cleaned_data,
        ):
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
        changed = command_run(request, person_update, form=form, person=person, changes=form.cleaned_data)
        if changed is not None:
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
        changed = command_run(
            request, person_update, form=form, person=person, changes={"email": form.cleaned_data["email"]}
        )
        if changed is not None:
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


@require_POST
@require(Action.MANAGE_MEMBERS)
def turned_pro(request, key):
    person = get_object_or_404(Person, key=key)
    form = forms.TurnedProForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing was saved: give the date they turned professional.")
        return redirect("members:profile", key=key)
    command_run(
        request,
        person_turned_pro,
        person=person,
        on=form.cleaned_data["on"],
        reason=form.cleaned_data["reason"],
        success="Recorded that {result} turned professional; the seat is kept (§2.4.2).",
    )
    return redirect("members:profile", key=key)

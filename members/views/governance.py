"""Governance pages: club votes and ballots (members vote on a phone), elections, rule changes, disputes.

Thin: form → service → ``NcpcError`` becomes a message → redirect. The President opens, closes and
publishes ballots; the President or the Vice President accepts rule-change suggestions (§3.4.1, §3.5.1);
any officer logs a ruling (the Vice President and Treasurer rule too, §3.5.2–3.5.3, §3.6.7–3.6.8).
"""

from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from events.models import Season
from events.selectors import current_season, season_rules
from members import governance_forms as forms
from members.governance_selectors import (
    ballot_questions,
    ballot_results,
    ballot_turnout,
    club_votes,
    may_vote,
    questions_voted,
    rule_changes_waiting,
    rule_suggestions,
    season_ballots,
    season_rulings,
)
from members.models import Ballot, BallotQuestion, Nomination, OfficerTerm, RuleChange, Vote
from members.selectors import current_member_count, officer_holders
from members.services import ballots as ballot_services
from members.services import elections as election_services
from members.services.disputes import ruling_record, who_rules
from members.services.rule_changes import (
    RULE_LABELS,
    rule_change_entered_by_hand,
    rule_changes_apply_pending,
    rule_value_now,
    rule_value_text,
)
from members.services.votes import vote_record
from members.views.common import no_season
from ncpc.core.clock import club_today
from ncpc.core.feedback import command_run
from ncpc.core.identity import reference_rewrite
from ncpc.core.permissions import VICE_PRESIDENT, Action, require, user_can, user_offices, user_person


def _may_review(user) -> bool:
    """Accept or decline suggestions: the President (MANAGE_BALLOTS) or the Vice President (§3.5.1)."""
    return user_can(user, Action.MANAGE_BALLOTS) or VICE_PRESIDENT in user_offices(user)


def _may_log_rulings(user) -> bool:
    return user_can(user, Action.RECORD_RULINGS) or bool(user_offices(user))


def _may_record_tie(user, question: BallotQuestion) -> bool:
    """The officer who records a tie's outcome: the President unless a candidate in that race (SPEC §15.14);
    a superuser may too. Rule-change questions never tie (a majority decides): the President's page."""
    if not question.office:
        return user_can(user, Action.MANAGE_ELECTIONS)
    if getattr(user, "is_superuser", False):
        return True
    office = election_services.tie_recorder_office(
        question=question, holders=officer_holders(on=club_today())
    )
    return office is not None and office in user_offices(user)


def _may_run(user, ballot: Ballot) -> bool:
    action = Action.MANAGE_ELECTIONS if ballot.kind == Ballot.Kind.ELECTION else Action.MANAGE_BALLOTS
    return user_can(user, action)


# Members -------------------------------------------------------------------------------------------------


@require(Action.VIEW_CLUB)
def index(request):
    season = current_season()
    if season is None:
        return no_season(request)
    me = user_person(request.user)
    ballots = []
    for ballot in season_ballots(season=season):
        voted = questions_voted(ballot=ballot, person=me)
        ballots.append(
            {
                "ballot": ballot,
                "questions": ballot.questions.count(),
                "voted": len(voted),
                "may_vote": ballot.is_open and may_vote(ballot=ballot, person=me),
            }
        )
    return render(
        request,
        "members/governance/index.html",
        {
            "season": season,
            "ballots": ballots,
            "votes": club_votes(season=season),
            "can_elect": user_can(request.user, Action.MANAGE_ELECTIONS),
            "can_record_vote": user_can(request.user, Action.MANAGE_BALLOTS),
            "waiting": rule_changes_waiting() if user_can(request.user, Action.EDIT_RULES) else [],
        },
    )


@require(Action.VIEW_CLUB)
def ballot_detail(request, pk):
    ballot = get_object_or_404(Ballot.objects.select_related("season"), pk=pk)
    me = user_person(request.user)
    questions = ballot_questions(ballot=ballot)
    can_run = _may_run(request.user, ballot)
    counted = ballot.status in (Ballot.Status.CLOSED, Ballot.Status.PUBLISHED)
    show_results = ballot.is_published or (counted and can_run)
    voted = questions_voted(ballot=ballot, person=me)
    rules = season_rules(ballot.season) if ballot.kind == Ballot.Kind.RULE_CHANGES else None

    items = []
    for question in questions:
        change = question.rule_change
        item = {"question": question, "voted": question.pk in voted, "change": change}
        if change and change.rule_field and rules is not None:
            item["rule_label"] = reference_rewrite(RULE_LABELS.get(change.rule_field, change.rule_field))
            item["rule_now"] = rule_value_now(rules=rules, field=change.rule_field, value=change.new_value)
            item["rule_new"] = rule_value_text(field=change.rule_field, value=change.new_value)
        items.append(item)
    context = {
        "ballot": ballot,
        "items": items,
        "may_vote": ballot.is_open and may_vote(ballot=ballot, person=me),
        "open_questions": [i for i in items if not i["voted"]],
        "results": ballot_results(ballot=ballot, questions=questions) if show_results else [],
        "can_run": can_run,
        "turnout": ballot_turnout(ballot=ballot) if can_run else None,
        "members": ballot_services.ballot_electorate(ballot=ballot),
    }
    days = election_services.election_days(season=ballot.season)
    context["days"] = days
    if can_run and ballot.kind == Ballot.Kind.ELECTION and ballot.status == Ballot.Status.PREPARING:
        context["nomination_form"] = forms.NominationForm(
            season=ballot.season, initial={"on": days.nominations or club_today()}
        )
    if ballot.kind == Ballot.Kind.ELECTION and counted:
        ties = [q for q in questions if q.tie and not q.winner_id]
        context["tie_forms"] = [
            (q, forms.TieForm(question=q, prefix=f"tie{q.pk}"))
            for q in ties
            if _may_record_tie(request.user, q)
        ]
        context["ties_elsewhere"] = [q for q in ties if can_run and not _may_record_tie(request.user, q)]
    return render(request, "members/governance/ballot.html", context)


@require_POST
@require(Action.VOTE)
def ballot_vote(request, pk):
    ballot = get_object_or_404(Ballot, pk=pk)
    if not request.POST.get("confirm"):
        messages.error(
            request,
            "Tick the box to confirm your vote first (a vote cannot be changed): nothing was recorded.",
        )
        return redirect("members:ballot", pk=ballot.pk)
    choices = {}
    for question_id in ballot.questions.values_list("pk", flat=True):
        if value := request.POST.get(f"q{question_id}"):
            choices[question_id] = value
    person = user_person(request.user)
    if person is None:
        raise PermissionDenied("Only members vote.")
    command_run(
        request,
        ballot_services.ballot_vote,
        ballot=ballot,
        person=person,
        choices=choices,
        on=club_today(),
        success="Your vote on {result} question(s) is recorded. It is secret: nobody can see your choice.",
    )
    return redirect("members:ballot", pk=ballot.pk)


STEPS = {
    "open": (ballot_services.ballot_open, "Opened: members can vote now."),
    "close": (
        ballot_services.ballot_close,
        "Closed and counted. Publish the result to show it to every member.",
    ),
    "publish": (ballot_services.ballot_publish, "Published: every member sees the result."),
}


@require_POST
@require(Action.VIEW_CLUB)
def ballot_step(request, pk, step):
    ballot = get_object_or_404(Ballot, pk=pk)
    if not _may_run(request.user, ballot):
        raise PermissionDenied("Only the President runs a ballot.")
    if step not in STEPS:
        return redirect("members:ballot", pk=ballot.pk)
    command, done = STEPS[step]
    if not request.POST.get("confirm"):
        messages.error(request, "Tick the confirmation box first: nothing was changed.")
        return redirect("members:ballot", pk=ballot.pk)
    command_run(request, command, ballot=ballot, on=club_today(), success=done)
    return redirect("members:ballot", pk=ballot.pk)


# Elections (President) -----------------------------------------------------------------------------------


@require_POST
@require(Action.MANAGE_ELECTIONS)
def election_new(request):
    season = current_season()
    if season is None:
        return no_season(request)
    ballot = command_run(
        request,
        election_services.election_create,
        season=season,
        on=club_today(),
        success="Election created: record the nominations made at the March event.",
    )
    if ballot is None:
        return redirect("members:governance")
    return redirect("members:ballot", pk=ballot.pk)


@require_POST
@require(Action.MANAGE_ELECTIONS)
def nominate(request, pk):
    ballot = get_object_or_404(Ballot.objects.select_related("season"), pk=pk)
    form = forms.NominationForm(request.POST, season=ballot.season)
    if not form.is_valid():
        messages.error(request, "Nothing was saved: choose an office, a nominee and the date.")
        return redirect("members:ballot", pk=ballot.pk)
    data = form.cleaned_data
    command_run(
        request,
        election_services.nomination_record,
        ballot=ballot,
        office=data["office"],
        person=data["person"],
        nominated_by=data["nominated_by"],
        on=data["on"],
        success="Nominated {result}.",
    )
    return redirect("members:ballot", pk=ballot.pk)


@require_POST
@require(Action.MANAGE_ELECTIONS)
def nomination_withdraw(request, pk):
    nomination = Nomination.objects.select_related("question").filter(pk=pk).first()
    if nomination is None:  # withdrawn already: the form sent twice, or by two officers
        messages.info(request, "That nomination is withdrawn already: nothing changed.")
        return redirect("members:governance")
    ballot_id = nomination.question.ballot_id
    command_run(
        request, election_services.nomination_withdraw, nomination=nomination, success="Nomination withdrawn."
    )
    return redirect("members:ballot", pk=ballot_id)


@require_POST
@require(Action.VIEW_CLUB)
def tie_resolve(request, pk):
    question = get_object_or_404(BallotQuestion, pk=pk)
    if not _may_record_tie(request.user, question):
        raise PermissionDenied(
            "The President records a tie's outcome; when the President is a candidate in that race, the next "
            "officer who is not."
        )
    form = forms.TieForm(request.POST, question=question, prefix=f"tie{question.pk}")
    if not form.is_valid():
        messages.error(request, "Nothing was saved: choose the winner and say how the club decided.")
        return redirect("members:ballot", pk=question.ballot_id)
    command_run(
        request,
        election_services.election_tie_resolve,
        question=question,
        winner=form.cleaned_data["winner"],
        note=form.cleaned_data["note"],
        recorded_by=user_person(request.user),
        success="Recorded the outcome for {result}.",
    )
    return redirect("members:ballot", pk=question.ballot_id)


# Rule changes ---------------------------------------------------------------------------------------------


@require(Action.VIEW_CLUB)
def rule_changes(request):
    season = current_season()
    if season is None:
        return no_season(request)
    form = forms.SuggestionForm(request.POST or None)
    if request.method == "POST":
        person = user_person(request.user)
        if not user_can(request.user, Action.VOTE) or person is None:
            raise PermissionDenied("Only members suggest rule changes.")
        if form.is_valid():
            if command_run(
                request,
                ballot_services.rule_change_submit,
                season=season,
                person=person,
                suggestion=form.cleaned_data["suggestion"],
                on=club_today(),
                success="Thank you: the President and Vice President will review your suggestion.",
            ):
                return redirect("members:rule_changes")
    return render(
        request,
        "members/governance/rule_changes.html",
        {
            "season": season,
            "form": form,
            "changes": rule_suggestions(season=season),
            "can_review": _may_review(request.user),
            "can_edit_rules": user_can(request.user, Action.EDIT_RULES),
        },
    )


@require(Action.VIEW_CLUB)
def rule_change_accept(request, pk):
    if not _may_review(request.user):
        raise PermissionDenied("The President or the Vice President puts suggestions on the ballot.")
    change = get_object_or_404(RuleChange.objects.select_related("submitted_by", "season"), pk=pk)
    form = forms.AcceptForm(request.POST or None, initial={"title": change.suggestion[:200]})
    decline_form = forms.DeclineForm()
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if command_run(
            request,
            ballot_services.rule_change_accept,
            form=form,
            change=change,
            title=data["title"],
            rule_field=data["rule_field"],
            value_text=data["new_value"],
            on=club_today(),
            success="On the season's rule-change ballot.",
        ):
            return redirect("members:rule_changes")
    return render(
        request,
        "members/governance/rule_change_accept.html",
        {"change": change, "form": form, "decline_form": decline_form},
    )


@require_POST
@require(Action.VIEW_CLUB)
def rule_change_decline(request, pk):
    if not _may_review(request.user):
        raise PermissionDenied("The President or the Vice President reviews suggestions.")
    change = get_object_or_404(RuleChange, pk=pk)
    form = forms.DeclineForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, f"Reason: {' '.join(str(e) for e in form.errors.get('reason', ['give a reason.']))}"
        )
        return redirect("members:rule_change_accept", pk=change.pk)
    if not command_run(
        request,
        ballot_services.rule_change_decline,
        change=change,
        reason=form.cleaned_data["reason"],
        on=club_today(),
        success="The suggestion does not go on the ballot; the reason is shown to members.",
    ):
        return redirect("members:rule_change_accept", pk=change.pk)
    return redirect("members:rule_changes")


@require_POST
@require(Action.EDIT_RULES)
def rule_change_apply(request, pk):
    """Apply the changes waiting for a season that exists (if season creation did not do it)."""
    change = get_object_or_404(RuleChange, pk=pk)
    season = Season.objects.filter(name=change.applies_to).first()
    if season is None:
        messages.error(request, f"Season {change.applies_to} does not exist yet: the change waits for it.")
    else:
        rule_changes_apply_pending(season=season, actor=request.user)
        change.refresh_from_db()
        messages.info(request, f"{change}: {change.get_apply_state_display()}.")
    return redirect("members:governance")


@require_POST
@require(Action.EDIT_RULES)
def rule_change_by_hand(request, pk):
    change = get_object_or_404(RuleChange, pk=pk)
    command_run(
        request,
        rule_change_entered_by_hand,
        change=change,
        on=club_today(),
        success="Marked as entered on the Season rules page.",
    )
    return redirect("members:governance")


# Other club votes (President) -----------------------------------------------------------------------------


@require(Action.MANAGE_BALLOTS)
def vote_record_view(request):
    season = current_season()
    if season is None:
        return no_season(request)
    members = current_member_count(season=season)
    form = forms.ClubVoteForm(request.POST or None, initial={"held_on": club_today()})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        booked = command_run(
            request,
            vote_record,
            kind=data["kind"],
            subject=data["subject"],
            held_on=data["held_on"],
            yes=data["yes"],
            no=data["no"],
            abstain=data["abstain"],
            members_eligible=members,
            season=season,
            once=data["once"],
        )
        if booked is not None:
            vote = booked.record
            if booked.replayed:
                messages.info(request, f"Already recorded: {vote.subject} (this form was sent before).")
                return redirect("members:governance")
            outcome = (
                "passed" if vote.passed else "did not pass (yes-votes must be more than half of the members)"
            )
            messages.success(request, f"Recorded: {vote.subject} — {outcome}.")
            return redirect("members:governance")
    return render(
        request,
        "members/governance/vote_record.html",
        {"season": season, "form": form, "members": members, "kinds": Vote.Kind},
    )


# Disputes -------------------------------------------------------------------------------------------------


@require(Action.VIEW_CLUB)
def who_rules_view(request):
    # "asked" is sent by the button: with no box ticked (no officer present) the question still has an answer.
    asked = "asked" in request.GET or "present" in request.GET or "involved" in request.GET
    form = forms.WhoRulesForm(request.GET if asked else None)
    answer = None
    log_query = ""
    if asked and form.is_valid():
        answer = who_rules(present=form.cleaned_data["present"], involved=form.cleaned_data["involved"])
        log_query = urlencode(
            {
                "asked": "1",
                "present": form.cleaned_data["present"],
                "involved": form.cleaned_data["involved"],
            },
            doseq=True,
        )
    labels = dict(OfficerTerm.Office.choices)
    holders = [(labels[office], person) for office, person in officer_holders(on=club_today()).items()]
    return render(
        request,
        "members/governance/who_rules.html",
        {
            "form": form,
            "answer": answer,
            "holders": holders,
            "log_query": log_query,
            "can_log": _may_log_rulings(request.user),
        },
    )


@require(Action.VIEW_CLUB)
def rulings(request):
    season = current_season()
    if season is None:
        return no_season(request)
    return render(
        request,
        "members/governance/rulings.html",
        {
            "season": season,
            "rulings": season_rulings(season=season),
            "can_log": _may_log_rulings(request.user),
        },
    )


@require(Action.VIEW_CLUB)
def ruling_new(request):
    if not _may_log_rulings(request.user):
        raise PermissionDenied("Officers log rulings.")
    season = current_season()
    if season is None:
        return no_season(request)
    initial: dict = {}
    if number := request.GET.get("event"):
        if not (number.isascii() and number.isdigit() and len(number) <= 9):
            return HttpResponseBadRequest(f"?event= takes an event number, not {number[:40]!r}.")
        initial["event"] = season.events.filter(number=int(number)).first()
    # The who-rules answer carried over: the offices present and involved, as that page sent them.
    answer = None
    asked = forms.WhoRulesForm(request.GET)
    if {"asked", "present", "involved"} & set(request.GET) and asked.is_valid():
        initial["present"] = asked.cleaned_data["present"]
        initial["involved"] = asked.cleaned_data["involved"]
        answer = who_rules(present=initial["present"], involved=initial["involved"])
    form = forms.RulingForm(request.POST or None, season=season, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if command_run(
            request,
            ruling_record,
            form=form,
            event=data["event"],
            hand=data["hand"],
            parties=data["parties"],
            dispute=data["dispute"],
            ruling=data["ruling"],
            present=data["present"],
            involved=data["involved"],
            independent_player=data["independent_player"],
            success="Ruling logged.",
        ):
            return redirect("members:rulings")
    return render(
        request, "members/governance/ruling_new.html", {"season": season, "form": form, "answer": answer}
    )

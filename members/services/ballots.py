"""Secret ballots of the members (elections and rule changes) and the rule-change suggestions (§3.4).

Secrecy: a vote writes a ``BallotParticipation`` (who voted on which question) and adds one to a
``BallotCount`` (how many chose that option). Nothing links the two; the audit row names the voter and the
questions, never the choice.
"""

import datetime as dt
from collections.abc import Mapping

from django.db import transaction
from django.db.models import Count, F
from django.template.loader import render_to_string
from django.urls import reverse

from events.models import Season
from members.models import (
    Ballot,
    BallotCount,
    BallotParticipation,
    BallotQuestion,
    Membership,
    Person,
    RuleChange,
    Vote,
)
from members.selectors import current_member_count
from members.services.elections import election_count, election_terms_grant, election_voting_day_check
from members.services.rule_changes import rule_changes_send_on, rule_value_clean
from members.services.votes import vote_record
from ncpc.core.audit import Actor, actor_user, audit_record
from ncpc.core.errors import NcpcError
from ncpc.core.identity import club_identity
from ncpc.core.mail import Mail, mail_queue, site_link
from ncpc.core.models import MailDelivery

YES, NO = BallotCount.Answer.YES.value, BallotCount.Answer.NO.value


def _locked(ballot: Ballot) -> Ballot:
    return Ballot.objects.select_for_update().select_related("season").get(pk=ballot.pk)


# Rule-change suggestions ----------------------------------------------------------------------------------


@transaction.atomic
def rule_change_submit(
    *, season: Season, person: Person, suggestion: str, on: dt.date, actor: Actor = None
) -> RuleChange:
    """Any member may suggest a rule change during the year (§3.4.1). The same suggestion sent again by the
    same member while it waits for review (a double click, a resent form) is the one already recorded."""
    if not suggestion.strip():
        raise NcpcError("Write the change you suggest.", field="suggestion")
    Person.objects.select_for_update().filter(pk=person.pk).first()  # one suggestion of theirs at a time
    same = RuleChange.objects.filter(
        season=season, submitted_by=person, status=RuleChange.Status.SUBMITTED, suggestion=suggestion.strip()
    ).first()
    if same is not None:
        return same
    change = RuleChange.objects.create(
        season=season, submitted_by=person, submitted_on=on, suggestion=suggestion.strip()
    )
    audit_record(actor=actor, action="rules.suggest", target=change, summary=f"{person} suggested: {change}")
    return change


def rule_ballot_preparing(*, season: Season, actor: Actor = None) -> Ballot:
    """The season's rule-change ballot being prepared, created when the first suggestion is accepted."""
    ballot = (
        Ballot.objects.select_for_update()
        .filter(season=season, kind=Ballot.Kind.RULE_CHANGES, status=Ballot.Status.PREPARING)
        .first()
    )
    if ballot is None:
        ballot = Ballot.objects.create(
            season=season, kind=Ballot.Kind.RULE_CHANGES, title=f"Rule-change ballot {season}"
        )
        audit_record(actor=actor, action="ballot.create", target=ballot, summary=ballot.title)
    return ballot


@transaction.atomic
def rule_change_accept(
    *,
    change: RuleChange,
    title: str,
    rule_field: str = "",
    value_text: str = "",
    on: dt.date,
    actor: Actor = None,
) -> RuleChange:
    """Put a suggestion on the season's ballot (§3.4.1–3.4.2), naming the rule number it changes, if any."""
    change = RuleChange.objects.select_for_update().select_related("season").get(pk=change.pk)
    if change.status != RuleChange.Status.SUBMITTED:
        raise NcpcError(f"This suggestion is {change.get_status_display().lower()} already.")
    if not title.strip():
        raise NcpcError("Give the wording members will vote on.", field="title")
    new_value = rule_value_clean(field=rule_field, text=value_text) if rule_field else None
    ballot = rule_ballot_preparing(season=change.season, actor=actor)
    change.status = RuleChange.Status.ON_BALLOT
    change.ballot = ballot
    change.title = title.strip()
    change.rule_field = rule_field
    change.new_value = new_value
    change.reviewed_by = actor_user(actor)
    change.reviewed_on = on
    change.save()
    position = (ballot.questions.order_by("-position").values_list("position", flat=True).first() or 0) + 1
    BallotQuestion.objects.create(ballot=ballot, position=position, rule_change=change)
    audit_record(actor=actor, action="rules.accept", target=change, summary=f"On the ballot: {change.title}")
    return change


@transaction.atomic
def rule_change_decline(*, change: RuleChange, reason: str, on: dt.date, actor: Actor = None) -> RuleChange:
    change = RuleChange.objects.select_for_update().get(pk=change.pk)
    if change.status != RuleChange.Status.SUBMITTED:
        raise NcpcError(f"This suggestion is {change.get_status_display().lower()} already.")
    if not reason.strip():
        raise NcpcError("Say why the suggestion does not go on the ballot.", field="reason")
    change.status = RuleChange.Status.DECLINED
    change.decline_reason = reason.strip()
    change.reviewed_by = actor_user(actor)
    change.reviewed_on = on
    change.save()
    audit_record(
        actor=actor,
        action="rules.decline",
        target=change,
        summary=f"Not on the ballot: {change}",
        reason=reason,
    )
    return change


# Opening, voting, closing, publishing ---------------------------------------------------------------------


@transaction.atomic
def ballot_open(*, ballot: Ballot, on: dt.date, actor: Actor = None) -> Ballot:
    """Open the ballot for voting (the President, at the April event). Its questions are fixed from now."""
    ballot = _locked(ballot)
    if ballot.status != Ballot.Status.PREPARING:
        raise NcpcError(
            f"The ballot is {ballot.get_status_display().lower()}: only a ballot being prepared opens."
        )
    questions = list(ballot.questions.prefetch_related("nominations"))
    if ballot.kind == Ballot.Kind.ELECTION:
        election_voting_day_check(season=ballot.season, on=on, what="An election opens")
        empty = [str(q) for q in questions if not q.nominations.all()]
        if empty:
            raise NcpcError(f"Nobody is nominated for: {', '.join(empty)}. Record a nomination first.")
        counts = [BallotCount(question=q, nomination=n) for q in questions for n in q.nominations.all()]
    else:
        if not questions:
            raise NcpcError("The ballot has no rule changes on it yet.")
        counts = [BallotCount(question=q, answer=a) for q in questions for a in (YES, NO)]
    BallotCount.objects.bulk_create(counts)
    ballot.status = Ballot.Status.OPEN
    ballot.opened_on = on
    ballot.save(update_fields=["status", "opened_on"])
    audit_record(actor=actor, action="ballot.open", target=ballot, summary=f"Opened {ballot.title}")
    _ballot_open_mail(ballot=ballot, questions=questions)
    return ballot


def _ballot_open_mail(*, ballot: Ballot, questions: list[BallotQuestion]) -> None:
    """Every member who may vote hears that voting is open (one message each, sent after commit)."""
    voters = (
        Membership.objects.filter(season=ballot.season, left_after_event__isnull=True)
        .exclude(person__email="")
        .select_related("person")
        .order_by("person__last_name", "person__first_name", "pk")
    )
    link = site_link(reverse("members:ballot", kwargs={"pk": ballot.pk}))
    messages = [
        Mail(
            to=m.person.email,
            subject=f"{club_identity().short_name} vote open: {ballot.title}",
            body=render_to_string(
                "members/email/ballot_open.txt",
                {
                    "person": m.person,
                    "ballot": ballot,
                    "questions": questions,
                    "link": link,
                    "club": club_identity(),
                },
            ),
        )
        for m in voters
    ]
    mail_queue(kind=MailDelivery.Kind.BALLOT, messages=messages, reference=f"ballot:{ballot.pk}")


@transaction.atomic
def ballot_vote(
    *, ballot: Ballot, person: Person, choices: Mapping[int, str], on: dt.date, actor: Actor = None
) -> int:
    """A member's votes on some or all questions of an open ballot: one vote per question, ever.

    ``choices`` maps a question id to the option: a nomination id (as text) or "yes" / "no". All or
    nothing: a vote on a question already voted on refuses the whole paper with a clear message.
    Returns how many questions were voted on.
    """
    ballot = _locked(ballot)
    if ballot.status != Ballot.Status.OPEN:
        raise NcpcError("This ballot is not open for voting.")
    if not Membership.objects.filter(
        person=person, season=ballot.season, left_after_event__isnull=True
    ).exists():
        raise NcpcError(f"Only members holding a seat in {ballot.season} vote on this ballot.")
    if ballot.kind == Ballot.Kind.ELECTION:
        election_voting_day_check(season=ballot.season, on=on, what="Members vote for officers")
    if not choices:
        raise NcpcError("Choose at least one answer before casting your vote.")
    questions = {q.pk: q for q in ballot.questions.all()}
    already = set(
        BallotParticipation.objects.filter(question__ballot=ballot, person=person).values_list(
            "question_id", flat=True
        )
    )
    for question_id, option in choices.items():
        question = questions.get(question_id)
        if question is None:
            raise NcpcError("That question is not on this ballot.")
        if question_id in already:
            raise NcpcError(
                f"You have already voted on “{question}”: each member votes once. Nothing was recorded."
            )
        counts = BallotCount.objects.filter(question=question)
        if question.office:
            nomination_id = _row_id(option)
            target = counts.filter(nomination_id=nomination_id) if nomination_id else counts.none()
        else:
            target = counts.filter(answer=option) if option in (YES, NO) else counts.none()
        if target.update(votes=F("votes") + 1) != 1:
            raise NcpcError(f"That is not a choice for “{question}”.")
        BallotParticipation.objects.create(question=question, person=person, voted_on=on)
    audit_record(
        actor=actor,
        action="ballot.vote",
        target=ballot,
        summary=f"{person} voted on {len(choices)} question(s) of {ballot.title}",
    )
    return len(choices)


def _row_id(text: str) -> int | None:
    """A row id posted as text: plain ASCII digits that fit a database integer, else None ("²" is a digit
    to Python but not a number to int())."""
    text = str(text)
    if text.isascii() and text.isdigit() and len(text) <= 18:
        return int(text)
    return None


def _members_eligible(*, ballot: Ballot) -> int:
    """Seats held at the close — but never fewer than the members who voted on one question."""
    most = (
        BallotParticipation.objects.filter(question__ballot=ballot)
        .values("question_id")
        .annotate(n=Count("pk"))
        .order_by("-n")
        .values_list("n", flat=True)
        .first()
    )
    return max(current_member_count(season=ballot.season), most or 0)


def ballot_electorate(*, ballot: Ballot) -> int:
    """The members a ballot's turnout is counted against, on every line of its page: once closed, the members
    when it closed (``members_eligible``, the same number its majority and its result's turnout use), so a
    member leaving afterwards changes neither; while it is open, the same rule on today's seats (seats held
    now, never fewer than the members who voted on one question)."""
    if (
        ballot.status in (Ballot.Status.CLOSED, Ballot.Status.PUBLISHED)
        and ballot.members_eligible is not None
    ):
        return ballot.members_eligible
    return _members_eligible(ballot=ballot)


@transaction.atomic
def ballot_close(*, ballot: Ballot, on: dt.date, actor: Actor = None) -> Ballot:
    """Close the voting and count: elections get their winners (or ties); each rule change gets a recorded
    ``Vote`` whose majority (yes-votes more than half of the members) decides adopted or rejected."""
    ballot = _locked(ballot)
    if ballot.status != Ballot.Status.OPEN:
        raise NcpcError("Only an open ballot can be closed.")
    ballot.members_eligible = _members_eligible(ballot=ballot)
    ballot.status = Ballot.Status.CLOSED
    ballot.closed_on = on
    ballot.save(update_fields=["members_eligible", "status", "closed_on"])
    if ballot.kind == Ballot.Kind.ELECTION:
        election_count(ballot=ballot)
    else:
        for question in ballot.questions.select_related("rule_change"):
            change = question.rule_change
            if change is None:  # every question of a rule-change ballot has its change
                continue
            votes = {c.answer: c.votes for c in question.counts.all()}
            vote = vote_record(
                kind=Vote.Kind.RULE_CHANGE,
                subject=change.title[:200],
                held_on=on,
                yes=votes.get(YES, 0),
                no=votes.get(NO, 0),
                members_eligible=ballot.members_eligible,
                season=ballot.season,
                actor=actor,
            ).record
            change.vote = vote
            change.status = RuleChange.Status.ADOPTED if vote.passed else RuleChange.Status.REJECTED
            change.save(update_fields=["vote", "status"])
    audit_record(
        actor=actor, action="ballot.close", target=ballot, summary=f"Closed and counted {ballot.title}"
    )
    return ballot


@transaction.atomic
def ballot_publish(*, ballot: Ballot, on: dt.date, actor: Actor = None) -> Ballot:
    """Announce the result to all members (§3.4.4). Elected officers get their terms; adopted changes of a
    rule number go to the next season's rules (now if that season exists and has not begun, else later)."""
    ballot = _locked(ballot)
    if ballot.status != Ballot.Status.CLOSED:
        raise NcpcError("Only a closed (counted) ballot can be published.")
    ballot.status = Ballot.Status.PUBLISHED
    ballot.published_on = on
    ballot.save(update_fields=["status", "published_on"])
    if ballot.kind == Ballot.Kind.ELECTION:
        election_terms_grant(ballot=ballot, actor=actor)
    else:
        rule_changes_send_on(ballot=ballot, actor=actor)
    audit_record(actor=actor, action="ballot.publish", target=ballot, summary=f"Published {ballot.title}")
    return ballot

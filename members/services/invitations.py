"""Invitations (SPEC §16.8): officers e-mail members a link to choose the username and password of their
login; the link is valid 7 days and used once, and the person's e-mail is the login's e-mail.

The token is in the link only; the database keeps its SHA-256. A newer invitation to the same person replaces
the older one (resending makes a new link). An invitation is bound to the address it was sent to (SPEC §17.6):
once the person's e-mail is changed, it no longer works, and a new one goes to the new address.

Messages go through the mail queue (``ncpc.core.mail``) as password-reset messages: their body, which holds
the link, is not kept once sent, and the mail page does not send them again (the invitations page does, with a
new link).
"""

import datetime as dt
import enum
import hashlib
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from events.models import Season
from members.models import Invitation, Person
from members.services.logins import login_create
from ncpc.core.audit import Actor, actor_user, audit_record, audit_record_many
from ncpc.core.errors import NcpcError
from ncpc.core.identity import club_identity
from ncpc.core.mail import Mail, email_problem, mail_queue, site_link
from ncpc.core.models import MailDelivery

VALID_FOR = dt.timedelta(days=7)


class InvitationState(enum.StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    EXPIRED = "expired"
    REPLACED = "replaced"
    VOID = "void"  # the person's e-mail changed since it was sent


def invitation_address_kept(*, invitation: Invitation, email: str) -> bool:
    """Pure: whether the person's e-mail is still the address the invitation was sent to (capitals aside)."""
    return invitation.email.strip().lower() == email.strip().lower()


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def invitation_state(
    *, invitation: Invitation, latest: bool, now: dt.datetime, email: str | None = None
) -> InvitationState:
    """Pure: what became of an invitation (``latest``: no newer one was sent to the person; ``email``: the
    person's e-mail now, when known)."""
    if invitation.used_at is not None:
        return InvitationState.ACCEPTED
    if not latest:
        return InvitationState.REPLACED
    if email is not None and not invitation_address_kept(invitation=invitation, email=email):
        return InvitationState.VOID
    if now >= invitation.expires_at:
        return InvitationState.EXPIRED
    return InvitationState.PENDING


@dataclass(frozen=True)
class InvitationRow:
    """A line of the invitations page: a person who holds a seat or an office (or was invited), their login
    if any, and their latest invitation with what became of it."""

    person: Person
    invitation: Invitation | None
    state: InvitationState | None
    problem: str  # why no invitation can be sent ("" when one can)

    @property
    def can_invite(self) -> bool:
        return not self.problem


def _invite_problem(person: Person) -> str:
    if person.user_id is not None:
        return "has a login"
    if not person.email:
        return "no e-mail recorded"
    if email_problem(person.email):
        return "the e-mail recorded is not valid"
    return ""


def invitation_rows(*, season: Season | None, on: dt.date, now: dt.datetime) -> list[InvitationRow]:
    """Everyone the page lists: people holding a seat in ``season`` (not left), holding an office on ``on``,
    or invited once; by name."""
    seated = (
        Q(pk__in=[])
        if season is None
        else Q(memberships__season=season, memberships__left_after_event__isnull=True)
    )
    office = Q(officer_terms__start__lte=on, officer_terms__end__gte=on)
    people = (
        Person.objects.filter(seated | office | Q(invitations__isnull=False))
        .select_related("user")
        .distinct()
        .order_by("last_name", "first_name", "pk")
    )
    latest: dict[int, Invitation] = {}
    for invitation in Invitation.objects.filter(person__in=people).order_by("created_at", "pk"):
        latest[invitation.person_id] = invitation
    rows = []
    for person in people:
        last = latest.get(person.pk)
        state = invitation_state(invitation=last, latest=True, now=now, email=person.email) if last else None
        rows.append(InvitationRow(person, last, state, _invite_problem(person)))
    return rows


@dataclass(frozen=True)
class InvitationsSent:
    sent: list[Invitation]
    skipped: list[str]  # "Name: why"


@transaction.atomic
def invitations_send(
    *, people: Iterable[Person], actor: Actor, now: dt.datetime | None = None
) -> InvitationsSent:
    """A new invitation to each person without a login who has an e-mail (one message each, queued to go
    once the transaction commits); any earlier invitation of theirs stops working. The others are skipped and
    named. Refused when nobody is left to invite."""
    now = now or timezone.now()
    chosen = [p.pk for p in people]
    if not chosen:
        raise NcpcError("Tick the members to invite.")
    locked = list(Person.objects.select_for_update().filter(pk__in=chosen).order_by("last_name", "pk"))
    sender = actor_user(actor)
    signed = _signature(sender)
    sent: list[Invitation] = []
    skipped: list[str] = []
    club = club_identity()
    for person in locked:
        if problem := _invite_problem(person):
            skipped.append(f"{person}: {problem}")
            continue
        token = secrets.token_urlsafe(32)
        invitation = Invitation.objects.create(
            person=person,
            token_hash=token_digest(token),
            email=person.email,
            created_at=now,
            expires_at=now + VALID_FOR,
            sent_by=sender,
        )
        link = site_link(reverse("members:invitation_accept", kwargs={"token": token}))
        body = render_to_string(
            "members/email/invitation.txt",
            {
                "person": person,
                "link": link,
                "expires_at": invitation.expires_at,
                "signed": signed,
                "club": club,
            },
        )
        mail_queue(
            kind=MailDelivery.Kind.PASSWORD_RESET,
            messages=[Mail(to=person.email, subject=f"Your invitation to the {club.name} site", body=body)],
            reference=f"invitation:{invitation.pk}",
        )
        sent.append(invitation)
    if not sent:
        raise NcpcError("Nobody was invited: " + "; ".join(skipped) + ".")
    audit_record_many(
        actor=actor,
        action="member.invite",
        entries=[(i, f"Invited {i.person} to choose a login ({i.email})") for i in sent],
    )
    return InvitationsSent(sent=sent, skipped=skipped)


def _signature(sender: User | None) -> str:
    if sender is None:
        return ""
    return sender.get_full_name() or sender.get_username()


def invitation_problem(*, invitation: Invitation | None, now: dt.datetime) -> str:
    """Why this link cannot be used ("" when it can), as a sentence for the person who opened it."""
    if invitation is None:
        return (
            "This invitation link is not valid. Check that the whole link from the e-mail was opened, or ask an "
            "officer to send a new invitation."
        )
    newer = Invitation.objects.filter(person_id=invitation.person_id).filter(
        Q(created_at__gt=invitation.created_at) | Q(created_at=invitation.created_at, pk__gt=invitation.pk)
    )
    state = invitation_state(
        invitation=invitation, latest=not newer.exists(), now=now, email=invitation.person.email
    )
    if state == InvitationState.ACCEPTED:
        return (
            "This invitation has been used already: log in with the username chosen then. A forgotten password "
            "can be reset from the login page."
        )
    if state == InvitationState.REPLACED:
        return "A newer invitation was sent to you since: use the link in the latest e-mail."
    if state == InvitationState.VOID:
        return (
            "This invitation was sent to an address that is no longer the one recorded for you, so it no longer "
            "works: ask an officer to send a new one."
        )
    if state == InvitationState.EXPIRED:
        return (
            f"This invitation expired on {timezone.localtime(invitation.expires_at):%b %-d, %Y at %-I:%M %p}: "
            "ask an officer to send a new one."
        )
    if invitation.person.user_id is not None:
        return f"{invitation.person} has a login already: log in, or reset the password from the login page."
    return ""


def invitation_for_token(*, token: str) -> Invitation | None:
    return Invitation.objects.select_related("person").filter(token_hash=token_digest(token)).first()


@transaction.atomic
def invitation_accept(*, token: str, username: str, password: str, now: dt.datetime | None = None) -> User:
    """The invited person's login, with the username and password they chose and the person's e-mail. The
    invitation is used up; a second use, an expired or replaced link is refused (NcpcError)."""
    now = now or timezone.now()
    invitation = (
        Invitation.objects.select_for_update()
        .select_related("person")
        .filter(token_hash=token_digest(token))
        .first()
    )
    if invitation is not None:  # its person's e-mail is read under lock: a change waits, or is seen
        invitation.person = Person.objects.select_for_update().get(pk=invitation.person_id)
    problem = invitation_problem(invitation=invitation, now=now)
    if problem or invitation is None:  # invitation_problem names a missing one
        raise NcpcError(problem or "This invitation link is not known.")
    user = login_create(person=invitation.person, username=username, password=password)
    invitation.used_at = now
    invitation.save(update_fields=["used_at"])
    audit_record(
        actor=user,
        action="member.invitation.accept",
        target=invitation,
        summary=f"{invitation.person} accepted the invitation: login '{user.get_username()}'",
    )
    return user


def members_without_login(*, season: Season | None, on: dt.date) -> Sequence[Person]:
    """Everyone an officer may invite now: seated in ``season`` or holding an office on ``on``, with an
    e-mail and no login."""
    return [row.person for row in invitation_rows(season=season, on=on, now=timezone.now()) if row.can_invite]

"""Logins of people (commands): the first officer's (``manage.py start_club``) and a member's own, chosen
from an invitation. A login belongs to one person (``Person.user``), and its e-mail is the person's: one
address, kept in step when the person's e-mail changes (``person_login_email_sync``).

Where a login's mail goes is its owner's (SPEC §17.6): a password reset is sent there, so whoever changes it can
take the login over. Only the person himself or the President changes it, an officer's only the President
(``login_email_problem``), and the old address is told (``login_email_changed_tell``)."""

import datetime as dt

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import ASCIIUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string

from members.models import OfficerTerm, Person
from members.services.officers import default_term, officer_term_create
from ncpc.core.audit import Actor, actor_user, audit_record
from ncpc.core.errors import NcpcError
from ncpc.core.identity import club_identity
from ncpc.core.mail import Mail, email_problem, mail_queue
from ncpc.core.models import MailDelivery

# ASCII only (SPEC §17.6): "rіck" with a Cyrillic і would pass for "rick" on a page or in an e-mail.
_ASCII_USERNAME = ASCIIUsernameValidator()


def username_problem(username: str, *, exclude_pk: int | None = None) -> str:
    """Why ``username`` cannot be a login's name ("" when it can): unaccented letters, digits and @/./+/-/_
    (Django's ASCIIUsernameValidator), at most 150 characters, and not another login's, whatever its capitals.
    ``exclude_pk``: the login being renamed."""
    model = get_user_model()
    if not username:
        return "Choose a username."
    limit = model._meta.get_field("username").max_length or 150
    if len(username) > limit:
        return f"A username has at most {limit} characters."
    try:
        _ASCII_USERNAME(username)
    except ValidationError:
        return "A username may hold unaccented letters, digits and @ . + - _ only (no spaces)."
    others = model.objects.filter(username__iexact=username)
    if exclude_pk is not None:
        others = others.exclude(pk=exclude_pk)
    if others.exists():
        return f"The username '{username}' is taken; choose another."
    return ""


def password_problems(*, password: str, username: str, person: Person) -> list[str]:
    """The site's password rules (``AUTH_PASSWORD_VALIDATORS``), checked against the login to be made."""
    candidate = User(
        username=username, email=person.email, first_name=person.first_name, last_name=person.last_name
    )
    try:
        validate_password(password, user=candidate)
    except ValidationError as exc:
        return list(exc.messages)
    return []


@transaction.atomic
def login_create(*, person: Person, username: str, password: str, actor: Actor = None) -> User:
    """A login for ``person``, whose e-mail is the person's. Refused when the person has one already, the
    username is taken or not allowed, or the password breaks the site's rules (NcpcError, with ``field``)."""
    person = Person.objects.select_for_update().get(pk=person.pk)
    if person.user_id is not None:
        raise NcpcError(f"{person} has a login already: log in, or reset the password from the login page.")
    username = username.strip()
    if problem := username_problem(username):
        raise NcpcError(problem, field="username")
    if problems := password_problems(password=password, username=username, person=person):
        raise NcpcError(" ".join(problems), field="password")
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(
                username=username,
                email=person.email,
                password=password,
                first_name=person.first_name,
                last_name=person.last_name,
            )
    except IntegrityError as exc:  # the same name chosen in another tab a moment ago
        raise NcpcError(f"The username '{username}' is taken; choose another.", field="username") from exc
    person.user = user
    person.save(update_fields=["user"])
    audit_record(
        actor=actor if actor is not None else user,
        action="member.login.create",
        target=person,
        summary=f"Login '{username}' created for {person}",
    )
    return user


def person_login_email_sync(*, person: Person) -> int:
    """The person's login takes the person's e-mail (one address: the person's is the one officers edit).
    Returns how many logins changed (0 or 1)."""
    if person.user_id is None:
        return 0
    return (
        get_user_model()
        .objects.filter(pk=person.user_id)
        .exclude(email=person.email)
        .update(email=person.email)
    )


def login_email_problem(*, person: Person, actor: Actor, on: dt.date) -> str:
    """Why ``actor`` may not change the e-mail of ``person`` ("" when they may), SPEC §17.6: the e-mail of a
    login is changed by the person himself or the President; an officer's (an office held on ``on`` or
    later) by the President alone, whether or not the officer has a login yet (an invitation would make one at
    that address). A person without a login and without an office: anyone who edits people. ``actor`` None is
    the system (a command run on the server); a superuser may do anything the President may."""
    officer = OfficerTerm.objects.filter(person=person, end__gte=on).exists()
    if person.user_id is None and not officer:
        return ""
    if actor is None:
        return ""
    user = actor_user(actor)
    if user is not None and user.is_superuser:
        return ""
    president = president_now(on=on)
    actor_person_pk = Person.objects.filter(user=user).values_list("pk", flat=True).first() if user else None
    if president is not None and actor_person_pk == president.person_id:
        return ""
    if officer:
        return (
            f"{person} is an officer: only the President changes an officer's e-mail (a password reset is sent "
            "there)."
        )
    if actor_person_pk == person.pk:
        return ""
    return (
        f"Only {person} or the President changes the e-mail of {person}'s login (a password reset is sent "
        "there)."
    )


def login_email_changed_tell(*, person: Person, old: str, new: str, actor: Actor) -> list[MailDelivery]:
    """Tell the old address that the login's e-mail changed (through the mail queue, after the commit), so that
    an owner whose address was changed by someone else hears of it there. Nothing when there was none."""
    if person.user_id is None or not old or old.lower() == new.lower():
        return []
    user = get_user_model().objects.filter(pk=person.user_id).first()
    by = actor_user(actor)
    club = club_identity()
    body = render_to_string(
        "members/email/login_email_changed.txt",
        {
            "person": person,
            "username": user.get_username() if user else "",
            "old": old,
            "new": new or "(none)",
            "by": (by.get_full_name() or by.get_username()) if by is not None else "",
            "yourself": by is not None and by.pk == person.user_id,
            "club": club,
        },
    )
    return mail_queue(
        kind=MailDelivery.Kind.LOGIN_EMAIL,
        messages=[Mail(to=old, subject=f"The e-mail of your {club.short_name} login was changed", body=body)],
        reference=f"person:{person.pk}",
    )


def president_now(*, on: dt.date) -> OfficerTerm | None:
    """The President's term holding on ``on``, if any."""
    return (
        OfficerTerm.objects.filter(office=OfficerTerm.Office.PRESIDENT, start__lte=on, end__gte=on)
        .select_related("person")
        .first()
    )


def officer_year_end(*, on: dt.date) -> dt.date:
    """The last day of the officer year holding ``on`` (terms run 1 Jun – 31 May, SPEC §3)."""
    return default_term(start_year=on.year if on.month >= 6 else on.year - 1)[1]


@transaction.atomic
def first_officer_create(
    *,
    username: str,
    password: str,
    email: str,
    first_name: str,
    last_name: str,
    key: str,
    on: dt.date,
) -> tuple[Person, User, OfficerTerm]:
    """The club's first login (``manage.py start_club``): a person, their login and a President's term from
    ``on`` to the end of that officer year. Refused while someone is President on ``on`` (the President
    changes officers' terms in the app); a person with this key and no login is used rather than doubled."""
    if (term := president_now(on=on)) is not None:
        raise NcpcError(
            f"{term.person} is President until {term.end:%b %-d, %Y}: officers' terms are changed in the app "
            "(Officers → Officers' terms). Nothing was created."
        )
    email = email.strip()
    if not email or email_problem(email):
        raise NcpcError(f"{email!r} is not a valid e-mail address.", field="email")
    if not first_name.strip() or not last_name.strip():
        raise NcpcError("Give the officer's first and last name.", field="first_name")
    person = Person.objects.filter(key=key).first()
    if person is None:
        person = Person.objects.create(
            key=key, first_name=first_name.strip(), last_name=last_name.strip(), email=email
        )
        audit_record(actor=None, action="member.person.create", target=person, summary=f"Recorded {person}")
    elif person.email and person.email.lower() != email.lower():
        raise NcpcError(
            f"{person} (key '{key}') is recorded with the e-mail {person.email}; give that one, or another key.",
            field="email",
        )
    elif not person.email:
        person.email = email
        person.save(update_fields=["email"])
    user = login_create(person=person, username=username, password=password)
    term = officer_term_create(
        person=person, office=OfficerTerm.Office.PRESIDENT, start=on, end=officer_year_end(on=on), actor=user
    )
    return person, user, term

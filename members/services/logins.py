"""Logins of people (commands): the first officer's (``manage.py start_club``) and a member's own, chosen
from an invitation. A login belongs to one person (``Person.user``), and its e-mail is the person's: one
address, kept in step when the person's e-mail changes (``person_login_email_sync``)."""

import datetime as dt

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from members.models import OfficerTerm, Person
from members.services.officers import default_term, officer_term_create
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import NcpcError
from ncpc.core.mail import email_problem


def username_problem(username: str) -> str:
    """Why ``username`` cannot be a new login's name ("" when it can): Django's own rules (letters, digits and
    @/./+/-/_, at most 150 characters) and not taken, whatever its capitals."""
    model = get_user_model()
    if not username:
        return "Choose a username."
    limit = model._meta.get_field("username").max_length or 150
    if len(username) > limit:
        return f"A username has at most {limit} characters."
    try:
        User.username_validator(username)
    except ValidationError:
        return "A username may hold letters, digits and @ . + - _ only (no spaces)."
    if model.objects.filter(username__iexact=username).exists():
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

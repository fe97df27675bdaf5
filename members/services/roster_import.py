"""The club's existing roster from a spreadsheet: people and their seats in one season, written in a few
statements in one transaction (thousands of rows in seconds). Same records as ``person_create`` and
``membership_from_history(signed=False)``: no admission vote, no rules signature (the Vice President records
each signature).

The bylaws' age rule (§2.1) is met by a date of birth, or, for members who already belong to the club, by the
club's declaration that the member is of the season's minimum age: a declared line has no date of birth, and
the declaration is kept in the audit trail of the member's seat (``member.import``, ``data["age"]``)."""

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction

from events.models import Event, Season
from events.selectors import season_rules
from members.models import Membership, Person
from members.services.logins import login_email_problem, person_login_email_sync
from members.services.roster import seats_carry_over_day
from ncpc.core.audit import Actor, audit_record, audit_record_many
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError

BATCH = 1000


@dataclass(frozen=True)
class RosterLine:
    key: str
    first_name: str
    last_name: str
    date_of_birth: dt.date | None  # None: the club declares the member of age (``age_declared``)
    first_event: int
    email: str = ""
    phone: str = ""
    address: str = ""
    sponsor: str = ""  # the sponsor's key: a person on record already, or one of these lines
    age_declared: bool = False  # the club declares the member of the season's minimum age (bylaws §2.1)


@transaction.atomic
def roster_import(
    *, season: Season, lines: Sequence[RosterLine], actor: Actor, source: str
) -> list[Membership]:
    """A seat in ``season`` for each line; the person is created when the key is new, otherwise the blanks of
    the existing person (e-mail, date of birth, last name) are filled in, as a season file import does. A
    line's sponsor is recorded on the seat (SPEC §16.10).

    The seats take effect on the season's first day, or, when that day is in or before a closed month, on the
    first day of the first open month (SPEC §17.2), as when seats carry over (``seats_carry_over_day``). A line
    whose ``first_event`` is later (a member who joined during the season) takes effect on that event's date,
    as a season file's seat does, or on that first open day when it is later: the months before the member
    joined do not list the seat in their reports."""
    keys = [line.key for line in lines]
    if len(set(keys)) != len(keys):
        raise NcpcError("A member key is listed twice; nothing was imported.")
    minimum_age = season_rules(season).minimum_age
    unproven = sorted(line.key for line in lines if line.date_of_birth is None and not line.age_declared)
    if unproven:
        raise NcpcError(
            f"No date of birth and no declaration that the member is {minimum_age} or over (bylaws §2.1): "
            f"{', '.join(unproven)}; nothing was imported."
        )
    seated = set(
        Membership.objects.filter(season=season, person__key__in=keys).values_list("person__key", flat=True)
    )
    if seated:
        raise NcpcError(
            f"Already holding a seat in {season}: {', '.join(sorted(seated))}; nothing was imported."
        )
    seats_on = seats_carry_over_day(season=season)  # before anything is written
    event_dates = dict(Event.objects.filter(season=season).values_list("number", "date"))
    existing = {p.key: p for p in Person.objects.filter(key__in=keys)}
    _blanks_fill(people=existing, lines=lines, actor=actor)
    created = _people_create(lines=[line for line in lines if line.key not in existing])
    people = existing | {p.key: p for p in created}
    sponsor_keys = {line.sponsor for line in lines if line.sponsor} - people.keys()
    sponsors = people | {p.key: p for p in Person.objects.filter(key__in=sponsor_keys)}
    unknown = sorted({line.sponsor for line in lines if line.sponsor} - sponsors.keys())
    if unknown:
        raise NcpcError(
            f"No one on record has the key {', '.join(unknown)} (a sponsor); nothing was imported."
        )
    memberships = Membership.objects.bulk_create(
        [
            Membership(
                person=people[line.key],
                season=season,
                first_event=line.first_event,
                joined_on=_seat_day(line=line, seats_on=seats_on, event_dates=event_dates),
                declared_not_professional=True,
                sponsor=sponsors[line.sponsor] if line.sponsor else None,
            )
            for line in lines
        ],
        batch_size=BATCH,
    )
    audit_record_many(
        actor=actor,
        action="member.person.create",
        entries=[(person, f"Recorded {person}") for person in created],
        data={"source": source},
    )
    declared = [m for m, line in zip(memberships, lines, strict=True) if line.date_of_birth is None]
    dated = [m for m, line in zip(memberships, lines, strict=True) if line.date_of_birth is not None]
    audit_record_many(
        actor=actor,
        action="member.import",
        entries=[(m, f"Imported {m.person} into {season} from event {m.first_event}") for m in dated],
        data={"source": source, "age": "date of birth"},
    )
    audit_record_many(
        actor=actor,
        action="member.import",
        entries=[
            (
                m,
                f"Imported {m.person} into {season} from event {m.first_event}; the club declares "
                f"{m.person.first_name} {minimum_age} or over (bylaws §2.1), no date of birth given",
            )
            for m in declared
        ],
        data={"source": source, "age": f"declared {minimum_age} or over by the club"},
    )
    audit_record(
        actor=actor,
        action="member.roster_import",
        summary=f"Imported {len(memberships)} seats in {season} ({len(created)} new people) from {source}"
        + (f"; {len(declared)} declared {minimum_age} or over by the club" if declared else ""),
        data={"seats": len(memberships), "new_people": len(created), "age_declared": len(declared)},
    )
    return memberships


def _seat_day(*, line: RosterLine, seats_on: dt.date, event_dates: dict[int, dt.date]) -> dt.date:
    """The day a line's seat takes effect: its first event's date when that is not event 1 (the season's events
    as scheduled; the seats' day when the event is not scheduled), never before the seats' day ``seats_on``."""
    if line.first_event <= 1:
        return seats_on
    return max(seats_on, event_dates.get(line.first_event, seats_on))


def _blanks_fill(*, people: dict[str, Person], lines: Sequence[RosterLine], actor: Actor) -> None:
    """The blanks of the people on record (e-mail, date of birth, last name) filled in from their lines."""
    filled = []
    for line in lines:
        person = people.get(line.key)
        if person is None:
            continue
        changed = False
        # A blank e-mail is filled in only where this officer could type it on the person's page (SPEC §17.6).
        email = line.email
        if email and not person.email and login_email_problem(person=person, actor=actor, on=club_today()):
            email = ""
        for field, value in (
            ("email", email),
            ("date_of_birth", line.date_of_birth),
            ("last_name", line.last_name),
        ):
            if value and not getattr(person, field):
                setattr(person, field, value)
                changed = True
        if changed:
            filled.append(person)
    Person.objects.bulk_update(filled, ["email", "date_of_birth", "last_name"], batch_size=BATCH)
    for person in filled:  # bulk_update sends no signal: the logins' e-mail follows here
        person_login_email_sync(person=person)


def _people_create(*, lines: Sequence[RosterLine]) -> list[Person]:
    """A person for each line whose key is new."""
    return Person.objects.bulk_create(
        [
            Person(
                key=line.key,
                first_name=line.first_name,
                last_name=line.last_name,
                email=line.email,
                phone=line.phone,
                address=line.address,
                date_of_birth=line.date_of_birth,
            )
            for line in lines
        ],
        batch_size=BATCH,
    )

"""`import_season`: write a season file (SPEC §13) through each app's services, all or nothing."""

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from events.bylaws import BYLAWS_RULES
from events.models import Event, Season, Venue
from events.rules import SeasonRules
from events.selectors import season_rules
from events.services.history import HistoryResult, event_history_write
from events.services.purge import events_results_purge, events_season_delete
from events.services.rules_edit import SETTINGS_FIELDS, season_rules_save
from events.services.seasons import season_create
from finance.selectors import dues as finance_dues
from finance.services.escrow import wsop_result_record
from finance.services.payments import payment_record
from finance.services.purge import finance_season_purge
from members.models import Membership
from members.services.history import membership_from_history, person_from_history
from members.services.purge import members_season_purge
from members.services.seat_terms import seat_left_on
from ncpc.club.services.season_file import SeasonFile, SeasonFileError, season_file_read
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import NcpcError
from standings.models import TieBreak
from standings.selectors import season_standings
from standings.services.purge import standings_season_purge
from standings.services.tie_breaks import tie_break_record, wsop_decline_record

IMPORT_USERNAME = "ncpc-import"


def import_user() -> AbstractBaseUser:
    """The login that imports are recorded under: inactive, no password, named in the audit trail."""
    User = get_user_model()
    user, created = User.objects.get_or_create(
        username=IMPORT_USERNAME, defaults={"is_active": False, "first_name": "Season", "last_name": "import"}
    )
    if created:
        user.set_unusable_password()
        user.save()
    return user


def _rules_for(*, name: str, start: dt.date | None) -> tuple[SeasonRules, Season | None]:
    existing = Season.objects.filter(name=name).first()
    if existing is not None:
        return season_rules(existing), existing  # read before the season is replaced
    previous = Season.objects.filter(start__lt=start).order_by("-start").first() if start else None
    return (season_rules(previous) if previous else BYLAWS_RULES), None


def season_purge(*, season: Season) -> None:
    try:
        with transaction.atomic():
            standings_season_purge(season=season)
            finance_season_purge(season=season)
            events_results_purge(season=season)
            members_season_purge(season=season)
            events_season_delete(season=season)
    except (ProtectedError, IntegrityError) as exc:
        raise NcpcError(
            f"Season {season} holds records the season file does not carry (ballots, rulings, checks, …); "
            f"it cannot be replaced from a file. ({exc.__class__.__name__})"
        ) from None


@transaction.atomic
def season_import(*, data: Any, replace: bool = False, actor: Actor = None) -> Season:
    """Check the whole file, then write it; any problem raises SeasonFileError/NcpcError and writes nothing."""
    actor = actor or import_user()
    season_block = data.get("season") if isinstance(data, dict) else None
    name = season_block.get("name") if isinstance(season_block, dict) else None
    start_text = season_block.get("start") if isinstance(season_block, dict) else None
    try:
        start = dt.date.fromisoformat(start_text) if isinstance(start_text, str) else None
    except ValueError:
        start = None
    rules, existing = _rules_for(name=name or "", start=start)
    parsed = season_file_read(data=data, rules=rules)
    if existing is not None:
        if not replace:
            raise SeasonFileError(
                [f"season.name: season {parsed.name} exists already (use --replace to overwrite it)"]
            )
        season_purge(season=existing)
    # The file's own rules when it carries them (SPEC §16.9), else those the season would get anyway.
    season = season_create(start_year=parsed.start.year, actor=actor, rules=parsed.rules or rules)
    # What the rules page sets besides the rules goes the same way: the file's, else the replaced season's.
    settings = {name: getattr(existing, name) for name in SETTINGS_FIELDS} if existing is not None else {}
    settings.update(parsed.settings)
    changes = {name: value for name, value in settings.items() if getattr(season, name) != value}
    if changes:
        season_rules_save(season=season, changes=changes, actor=actor)
    _write(season=season, parsed=parsed, actor=actor)
    audit_record(
        actor=actor,
        action="season.import",
        target=season,
        summary=f"Imported season {season} from a season file"
        + (" (replacing the season that was there)" if existing is not None else ""),
    )
    return season


def _write(*, season: Season, parsed: SeasonFile, actor: Actor) -> None:
    venues = {}
    for name, address in parsed.venues:
        venue, _created = Venue.objects.get_or_create(name=name, defaults={"address": address})
        venues[name] = venue

    events = {e.number: e for e in Event.objects.filter(season=season)}
    dates = {number: event.date for number, event in events.items()}
    dates.update({row.number: row.date for row in parsed.events})
    memberships = _memberships_write(season=season, parsed=parsed, dates=dates, actor=actor)
    for p in parsed.payments:
        payment_record(
            membership=memberships[p.member],
            date=p.date,
            amount=p.amount,
            method=p.method,
            reference=p.reference,
            actor=actor,
            restoring=True,
        )

    _places_in_good_standing_check(parsed=parsed, memberships=memberships)
    for row in parsed.events:
        event_history_write(
            event=events[row.number],
            date=row.date,
            venue=venues.get(row.venue) if row.venue else None,
            results=[
                HistoryResult(
                    membership=memberships[r.member],
                    place=r.place,
                    status=r.status,
                    substitute_name=r.substitute,
                    prize_to=r.prize_to,
                    removed_for_abuse=r.removed_for_abuse,
                )
                for r in row.results
            ],
            actor=actor,
        )

    _standings_records_write(season=season, parsed=parsed, memberships=memberships, actor=actor)


def _memberships_write(
    *, season: Season, parsed: SeasonFile, dates: dict[int, dt.date], actor: Actor
) -> dict[str, Membership]:
    """The file's people (found by key, or made) and their seats in ``season``, by key."""
    people = {
        m.key: person_from_history(
            key=m.key,
            first_name=m.first_name,
            last_name=m.last_name,
            email=m.email,
            date_of_birth=m.date_of_birth,
            actor=actor,
        )
        for m in parsed.members
    }
    memberships = {}
    for m in parsed.members:
        joined = dates.get(m.first_event, season.start) if m.first_event > 1 else season.start
        memberships[m.key] = membership_from_history(
            person=people[m.key],
            season=season,
            first_event=m.first_event,
            left_after_event=m.left_after_event,
            joined_on=min(joined, season.end),
            # The file has no day of leaving: the day after the last event the seat was held at (SPEC §16.2).
            left_on=seat_left_on(
                left_on=None,
                left_after_event=m.left_after_event,
                event_dates=dates,
                season_start=season.start,
            ),
            sponsor=people.get(m.sponsor) if m.sponsor else None,
            actor=actor,
        )
    return memberships


def _places_in_good_standing_check(*, parsed: SeasonFile, memberships: dict[str, Membership]) -> None:
    """Every member with a place was in good standing on the event's day (SeasonFileError naming each one)."""
    problems = []
    for i, row in enumerate(parsed.events):
        # Rows keep the file's order: the index in the file, for messages.
        for j, result in enumerate(row.results):
            if result.place is None:
                continue
            if not finance_dues.good_standing(membership=memberships[result.member], on=row.date):
                problems.append(
                    f"events[{i}].results[{j}]: {result.member!r} has a place but was not in good standing "
                    f"on {row.date} (dues unpaid or suspended)"
                )
    if problems:
        raise SeasonFileError(problems)


def _standings_records_write(
    *, season: Season, parsed: SeasonFile, memberships: dict[str, Membership], actor: Actor
) -> None:
    """The tie-breaks, the WSOP declines (in rank order) and the WSOP results, each refusal a SeasonFileError."""
    for i, t in enumerate(parsed.tie_breaks):
        try:
            tie_break_record(
                season=season,
                order=[memberships[k] for k in t.order],
                how=_how(t.how),
                note=t.how,
                actor=actor,
            )
        except NcpcError as exc:
            raise SeasonFileError([f"tie_breaks[{i}]: {exc}"]) from None
    # SPEC §15.3: declines are applied in rank order (a replacement who declines in turn comes after the
    # qualifier they replaced, whatever the file's order).
    rank = {row.membership.person.key: n for n, row in enumerate(season_standings(season=season).rows)}
    declines = sorted(enumerate(parsed.wsop_declined), key=lambda pair: rank.get(pair[1], len(rank)))
    for i, key in declines:
        try:
            wsop_decline_record(season=season, membership=memberships[key], actor=actor)
        except NcpcError as exc:
            raise SeasonFileError([f"wsop_declined[{i}]: {exc}"]) from None

    replaced = _replaced_qualifiers(season=season)
    for i, w in enumerate(parsed.wsop_results):
        rep = memberships[w.member]
        try:
            wsop_result_record(
                season=season,
                representative=rep,
                gross=w.gross,
                tips=w.tips,
                declined=replaced.get(rep.pk),
                actor=actor,
            )
        except NcpcError as exc:
            raise SeasonFileError([f"wsop_results[{i}]: {exc}"]) from None


def _how(text: str) -> str:
    lowered = (text or "").lower()
    if "agree" in lowered:
        return TieBreak.How.AGREEMENT
    return TieBreak.How.PLAYOFF


def _replaced_qualifiers(*, season: Season) -> dict[int, Any]:
    """Replacement representative → the qualifier who declined (paired in rank order, §8.4)."""
    rows = season_standings(season=season).rows
    declined = [r.membership for r in rows if r.wsop == "declined"]
    replacements = [r.membership for r in rows if r.wsop == "replacement"]
    return {rep.pk: dec for rep, dec in zip(replacements, declined, strict=False)}

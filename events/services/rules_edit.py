"""Saving officers' changes to a season's rules (command), and what the rules page reads before a save: the
tables new dues imply, the events a saved schedule would move."""

import datetime as dt
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from events import hooks
from events.models import Event, Night, Season
from events.rules import SeasonRules
from events.selectors import season_rules
from events.services.rules_check import RuleProblem, rules_problems_named
from events.services.rules_scale import DUES_RULES, tables_for_new_dues
from events.services.schedule import schedule_dates
from events.services.seasons import (
    RULE_TABLE_MODELS,
    EventReschedule,
    events_reschedule_plan,
    rules_tables_write,
)
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import NcpcError, RulesError

# What the rules page edits besides the rules themselves.
SETTINGS_FIELDS = ("results_email",)

# How each table is kept in order (the blind structure keeps the order it is given in: play order).
_TABLE_ORDER = {
    "dues_schedule": lambda row: row[0],
    "payout_table": lambda row: row.member_count,
    "wsop_table": lambda row: (row.min_members, row.max_members),
}
# What may appear only once in a table.
_TABLE_KEY = {
    "dues_schedule": ("a dues installment for event", lambda row: row[0]),
    "payout_table": ("a payout row for", lambda row: row.member_count),
}


def _table_rows(name: str, rows: Sequence[Any]) -> tuple[Any, ...]:
    rows = tuple(rows)
    if name in _TABLE_ORDER:
        rows = tuple(sorted(rows, key=_TABLE_ORDER[name]))
    if name in _TABLE_KEY:
        what, key = _TABLE_KEY[name]
        twice = sorted(k for k, n in Counter(key(row) for row in rows).items() if n > 1)
        if twice:
            raise RulesError(f"The {Season.rule_label(name)} table has {what} {twice[0]} twice.")
    return rows


def season_values_check(*, season: Season, names: Sequence[str]) -> None:
    """Run the ``Season`` fields' own checks (their types, minimums and validators, e.g. a check approved by
    at least three officers) on the values just set on ``season`` for the rules ``names``; the form shows the
    same per field, but the command refuses too. Raises RulesError naming the first rule that fails (its value
    is left converted, e.g. ``"4"`` → ``4``, when it passes)."""
    if not names:
        return
    others = [f.name for f in Season._meta.get_fields() if f.name not in names]
    try:
        season.clean_fields(exclude=others)
    except ValidationError as exc:
        errors = exc.message_dict
        name = next((n for n in names if n in errors), next(iter(errors)))
        raise RulesError(f"{Season.rule_label(name)}: {' '.join(errors[name])}", field=name) from None


def season_rules_problems(
    *, rules: SeasonRules, settings: Mapping[str, Any] | None = None, seats_held: int = 0
) -> list[RuleProblem]:
    """Every problem ``season_rules_save`` would refuse in a whole set of rules, with no season to save them to
    (a season file's rules, SPEC §16.9): each rule's own checks (its ``Season`` field's type, range and
    validators, as ``season_values_check``), a table listing the same row twice, and ``rules_problems_named``.
    ``settings``: what the rules page edits besides the rules (``SETTINGS_FIELDS``). Writes nothing."""
    values: dict[str, Any] = {name: getattr(rules, name) for name in SeasonRules.SCALAR_FIELDS}
    values["schedule"] = [list(pair) for pair in rules.schedule]
    values["points_table"] = list(rules.points_table)
    values.update({name: value for name, value in (settings or {}).items() if name in SETTINGS_FIELDS})
    problems: list[RuleProblem] = []
    try:
        Season(**values).clean_fields(
            exclude=[f.name for f in Season._meta.get_fields() if f.name not in values]
        )
    except ValidationError as exc:
        problems += [
            RuleProblem(name, f"{Season.rule_label(name)}: {' '.join(messages)}")
            for name, messages in exc.message_dict.items()
        ]
    for name in SeasonRules.TABLE_FIELDS:
        try:
            _table_rows(name, getattr(rules, name))
        except RulesError as exc:
            problems.append(RuleProblem(name, str(exc)))
    return problems + rules_problems_named(rules=rules, seats_held=seats_held)


# SPEC §15.10: what stays editable once an event of the season is final. The blind structure (the clock's
# levels and breaks) may change between nights, never while one is under way; ``results_email`` is a setting,
# not a rule; nor is when members are reminded to say whether they come (``rsvp_reminder_days``). The
# schedule's months and days may change too: officers move events anyway (§4.4.1), and a new schedule moves
# only the events not yet played, after a confirmation (``events.services.seasons.events_reschedule``); the
# number of events stays frozen.
EDITABLE_UNDER_WAY = (
    "blind_structure",
    "rsvp_reminder_days",
    "schedule",
    "schedule_weekday",
    *SETTINGS_FIELDS,
)


def season_frozen_by(*, season: Season) -> Event | None:
    """The first event of the season whose results are final (or reopened for a correction): from then on
    its rules are frozen (SPEC §15.10). None while the season has not begun."""
    return next((e for e in Event.objects.filter(season=season).order_by("number") if e.counts), None)


def night_under_way(*, season: Season) -> Event | None:
    """An event of the season whose clock has started and whose results are not final yet."""
    night = (
        Night.objects.filter(event__season=season, started_at__isnull=False)
        .exclude(event__status=Event.Status.FINAL)
        .select_related("event")
        .order_by("event__number")
        .first()
    )
    return night.event if night is not None else None


def rules_dues_key(*, values: Mapping[str, Any]) -> str:
    """The dues rules' values the tables were last proposed for (the rules form keeps it in a hidden field)."""
    return "|".join(str(values.get(name, "")) for name in DUES_RULES)


def rules_tables_proposed(
    *,
    season: Season,
    current: SeasonRules,
    changes: Mapping[str, Any],
    typed: Mapping[str, tuple[Any, ...]],
    seen_for: str | None,
) -> dict[str, tuple[Any, ...]]:
    """The payout table and dues schedule new dues imply (issue 47), when the officer changed the dues but
    left those tables as they were and has not seen them proposed for these dues yet. ``current``: the
    season's saved rules; ``changes``: the scalar rules as typed; ``typed``: each table's rows as typed;
    ``seen_for``: the ``rules_dues_key`` the tables were last proposed for. Reads only."""
    if seen_for == rules_dues_key(values=changes) or season_frozen_by(season=season):
        return {}  # seen already, or the dues cannot change (the season is under way)
    proposed = tables_for_new_dues(old=current, changes=changes)
    return {
        table: rows for table, rows in proposed.items() if typed.get(table) == tuple(getattr(current, table))
    }


def reschedule_moves_waiting(
    *, season: Season, today: dt.date, reread: bool = False
) -> list[EventReschedule]:
    """The events not yet played that the saved schedule rule would move (none when it has no date for some
    month). ``reread``: ``season`` holds what a form sent, not saved: the saved rule is read again. Reads only."""
    if reread:
        season = Season.objects.get(pk=season.pk)
    try:
        plan = events_reschedule_plan(season=season, today=today)
    except NcpcError:
        return []
    return [m for m in plan if not m.stays]


@transaction.atomic
def season_rules_save(
    *,
    season: Season,
    changes: Mapping[str, Any],
    tables: Mapping[str, Sequence] | None = None,
    actor: Actor,
    reason: str = "",
) -> list[str]:
    """Save new values of a season's rules; refuse rules that do not hold together.

    ``changes``: scalar rules (``SeasonRules.SCALAR_FIELDS``, and ``results_email``) and their new values;
    ``tables``: rule tables (``SeasonRules.TABLE_FIELDS``) and all their rows, as ``SeasonRules`` holds them
    (``(event number, amount)`` pairs, ``PayoutRowData``, ``WsopRowData``, ``BlindLevelData``). Only what differs
    from the season's rules is written. Returns the names of what changed. Raises RulesError (and writes
    nothing) when the saved rules fail ``rules_problems``, when a rule changes without a reason, or when the
    season is under way (SPEC §15.10: once an event is final only the blind structure may change, and not
    while a night is under way; other changes go to the next season).
    """
    tables = tables or {}
    _unknown_rules_check(changes=changes, tables=tables)
    locked = Season.objects.select_for_update().get(pk=season.pk)
    current = season_rules(locked)
    changed = [name for name, value in changes.items() if getattr(locked, name) != value]
    new_tables = {name: _table_rows(name, rows) for name, rows in tables.items()}
    changed_tables = [name for name, rows in new_tables.items() if rows != tuple(getattr(current, name))]
    rules_changed = [name for name in (*changed, *changed_tables) if name not in SETTINGS_FIELDS]
    reason = reason.strip()
    _rules_change_allowed_check(
        season=locked, rules_changed=rules_changed, changed_tables=changed_tables, reason=reason
    )
    before = {name: str(getattr(locked, name)) for name in changed}
    for name in changed:
        setattr(locked, name, changes[name])
    season_values_check(season=locked, names=changed)
    if {"schedule", "schedule_weekday"} & set(changed):
        _schedule_dates_check(season=locked)
    if changed:
        locked.save(update_fields=changed)
    for name in changed_tables:
        RULE_TABLE_MODELS[name].objects.filter(season=locked).delete()
    # The table names were checked against SeasonRules.TABLE_FIELDS above.
    new_rules = replace(current, **new_tables)  # type: ignore[arg-type]
    rules_tables_write(season=locked, rules=new_rules, tables=changed_tables)
    changed += changed_tables
    _saved_rules_check(season=locked, changed=changed)
    if changed:
        audit_record(
            actor=actor,
            action="season.rules",
            target=locked,
            summary=f"Changed the rules of {locked}: {', '.join(changed)}",
            reason=reason,
            data={
                "changed": changed,
                "before": before,
                "after": {name: str(changes[name]) for name in before},
            },
        )
    return changed


def _schedule_dates_check(*, season: Season) -> None:
    """Refuse a schedule rule that gives some month of the season no date (a 5th Saturday in a month of four)."""
    try:
        schedule_dates(season_start=season.start, schedule=season.schedule, weekday=season.schedule_weekday)
    except ValueError as exc:
        raise RulesError(f"{Season.rule_label('schedule')}: {exc}.", field="schedule") from None


def _unknown_rules_check(*, changes: Mapping[str, Any], tables: Mapping[str, Sequence]) -> None:
    """Refuse a change to something that is not a season rule."""
    unknown = sorted(
        ({*changes} - {*SeasonRules.SCALAR_FIELDS, *SETTINGS_FIELDS})
        | ({*tables} - {*SeasonRules.TABLE_FIELDS})
    )
    if unknown:
        raise RulesError(f"'{unknown[0]}' is not a season rule.")


def _rules_change_allowed_check(
    *, season: Season, rules_changed: Sequence[str], changed_tables: Sequence[str], reason: str
) -> None:
    """Refuse a change without a reason, one to a season under way (§15.10) or to the blinds during a night."""
    if rules_changed and not reason:
        raise RulesError(
            "Say why the rules change (the club's vote that changed them): the reason is kept in the audit trail."
        )
    frozen = [name for name in rules_changed if name not in EDITABLE_UNDER_WAY]
    if frozen and (final := season_frozen_by(season=season)) is not None:
        names = ", ".join(Season.rule_label(name) for name in frozen)
        raise RulesError(
            f"The rules of {season} are frozen: the results of event {final.number} are final, so the season is "
            f"under way. Not changed: {names}. A change the club votes for applies from the next "
            "season (§3.4); only the blind structure and the schedule may still change between nights."
        )
    if "blind_structure" in changed_tables and (night := night_under_way(season=season)) is not None:
        raise RulesError(
            f"The clock of event {night.number} is running: the blind structure cannot change during a night. "
            "Change it after the results are final."
        )


def _saved_rules_check(*, season: Season, changed: Sequence[str]) -> None:
    """Refuse saved rules that do not hold together, naming the rule the officer changed first when it is one."""
    problems = rules_problems_named(rules=season_rules(season), seats_held=hooks.seats_held(season=season))
    if problems:
        # The rule the officer changed first, when a problem is about it; else the first problem's.
        named = next((p for p in problems if p.field in changed), problems[0])
        raise RulesError(" ".join(p.message for p in problems), field=named.field)

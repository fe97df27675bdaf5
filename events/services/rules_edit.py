"""Saving officers' changes to a season's rules (command)."""

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.db import transaction

from events import hooks
from events.models import Season
from events.rules import SeasonRules
from events.selectors import season_rules
from events.services.rules_check import rules_problems
from events.services.seasons import RULE_TABLE_MODELS, rules_tables_write
from ncpc.audit import Actor, audit_record
from ncpc.errors import RulesError

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
    nothing) when the saved rules fail ``rules_problems``.
    """
    tables = tables or {}
    unknown = sorted(
        ({*changes} - {*SeasonRules.SCALAR_FIELDS, *SETTINGS_FIELDS})
        | ({*tables} - {*SeasonRules.TABLE_FIELDS})
    )
    if unknown:
        raise RulesError(f"'{unknown[0]}' is not a season rule.")
    locked = Season.objects.select_for_update().get(pk=season.pk)
    current = season_rules(locked)
    changed = [name for name, value in changes.items() if getattr(locked, name) != value]
    for name in changed:
        setattr(locked, name, changes[name])
    if changed:
        locked.save(update_fields=changed)
    new_tables = {name: _table_rows(name, rows) for name, rows in tables.items()}
    changed_tables = [name for name, rows in new_tables.items() if rows != tuple(getattr(current, name))]
    for name in changed_tables:
        RULE_TABLE_MODELS[name].objects.filter(season=locked).delete()
    # The table names were checked against SeasonRules.TABLE_FIELDS above.
    new_rules = replace(current, **new_tables)  # type: ignore[arg-type]
    rules_tables_write(season=locked, rules=new_rules, tables=changed_tables)
    changed += changed_tables
    problems = rules_problems(rules=season_rules(locked), seats_held=hooks.seats_held(season=locked))
    if problems:
        raise RulesError(" ".join(problems))
    if changed:
        audit_record(
            actor=actor,
            action="season.rules",
            target=locked,
            summary=f"Changed the rules of {locked}: {', '.join(changed)}",
            reason=reason,
        )
    return changed

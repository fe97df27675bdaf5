"""Applying rule changes the club adopted (§3.4.2–3.4.4, SPEC §10) to a season's rules.

A change names one rule number: a scalar rule of ``SeasonRules.SCALAR_FIELDS``, a payout row (§6.2) or a WSOP
row (§8.1). Its value is kept as JSON (``rule_value_clean`` turns what an officer typed into that form).
An adopted change reaches the *next* season only, never a season already under way; when the next season
does not exist yet the change waits, and ``rule_changes_apply_pending`` applies it when the season is created
(``events.services.seasons.season_create`` sends ``season_created``; ``members.receivers`` calls it).
"""

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction

from events.models import PAYOUT_ROW, WSOP_ROW, Event, PayoutRow, Season, WsopRow
from events.rules import SeasonRules
from events.selectors import season_rules
from events.services.rules_check import rules_problems
from events.services.rules_edit import season_values_check
from events.services.seasons import season_name_for
from members.governance_selectors import rule_changes_pending
from members.models import Ballot, RuleChange
from members.selectors import current_member_count
from ncpc.core.audit import Actor, audit_record
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError, RulesError
from ncpc.core.middleware import request_memo_forget
from ncpc.core.money import parse_money

# What the ballot calls each rule number: its ``Season.rule_label`` (a field's verbose_name, or a row's label).
RULE_LABELS = {name: Season.rule_label(name) for name in (*SeasonRules.SCALAR_FIELDS, PAYOUT_ROW, WSOP_ROW)}

_MONEY_OR_PCT = {
    "dues_per_event",
    "admin_fee",
    "late_fee",
    "wsop_entry",
    "wsop_expenses",
    "winnings_threshold",
    "representative_share_pct",
    "late_joiner_share_pct",
    "declined_share_pct",
}
_PCT = {"representative_share_pct", "late_joiner_share_pct", "declined_share_pct"}
_LIST_OF_INTS = {"points_table"}


def rule_choices() -> list[tuple[str, str]]:
    """The rule numbers a change may name, for a form's choice list."""
    return list(RULE_LABELS.items())


def _is_whole(text: str) -> bool:
    """Plain digits 0-9 of a size a rule can have ("²" and "¹" are digits to Python, not to int())."""
    text = text.strip()
    return text.isascii() and text.isdigit() and len(text) <= 9


def _ints(text: str, *, what: str) -> list[int]:
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p]
    if not all(_is_whole(p.removeprefix("-")) for p in parts):
        raise NcpcError(f"{what}: write whole numbers separated by commas.", field="new_value")
    numbers = [int(p) for p in parts]
    if not numbers or min(numbers) < 0:
        raise NcpcError(f"{what}: write one or more whole numbers, none negative.", field="new_value")
    return numbers


def _money(text: str, *, what: str) -> Decimal:
    """An amount an officer typed (``$1,250.00`` is fine): ``ncpc.core.money.parse_money`` with this form's messages."""
    try:
        amount = parse_money(text.strip().replace("$", "").replace(",", ""))
    except ValueError:
        raise NcpcError(
            f"{what}: write an amount such as 55 or 55.00 (at most two decimals).", field="new_value"
        ) from None
    if amount < 0:
        raise NcpcError(f"{what}: write a positive amount.", field="new_value")
    return amount


def rule_value_clean(*, field: str, text: str) -> Any:
    """What an officer typed for a rule number, as the JSON value stored on the rule change. Pure.

    Scalars: ``60`` / ``60.00``; a time ``19:30``; lists ``10,9,8``; a schedule ``8-4, 9-4, …`` (month-nth, or
    month/nth as on the rules page);
    a payout row ``16: 145, 95, 70, 50``; a WSOP row ``15-17: 2``.
    """
    text = (text or "").strip()
    what = RULE_LABELS.get(field, field)
    if not text:
        raise NcpcError(f"{what}: give the new value.", field="new_value")
    if field == PAYOUT_ROW:
        count, _, amounts = text.partition(":")
        members = _ints(count, what=what)
        values = [_money(a, what=what) for a in amounts.split(",") if a.strip()]
        if len(members) != 1 or not 1 <= len(values) <= 4:
            raise NcpcError(
                f"{what}: write it like '16: 145, 95, 70, 50' (members: 1st, 2nd, …).", field="new_value"
            )
        return {"member_count": members[0], "amounts": [str(v) for v in values]}
    if field == WSOP_ROW:
        band, _, prizes = text.partition(":")
        bounds = [int(b) for b in band.replace("–", "-").split("-") if _is_whole(b)]
        if len(bounds) != 2 or bounds[0] > bounds[1] or not _is_whole(prizes):
            raise NcpcError(f"{what}: write it like '15-17: 2' (members from-to: prizes).", field="new_value")
        return {"min_members": bounds[0], "max_members": bounds[1], "prizes": int(prizes)}
    if field not in SeasonRules.SCALAR_FIELDS:
        raise NcpcError(f"'{field}' is not a rule number the app knows.", field="rule_field")
    if field in _MONEY_OR_PCT:
        value = _money(text, what=what)
        if field in _PCT and value > 100:
            raise NcpcError(f"{what}: a percentage cannot be more than 100.", field="new_value")
        return str(value)
    if field == "event_start_time":
        try:
            return dt.time.fromisoformat(text).strftime("%H:%M")
        except ValueError:
            raise NcpcError(f"{what}: write a time such as 19:00.", field="new_value") from None
    if field == "schedule":
        pairs = []
        for part in text.replace(";", ",").split(","):
            month, _, nth = part.strip().replace("/", "-").partition("-")
            if not (_is_whole(month) and _is_whole(nth)):
                raise NcpcError(
                    f"{what}: write each event as month-nth, e.g. '8-4, 9-4, 11-2'.", field="new_value"
                )
            month_n, nth_n = int(month), int(nth)
            if not (1 <= month_n <= 12 and 1 <= nth_n <= 5):
                raise NcpcError(
                    f"{what}: '{part.strip()}' is not a month (1–12) and an nth day of the week (1–5).",
                    field="new_value",
                )
            pairs.append([month_n, nth_n])
        return pairs
    if field in _LIST_OF_INTS:
        return _ints(text, what=what)
    numbers = _ints(text, what=what)
    if len(numbers) != 1:
        raise NcpcError(f"{what}: write one whole number.", field="new_value")
    return numbers[0]


def rule_value_text(*, field: str, value: Any) -> str:
    """A rule value as people read it ('$60.00', '16 members: $145.00, $95.00, …'). Pure."""
    if value is None:
        return "–"
    if field == PAYOUT_ROW:
        return f"{value['member_count']} members: " + ", ".join(f"${a}" for a in value["amounts"])
    if field == WSOP_ROW:
        return f"{value['min_members']}–{value['max_members']} members: {value['prizes']} prize(s)"
    if field in _PCT:
        return f"{value}%"
    if field in _MONEY_OR_PCT:
        return f"${value}"
    if field == "schedule":
        return ", ".join(f"{m}-{n}" for m, n in value)
    if field in _LIST_OF_INTS:
        return ", ".join(str(v) for v in value)
    return str(value)


def rule_value_now(*, rules: SeasonRules, field: str, value: Any) -> str:
    """The value a change would replace, in a season's rules, as text (for the ballot). Pure."""
    if field == PAYOUT_ROW:
        for row in rules.payout_table:
            if row.member_count == value["member_count"]:
                return rule_value_text(
                    field=field,
                    value={"member_count": row.member_count, "amounts": [str(a) for a in row.amounts]},
                )
        return "no row yet"
    if field == WSOP_ROW:
        for wsop_row in rules.wsop_table:
            if (wsop_row.min_members, wsop_row.max_members) == (value["min_members"], value["max_members"]):
                return rule_value_text(
                    field=field,
                    value={
                        "min_members": wsop_row.min_members,
                        "max_members": wsop_row.max_members,
                        "prizes": wsop_row.prizes,
                    },
                )
        return "no row yet"
    current = getattr(rules, field)
    if field == "schedule":
        return rule_value_text(field=field, value=[list(p) for p in current])
    if field == "event_start_time":
        return current.strftime("%H:%M")
    if isinstance(current, tuple):
        return rule_value_text(field=field, value=list(current))
    return rule_value_text(field=field, value=str(current) if isinstance(current, Decimal) else current)


@dataclass(frozen=True)
class RuleEdit:
    field: str
    value: Any


def season_under_way(*, season: Season, on: dt.date | None = None) -> bool:
    """A season has begun when its first day has come or any of its events has results."""
    day = on or club_today()
    return season.start <= day or season.events.exclude(status=Event.Status.SCHEDULED).exists()


def _write(*, season: Season, edit: RuleEdit) -> None:
    request_memo_forget()  # the season's rule tables are read again after this change (events.selectors)
    value = edit.value
    if edit.field == PAYOUT_ROW:
        amounts = [Decimal(a) for a in value["amounts"]] + [None] * (4 - len(value["amounts"]))
        PayoutRow.objects.update_or_create(
            season=season,
            member_count=value["member_count"],
            defaults=dict(zip(("first", "second", "third", "fourth"), amounts, strict=True)),
        )
        return
    if edit.field == WSOP_ROW:
        rows = season.wsop_rows.all()
        same = [
            r for r in rows if (r.min_members, r.max_members) == (value["min_members"], value["max_members"])
        ]
        overlapping = [
            r for r in rows if r.min_members <= value["max_members"] and r.max_members >= value["min_members"]
        ]
        if same:
            WsopRow.objects.filter(pk=same[0].pk).update(prizes=value["prizes"])
        elif overlapping:
            raise RulesError(
                f"The WSOP row {value['min_members']}–{value['max_members']} overlaps the existing row "
                f"{overlapping[0].min_members}–{overlapping[0].max_members}."
            )
        else:
            WsopRow.objects.create(season=season, **value)
        return
    if edit.field not in SeasonRules.SCALAR_FIELDS:
        raise RulesError(f"'{edit.field}' is not a rule number the app knows.")
    if edit.field == "event_start_time":
        value = dt.time.fromisoformat(value)
    elif edit.field in _MONEY_OR_PCT:
        value = Decimal(value)
    setattr(season, edit.field, value)
    season_values_check(season=season, names=[edit.field])  # the field's own minimums (e.g. §4.7's three)
    season.save(update_fields=[edit.field])


@transaction.atomic
def season_rules_amend(
    *, season: Season, edits: Sequence[RuleEdit], actor: Actor = None, reason: str = ""
) -> None:
    """Write adopted rule changes into a season's rules; refuse (writing nothing) a season under way or
    rules that no longer hold together (``rules_problems``)."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    if season_under_way(season=season):
        raise RulesError(f"Season {season} is already under way: its rules are not changed by a vote.")
    for edit in edits:
        _write(season=season, edit=edit)
    problems = rules_problems(rules=season_rules(season), seats_held=current_member_count(season=season))
    if problems:
        raise RulesError(" ".join(problems))
    audit_record(
        actor=actor,
        action="season.rules",
        target=season,
        summary=f"Applied adopted rule changes to {season}: {', '.join(e.field for e in edits)}",
        reason=reason,
        data={"edits": json.loads(json.dumps([[e.field, e.value] for e in edits], default=str))},
    )


def rule_changes_apply_pending(*, season: Season, actor: Actor = None) -> list[RuleChange]:
    """Apply every adopted rule change waiting for ``season`` (named as its ``applies_to``).

    Never raises: changes that cannot be applied (the season is under way, or the rules would no longer
    hold together, e.g. new dues without a new dues schedule) are marked for an officer to enter by hand,
    with the reason. All waiting changes are tried together first (one may need another), then one by one.
    Returns the changes looked at. ``season_create`` must call this for a new season.
    """
    pending = rule_changes_pending(season_name=season.name)
    if not pending:
        return []
    reason = "Adopted by the club's rule-change ballot (§3.4.4)"

    def attempt(changes: Sequence[RuleChange]) -> str:
        try:
            with transaction.atomic():
                season_rules_amend(
                    season=season,
                    edits=[RuleEdit(field=c.rule_field, value=c.new_value) for c in changes],
                    actor=actor,
                    reason=reason,
                )
        except RulesError as exc:
            return str(exc)
        return ""

    if not attempt(pending):
        for change in pending:
            rule_change_apply_result(change=change, season=season, problem="", actor=actor)
        return pending
    for change in pending:
        rule_change_apply_result(change=change, season=season, problem=attempt([change]), actor=actor)
    return pending


def rule_changes_send_on(*, ballot: Ballot, actor: Actor = None) -> None:
    """Mark the adopted changes of a rule number for the next season, and apply them if it exists."""
    season = ballot.season
    next_name = season_name_for(season.start.replace(year=season.start.year + 1))
    adopted = RuleChange.objects.filter(ballot=ballot, status=RuleChange.Status.ADOPTED).exclude(
        rule_field=""
    )
    adopted.update(applies_to=next_name, apply_state=RuleChange.Applied.PENDING)
    next_season = Season.objects.filter(name=next_name).first()
    if next_season is not None:
        rule_changes_apply_pending(season=next_season, actor=actor)


def rule_change_apply_result(
    *, change: RuleChange, season: Season, problem: str, actor: Actor = None
) -> RuleChange:
    """Record what happened when an adopted change was applied to ``season``."""
    change.applied_to = season
    if problem:
        change.apply_state = RuleChange.Applied.NEEDS_OFFICER
        change.apply_problem = problem
        change.save(update_fields=["applied_to", "apply_state", "apply_problem"])
        audit_record(
            actor=actor,
            action="rules.apply_failed",
            target=change,
            summary=f"Not applied to {season}: {change}",
            reason=problem,
        )
    else:
        change.apply_state = RuleChange.Applied.APPLIED
        change.applied_on = club_today()
        change.apply_problem = ""
        change.save(update_fields=["applied_to", "apply_state", "applied_on", "apply_problem"])
    return change


@transaction.atomic
def rule_change_entered_by_hand(*, change: RuleChange, on: dt.date, actor: Actor = None) -> RuleChange:
    """An officer confirms they entered an adopted change on the Season rules page themselves."""
    change = RuleChange.objects.select_for_update().get(pk=change.pk)
    if change.apply_state != RuleChange.Applied.NEEDS_OFFICER:
        raise NcpcError("Only a change waiting for an officer can be marked as entered.")
    change.apply_state = RuleChange.Applied.BY_HAND
    change.applied_on = on
    change.save(update_fields=["apply_state", "applied_on"])
    audit_record(actor=actor, action="rules.by_hand", target=change, summary=f"Entered by hand: {change}")
    return change

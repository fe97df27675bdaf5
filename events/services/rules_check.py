"""Does a season's rule data hold together? Pure: rules in, a list of problems out."""

from typing import NamedTuple

from events.rules import SeasonRules
from events.services.event_fund import WsopTableMissing, wsop_allocation

# The bylaws' least quorum of officers approving a check (§4.7).
LEAST_CHECK_APPROVALS = 3


# The rules that are amounts of money, none below zero (the rules form's money fields refuse one too).
MONEY_RULES = ("dues_per_event", "admin_fee", "late_fee", "wsop_entry", "wsop_expenses", "winnings_threshold")


class RuleProblem(NamedTuple):
    field: str  # the rule (a ``SeasonRules`` field) the problem is about
    message: str


def rules_problems(*, rules: SeasonRules, seats_held: int = 0) -> list[str]:
    """``seats_held``: the seats taken in the season now; the member limit may not fall below it."""
    return [problem.message for problem in rules_problems_named(rules=rules, seats_held=seats_held)]


def rules_problems_named(*, rules: SeasonRules, seats_held: int = 0) -> list[RuleProblem]:
    """``rules_problems``, each with the rule it is about (so a command can name the field)."""
    return [
        *_size_problems(rules=rules, seats_held=seats_held),
        *_share_problems(rules=rules),
        *_dues_problems(rules=rules),
        *_payout_problems(rules=rules),
        *_order_and_limit_problems(rules=rules),
    ]


def _size_problems(*, rules: SeasonRules, seats_held: int) -> list[RuleProblem]:
    """The member limit, the table sizes and the starting stack."""
    problems: list[RuleProblem] = []

    def problem(field: str, message: str) -> None:
        problems.append(RuleProblem(field, message))

    if rules.max_members < max(seats_held, 1):
        problem(
            "max_members",
            f"The member limit {rules.max_members} is below the {seats_held} seat(s) held in the season."
            if seats_held
            else "The member limit must be at least 1.",
        )
    if rules.table_size < 2:
        problem("table_size", "A table seats at least 2 players.")
    if rules.final_table_size < 2:
        problem("final_table_size", "The final table seats at least 2 players.")
    if rules.starting_stack < 1:
        problem("starting_stack", "The starting stack must be at least 1 chip.")
    return problems


def _share_problems(*, rules: SeasonRules) -> list[RuleProblem]:
    """The shares of the event's money, each a percentage, together at most 100%."""
    problems: list[RuleProblem] = []

    def problem(field: str, message: str) -> None:
        problems.append(RuleProblem(field, message))

    for name in ("representative_share_pct", "late_joiner_share_pct", "declined_share_pct"):
        if not 0 <= getattr(rules, name) <= 100:
            problem(name, f"The {name.removesuffix('_pct').replace('_', ' ')} is a percentage from 0 to 100.")
    shares = rules.representative_share_pct + rules.late_joiner_share_pct + rules.declined_share_pct
    if shares > 100:
        problem(
            "representative_share_pct",
            f"The representative's share, the late joiner's and the decliner's add up to {shares}%, over 100%.",
        )
    return problems


def _dues_problems(*, rules: SeasonRules) -> list[RuleProblem]:
    """The schedule of events, and the dues installments: on events that exist, adding up to what is owed."""
    problems: list[RuleProblem] = []

    def problem(field: str, message: str) -> None:
        problems.append(RuleProblem(field, message))

    if len(rules.schedule) != rules.events_per_season:
        problem(
            "schedule",
            f"The schedule lists {len(rules.schedule)} events but the season has {rules.events_per_season}.",
        )
    for event_number, _amount in rules.dues_schedule:
        if not 1 <= event_number <= rules.events_per_season:
            problem(
                "dues_schedule", f"A dues installment is set for event {event_number}, which does not exist."
            )
    due = sum((amount for _n, amount in rules.dues_schedule), start=0)
    owed = rules.dues_per_event * rules.events_per_season + rules.admin_fee
    if due != owed:
        problem(
            "dues_schedule", f"The dues schedule adds up to ${due}, but dues and admin fee come to ${owed}."
        )
    return problems


def _payout_problems(*, rules: SeasonRules) -> list[RuleProblem]:
    """The payout table: each row adds up to the event fund for that many members."""
    problems: list[RuleProblem] = []

    def problem(field: str, message: str) -> None:
        problems.append(RuleProblem(field, message))

    # The event fund divides the season's dues by its events: none to divide by is its own problem (below).
    for row in rules.payout_table if rules.events_per_season >= 1 else ():
        try:
            allocation = wsop_allocation(rules=rules, member_count=row.member_count)
        except WsopTableMissing as exc:
            problem("wsop_table", str(exc))
            continue
        paid = sum(row.amounts, start=0)
        if paid != allocation.per_event:
            problem(
                "payout_table",
                f"Payouts for {row.member_count} members add up to ${paid}, "
                f"but the event fund for {row.member_count} members is ${allocation.per_event}.",
            )
    return problems


def _order_and_limit_problems(*, rules: SeasonRules) -> list[RuleProblem]:
    """The points table, amounts that cannot be negative, approvals, the money limit, events and blinds."""
    problems: list[RuleProblem] = []

    def problem(field: str, message: str) -> None:
        problems.append(RuleProblem(field, message))

    if rules.points_table and list(rules.points_table) != sorted(rules.points_table, reverse=True):
        problem("points_table", "The points table must not award more points to a worse place.")
    for name in MONEY_RULES:
        if getattr(rules, name) < 0:
            problem(name, f"The {name.replace('_', ' ')} cannot be negative.")
    if any(amount < 0 for _n, amount in rules.dues_schedule):
        problem("dues_schedule", "A dues installment cannot be negative.")
    if any(amount < 0 for row in rules.payout_table for amount in row.amounts):
        problem("payout_table", "A prize cannot be negative.")
    if rules.check_approvals < LEAST_CHECK_APPROVALS:
        problem(
            "check_approvals",
            f"A check needs the approval of at least {LEAST_CHECK_APPROVALS} officers (§4.7), "
            f"not {rules.check_approvals}.",
        )
    if rules.money_limit <= 0:
        problem("money_limit", "The largest single amount must be more than $0.00.")
    if rules.events_per_season < 1:
        problem("events_per_season", "A season has at least one event.")
    if not any(level.kind == "level" for level in rules.blind_structure):
        problem("blind_structure", "The blind structure has no levels.")
    return problems

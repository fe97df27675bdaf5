"""Does a season's rule data hold together? Pure: rules in, a list of problems out."""

from events.rules import SeasonRules
from events.services.event_fund import WsopTableMissing, wsop_allocation


def rules_problems(*, rules: SeasonRules, seats_held: int = 0) -> list[str]:
    """``seats_held``: the seats taken in the season now; the member limit may not fall below it."""
    problems: list[str] = []
    if rules.max_members < max(seats_held, 1):
        problems.append(
            f"The member limit {rules.max_members} is below the {seats_held} seat(s) held in the season."
            if seats_held
            else "The member limit must be at least 1."
        )
    if rules.table_size < 2:
        problems.append("A table seats at least 2 players.")
    if rules.final_table_size < 2:
        problems.append("The final table seats at least 2 players.")
    if rules.starting_stack < 1:
        problems.append("The starting stack must be at least 1 chip.")
    for name in ("representative_share_pct", "late_joiner_share_pct", "declined_share_pct"):
        if not 0 <= getattr(rules, name) <= 100:
            problems.append(
                f"The {name.removesuffix('_pct').replace('_', ' ')} is a percentage from 0 to 100."
            )
    shares = rules.representative_share_pct + rules.late_joiner_share_pct + rules.declined_share_pct
    if shares > 100:
        problems.append(
            f"The representative's share, the late joiner's and the decliner's add up to {shares}%, over 100%."
        )
    if len(rules.schedule) != rules.events_per_season:
        problems.append(
            f"The schedule lists {len(rules.schedule)} events but the season has {rules.events_per_season}."
        )
    for event_number, _amount in rules.dues_schedule:
        if not 1 <= event_number <= rules.events_per_season:
            problems.append(f"A dues installment is set for event {event_number}, which does not exist.")
    due = sum((amount for _n, amount in rules.dues_schedule), start=0)
    owed = rules.dues_per_event * rules.events_per_season + rules.admin_fee
    if due != owed:
        problems.append(f"The dues schedule adds up to ${due}, but dues and admin fee come to ${owed}.")
    for row in rules.payout_table:
        try:
            allocation = wsop_allocation(rules=rules, member_count=row.member_count)
        except WsopTableMissing as exc:
            problems.append(str(exc))
            continue
        paid = sum(row.amounts, start=0)
        if paid != allocation.per_event:
            problems.append(
                f"Payouts for {row.member_count} members add up to ${paid}, "
                f"but the event fund for {row.member_count} members is ${allocation.per_event}."
            )
    if rules.points_table and list(rules.points_table) != sorted(rules.points_table, reverse=True):
        problems.append("The points table must not award more points to a worse place.")
    if not any(level.kind == "level" for level in rules.blind_structure):
        problems.append("The blind structure has no levels.")
    return problems

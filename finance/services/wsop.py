"""WSOP allocation (SPEC §8, bylaws §8.1). Pure calculator."""

from dataclasses import dataclass
from decimal import Decimal

from events.rules import SeasonRules
from ncpc.errors import RulesError
from ncpc.money import quantize


class WsopTableMissing(RulesError):
    pass


@dataclass(frozen=True)
class WsopAllocation:
    member_count: int
    total_fees: Decimal
    prizes: int
    entries: Decimal
    expenses: Decimal
    escrow: Decimal  # entries + expenses: what belongs in the WSOP escrow account
    monthly_event_funds: Decimal
    per_event: Decimal


def wsop_prizes(*, rules: SeasonRules, member_count: int) -> int:
    for row in rules.wsop_table:
        if row.min_members <= member_count <= row.max_members:
            return row.prizes
    raise WsopTableMissing(
        f"The season's WSOP table has no row for {member_count} members; the officers must add one."
    )


def wsop_allocation(*, rules: SeasonRules, member_count: int) -> WsopAllocation:
    prizes = wsop_prizes(rules=rules, member_count=member_count)
    total_fees = quantize(member_count * rules.dues_per_event * rules.events_per_season)
    entries = quantize(prizes * rules.wsop_entry)
    expenses = quantize(prizes * rules.wsop_expenses)
    funds = total_fees - entries - expenses
    return WsopAllocation(
        member_count=member_count,
        total_fees=total_fees,
        prizes=prizes,
        entries=entries,
        expenses=expenses,
        escrow=entries + expenses,
        monthly_event_funds=funds,
        per_event=quantize(funds / rules.events_per_season),
    )


@dataclass(frozen=True)
class WsopSplit:
    gross: Decimal
    tips: Decimal
    net: Decimal
    shared: bool  # False when gross winnings do not exceed the threshold: the representative keeps all
    pool: Decimal  # the part shared with the club (40% of net, floored to the cent)
    representative: Decimal  # net less every share paid out (the representative gets the leftover cents)
    late_joiner_shares: dict[str, Decimal]  # 1% each (§2.5)
    declined_share: dict[str, Decimal]  # 3% to the qualifier who could not go (§8.4)
    equal_shares: dict[str, Decimal]  # the rest of the pool, equally to every other member

    @property
    def shares(self) -> dict[str, Decimal]:
        return {**self.late_joiner_shares, **self.declined_share, **self.equal_shares}


def wsop_split(
    *,
    rules: SeasonRules,
    gross: Decimal,
    tips: Decimal,
    others: list[str],
    late_joiners: list[str] = (),
    declined: str | None = None,
) -> WsopSplit:
    """Split a representative's WSOP winnings (SPEC §9, bylaws §8.4, §9.2).

    ``others`` are the members on the roster at the season's last event other than the representative;
    ``late_joiners`` those of them who joined too late to qualify (1% each); ``declined`` the qualifier the
    representative replaced (3%). Every share is floored to the cent; leftover cents go to the representative,
    so the parts add up to net exactly.
    """
    from ncpc.money import floor_cents

    net = quantize(gross - tips)
    if gross <= rules.winnings_threshold or net <= 0:
        return WsopSplit(gross, tips, net, False, Decimal("0.00"), net, {}, {}, {})
    hundred = Decimal(100)
    pool = floor_cents(net * (hundred - rules.representative_share_pct) / hundred)
    one = {
        key: floor_cents(net * rules.late_joiner_share_pct / hundred)
        for key in late_joiners
        if key != declined
    }
    three = {declined: floor_cents(net * rules.declined_share_pct / hundred)} if declined else {}
    rest = pool - sum(one.values(), Decimal("0.00")) - sum(three.values(), Decimal("0.00"))
    equal_keys = [key for key in others if key not in one and key not in three]
    each = floor_cents(rest / len(equal_keys)) if equal_keys and rest > 0 else Decimal("0.00")
    equal = {key: each for key in equal_keys}
    paid_out = (
        sum(one.values(), Decimal("0.00")) + sum(three.values(), Decimal("0.00")) + each * len(equal_keys)
    )
    return WsopSplit(gross, tips, net, True, pool, net - paid_out, one, three, equal)

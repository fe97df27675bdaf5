"""Splitting a representative's WSOP winnings (SPEC §9, bylaws §8.4, §9.2). Pure calculator.

How the season's dues are allocated between the WSOP escrow and the event funds is
``events.services.event_fund`` (the rules check needs it too)."""

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from events.rules import SeasonRules
from ncpc.core.money import floor_cents, quantize


@dataclass(frozen=True)
class WsopSplit:
    gross: Decimal
    tips: Decimal
    net: Decimal
    shared: bool  # False when gross winnings do not exceed the threshold: the representative keeps all
    pool: Decimal  # the part shared with the club (net less the representative's share, floored to the cent)
    representative: Decimal  # net less every share paid out (the representative gets the leftover cents)
    late_joiner_shares: dict[str, Decimal]  # late_joiner_share_pct each (§2.5)
    declined_share: dict[str, Decimal]  # declined_share_pct to the qualifier who could not go (§8.4)
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
    late_joiners: Sequence[str] = (),
    declined: str | None = None,
) -> WsopSplit:
    """Split a representative's WSOP winnings (SPEC §9, bylaws §8.4, §9.2).

    ``others`` are the members on the roster at the season's last event other than the representative;
    ``late_joiners`` those of them who joined too late to qualify (``late_joiner_share_pct`` each); ``declined``
    the qualifier the representative replaced (``declined_share_pct``). Every share is floored to the cent; leftover cents go to the representative,
    so the parts add up to net exactly.
    """
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

"""Event payouts (bylaws §6.2) and WSOP winnings (bylaws §8.4, §9.2; SPEC §9)."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.bylaws import BYLAWS_RULES
from events.placings import Placing
from finance.services.payouts import PayoutTableMissing, payout_lines
from finance.services.wsop import wsop_split
from ncpc.core.errors import NcpcError

D = Decimal

# Bylaws §6.2, row by row: members → prizes for 1st, 2nd, 3rd (, 4th).
PAYOUT_ROWS = [
    (10, ["140", "85", "55"]),
    (11, ["165", "100", "65"]),
    (12, ["190", "115", "75"]),
    (13, ["175", "105", "85", "65"]),
    (14, ["195", "120", "95", "70"]),
    (15, ["155", "90", "65"]),
    (16, ["145", "95", "70", "50"]),
    (17, ["165", "105", "80", "60"]),
    (18, ["120", "70", "50"]),
    (19, ["145", "85", "60"]),
    (20, ["135", "85", "70", "50"]),
]


def placings(n):
    return [Placing(place=i, membership_id=100 + i, member_key=f"m{i}") for i in range(1, n + 1)]


@pytest.mark.parametrize(("members", "prizes"), PAYOUT_ROWS)
def test_every_payout_row_of_the_bylaws_pays_the_top_places(members, prizes):
    lines = payout_lines(rules=BYLAWS_RULES, member_count=members, placings=placings(members))
    assert [(line.place, line.member_key, line.amount) for line in lines] == [
        (i, f"m{i}", D(amount)) for i, amount in enumerate(prizes, start=1)
    ]
    assert all(line.paid_to == "member" for line in lines)


@pytest.mark.parametrize("members", [9, 21])
def test_a_member_count_without_a_payout_row_is_a_clear_error(members):
    with pytest.raises(PayoutTableMissing, match=f"no row for {members} members") as caught:
        payout_lines(rules=BYLAWS_RULES, member_count=members, placings=placings(5))
    assert isinstance(caught.value, NcpcError)


def test_a_substitutes_prize_goes_where_the_member_chose():
    result = [
        Placing(1, 1, "ann", substitute_name="Carl Guest", prize_to="substitute"),
        Placing(2, 2, "bob", substitute_name="Dora Guest", prize_to="member"),
        Placing(3, 3, "cat"),
    ]
    lines = payout_lines(rules=BYLAWS_RULES, member_count=16, placings=result)
    assert [(line.member_key, line.paid_to, line.substitute_name, line.amount) for line in lines] == [
        ("ann", "substitute", "Carl Guest", D("145")),
        ("bob", "member", "Dora Guest", D("95")),
        ("cat", "member", "", D("70")),
    ]


def test_a_chips_removed_player_has_no_place_and_is_never_paid():
    # Sixteen members; "dee" had her chips removed, so only fifteen are placed and she is not among them.
    result = [Placing(i, i, f"m{i}") for i in range(1, 16)]
    lines = payout_lines(rules=BYLAWS_RULES, member_count=16, placings=result)
    assert "dee" not in {line.member_key for line in lines}
    assert sum(line.amount for line in lines) == D("360")  # §8.1: per-event fund for 16 members


def test_the_bylaws_wsop_example_gives_the_representative_2130_and_the_club_1420():
    # §9.2: gross $3,600, tips $50 → net $3,550 → 60% $2,130.00, 40% $1,420.00 divided evenly (10 others).
    others = [f"m{i}" for i in range(10)]
    split = wsop_split(rules=BYLAWS_RULES, gross=D("3600.00"), tips=D("50.00"), others=others)
    assert split.net == D("3550.00")
    assert split.pool == D("1420.00")
    assert split.representative == D("2130.00")
    assert set(split.equal_shares.values()) == {D("142.00")}
    assert sum(split.shares.values()) == D("1420.00")


def test_leftover_cents_of_the_equal_shares_go_to_the_representative():
    # 15 others: 1420.00 / 15 = 94.666… → 94.66 each (1419.90); the 0.10 left goes to the representative.
    others = [f"m{i}" for i in range(15)]
    split = wsop_split(rules=BYLAWS_RULES, gross=D("3600.00"), tips=D("50.00"), others=others)
    assert set(split.equal_shares.values()) == {D("94.66")}
    assert split.representative == D("2130.10")


def test_late_joiners_get_one_percent_and_a_declined_qualifier_three_percent():
    others = ["a", "b", "c", "late1", "late2", "declined"]
    split = wsop_split(
        rules=BYLAWS_RULES,
        gross=D("3600.00"),
        tips=D("50.00"),
        others=others,
        late_joiners=["late1", "late2"],
        declined="declined",
    )
    assert split.late_joiner_shares == {"late1": D("35.50"), "late2": D("35.50")}  # 1% of 3550
    assert split.declined_share == {"declined": D("106.50")}  # 3% of 3550
    # 1420.00 − 71.00 − 106.50 = 1242.50 over a, b, c → 414.16 each (1242.48), 0.02 to the representative.
    assert split.equal_shares == {"a": D("414.16"), "b": D("414.16"), "c": D("414.16")}
    assert split.representative == D("2130.02")


def test_winnings_of_2200_or_less_are_not_shared():
    split = wsop_split(rules=BYLAWS_RULES, gross=D("2200.00"), tips=D("100.00"), others=["a", "b"])
    assert not split.shared
    assert split.representative == D("2100.00")
    assert split.shares == {}


cents = st.decimals(min_value=D("0"), max_value=D("1000000"), places=2)


@given(
    gross=cents,
    tips=cents,
    n_others=st.integers(min_value=0, max_value=19),
    n_late=st.integers(min_value=0, max_value=5),
    declined=st.booleans(),
)
def test_wsop_shares_always_add_up_to_net(gross, tips, n_others, n_late, declined):
    if tips > gross:
        tips = gross
    others = [f"m{i}" for i in range(n_others)]
    late = others[:n_late]
    declined_key = others[-1] if declined and others else None
    split = wsop_split(
        rules=BYLAWS_RULES, gross=gross, tips=tips, others=others, late_joiners=late, declined=declined_key
    )
    assert split.representative + sum(split.shares.values(), D("0")) == gross - tips
    assert all(share >= 0 and share == share.quantize(D("0.01")) for share in split.shares.values())
    assert split.representative >= 0

"""Money is Decimal with two places everywhere; every amount and aggregate goes through here."""

import re
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal, InvalidOperation

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
# The largest single amount one payment, transfer or check may be when no season says otherwise
# (``Season.money_limit``, ``SeasonRules.money_limit``). The bylaws set no upper bound: this is the club's guard
# against a slip of the keyboard, and every default of the rule is this one value.
DEFAULT_MONEY_LIMIT = Decimal("10000.00")


def quantize(value: Decimal | int | str | None) -> Decimal:
    """Two places, half-up. SQLite hands back sums as floats-in-disguise, so aggregates pass here too."""
    if value is None:
        return ZERO
    if isinstance(value, float):
        # Only SQLite aggregates produce floats; repr() keeps the digits it printed.
        value = repr(value)
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def floor_cents(value: Decimal) -> Decimal:
    """Round down to the cent (SPEC §9: every share is rounded down, the rest goes to the representative)."""
    return Decimal(value).quantize(CENT, rounding=ROUND_DOWN)


# What people write for an amount: an optional sign and dollar sign, digits (thousands may be grouped with
# commas), at most two decimals. No exponent (``1E+2``), no NaN or Infinity: Decimal would take those.
# ASCII digits only (as every number from the browser: ``re.ASCII``, so "١٢٣" is not $123); "5." is $5.00 as ".5" is
# $0.50.
_MONEY_TEXT = re.compile(
    r"^(?P<sign>-?)\$?(?P<whole>\d+|\d{1,3}(?:,\d{3})+)?(?:\.(?P<cents>\d*))?$", re.ASCII
)


def parse_money(text: str) -> Decimal:
    """Parse an amount as people write it: ``110``, ``12.5``, ``0.01``, ``$1,234.50``; raises ValueError for
    anything else (an exponent, NaN, more than two decimals, a stray character)."""
    cleaned = str(text).strip().replace(" ", "")
    match = _MONEY_TEXT.match(cleaned)
    if match is None or (match["whole"] is None and not match["cents"]):
        raise ValueError(f"{text!r} is not an amount of money")
    if match["cents"] is not None and len(match["cents"]) > 2:
        raise ValueError(f"{text!r} is not an amount with at most two decimals")
    whole = (match["whole"] or "0").replace(",", "")
    try:
        amount = Decimal(f"{match['sign']}{whole}.{match['cents'] or '0'}")
        return amount.quantize(CENT)
    except InvalidOperation:  # more digits than two places can hold
        raise ValueError(f"{text!r} is not an amount of money") from None


def money_str(value: Decimal) -> str:
    return f"{quantize(value):.2f}"


def percent_str(value: Decimal | int | str) -> str:
    """A percentage as people write it: ``Decimal("1.00")`` → ``1%``, ``Decimal("2.50")`` → ``2.5%``."""
    return f"{Decimal(value).normalize():f}%"


def money_display(value: Decimal | None) -> str:
    """An amount as pages and files show it: $1,234.50, a negative one as −$12.00 (one minus sign)."""
    if value is None:
        return ""
    amount = quantize(value)
    return f"{'−' if amount < 0 else ''}${abs(amount):,.2f}"


def credit_display(value: Decimal) -> str:
    """A credit on an account, given as the positive amount paid ahead, as pages and files show it:
    "credit $100.00"."""
    return f"credit {money_display(value)}"

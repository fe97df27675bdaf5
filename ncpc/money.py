"""Money is Decimal with two places everywhere; every amount and aggregate goes through here."""

from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal, InvalidOperation

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


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


def parse_money(text: str) -> Decimal:
    """Parse a money string like ``"110.00"``; raises ValueError for anything else."""
    try:
        amount = Decimal(str(text).strip())
    except (InvalidOperation, ValueError):
        raise ValueError(f"{text!r} is not an amount of money") from None
    try:
        cents = amount.quantize(CENT) if amount.is_finite() else None
    except InvalidOperation:  # too many digits for two places, e.g. 1e400
        raise ValueError(f"{text!r} is not an amount of money") from None
    if cents is None or amount != cents:
        raise ValueError(f"{text!r} is not an amount with at most two decimals")
    return cents


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

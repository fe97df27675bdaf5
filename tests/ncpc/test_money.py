from decimal import Decimal

import pytest

from ncpc.core.money import parse_money


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("110.00", Decimal("110.00")),
        ("0.01", Decimal("0.01")),
        (" 25 ", Decimal("25.00")),
        ("5.", Decimal("5.00")),
        (".5", Decimal("0.50")),
        ("$1,234.50", Decimal("1234.50")),
    ],
)
def test_parse_money_reads_an_amount_with_at_most_two_decimals(text, amount):
    assert parse_money(text) == amount


@pytest.mark.parametrize(
    "text",
    [
        "abc",
        "NaN",
        "Infinity",
        "1.005",
        "1e400",
        "-1e-400",
        "",
        ".",
        "-.",
        "$",
        "\u0661\u0662\u0663",
        "\uff11\uff10",
    ],
)
def test_parse_money_refuses_what_is_not_an_amount_of_money_with_a_value_error(text):
    with pytest.raises(ValueError):
        parse_money(text)

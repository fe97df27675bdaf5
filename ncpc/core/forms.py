"""Form fields every app's money forms share: the one money field, and the one-time key of a form that books.

A form that writes money carries a one-time key (``BooksOnceForm``): issued with the form as a hidden field,
stored by the command with a unique constraint on what it creates, so that the same form sent twice (a double
click, two tabs, a retry after a dropped connection) books once; the command hands back the first result.
"""

import re
import uuid
from decimal import Decimal
from typing import Any, TypeVar

from django import forms
from django.core.exceptions import ValidationError

from ncpc.core.identity import reference_rewrite
from ncpc.core.money import DEFAULT_MONEY_LIMIT, money_display, money_str, parse_money

_KEY = re.compile(r"^[0-9a-f]{32}$")


def once_key_new() -> str:
    return uuid.uuid4().hex


class MoneyField(forms.CharField):
    """An amount of money as people type it (``12``, ``12.5``, ``0.01``, ``$1,234.50``), as a ``Decimal`` with two
    places; refuses exponents, NaN, more than two decimals, and amounts below ``minimum`` or above ``limit``."""

    def __init__(
        self,
        *,
        minimum: Decimal | None = None,
        limit: Decimal | None = None,
        max_digits: int | None = None,
        decimal_places: int | None = None,
        min_value: Decimal | None = None,
        max_value: Decimal | None = None,
        limit_name: str | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault(
            "widget", forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off", "maxlength": 20})
        )
        super().__init__(**kwargs)
        if max_digits is not None:
            # A model's money column (a rule of the season, a table row): any amount it holds, from zero.
            default_minimum = Decimal("0.00")
            default_limit = Decimal(10) ** (max_digits - (decimal_places or 0)) - Decimal("0.01")
        else:
            default_minimum, default_limit = Decimal("0.01"), DEFAULT_MONEY_LIMIT
        self.minimum = next(v for v in (minimum, min_value, default_minimum) if v is not None)
        self.limit = next(v for v in (limit, max_value, default_limit) if v is not None)
        # Whose limit it is, as the refusal names it (``limit_message``): "season" once the form sets the
        # season's rule (``Season.money_limit``), "club" for the club's usual limit of one amount, else what
        # the field is ("a bank statement's balance can be"), or the column's largest amount.
        if limit is not None or max_value is not None:
            self.limit_source = "field"
        elif max_digits is not None:
            self.limit_source = "column"
        else:
            self.limit_source = "club"
        self.limit_name = limit_name or "this field takes"

    def to_python(self, value: Any) -> Decimal | None:  # type: ignore[override]
        text = super().to_python(value)
        if text is None or text in self.empty_values:
            return None
        try:
            return parse_money(text)
        except ValueError:
            raise ValidationError(
                "Write an amount such as 12, 12.50 or $1,234.50 (at most two decimals).", code="invalid"
            ) from None

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value is None:
            return
        if value < self.minimum:
            if self.minimum == Decimal("0.01"):
                raise ValidationError("The amount must be at least $0.01.", code="min_value")
            raise ValidationError(
                f"The amount cannot be less than {money_display(self.minimum)}.", code="min_value"
            )
        if value > self.limit:
            raise ValidationError(self.limit_message(value), code="max_value")

    def limit_message(self, value: Decimal) -> str:
        """Why ``value`` is refused as too large, naming the limit that applies: the season's rule, the club's
        usual limit of one amount, the column's largest, or this field's own (``limit_name``)."""
        amount, limit = money_display(value), money_display(self.limit)
        if self.limit_source == "season":
            return f"{amount} is more than the club's limit of {limit} for one amount (a rule of the season)."
        if self.limit_source == "club":
            return f"{amount} is more than the club's limit of {limit} for one amount."
        if self.limit_source == "column":
            return f"{amount} is more than {limit}, the largest amount this field holds."
        return f"{amount} is more than {limit}, the largest amount {self.limit_name}."

    def prepare_value(self, value: Any) -> Any:
        return money_str(value) if isinstance(value, Decimal) else value


class OnceKeyField(forms.CharField):
    widget = forms.HiddenInput

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("initial", once_key_new)
        kwargs.setdefault(
            "error_messages",
            {"required": "This form is out of date: reload the page and send it again."},
        )
        super().__init__(max_length=32, **kwargs)

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value and not _KEY.match(value):
            raise ValidationError(
                "This form is out of date: reload the page and send it again.", code="invalid"
            )


class BooksOnceForm(forms.Form):
    """A form that books something: its one-time key is ``cleaned_data["once"]``."""

    once = OnceKeyField()

    def non_field_errors(self) -> Any:
        # A hidden field's error is shown with the form's own (crispy puts it nowhere else).
        messages = [*super().non_field_errors(), *self.errors.get("once", [])]
        return self.error_class(list(dict.fromkeys(messages)), error_class="nonfield")


FieldT = TypeVar("FieldT", bound=forms.Field)


def form_field(form: forms.BaseForm, name: str, kind: type[FieldT]) -> FieldT:
    """``form.fields[name]`` as the field class it is, for a form that sets its choices or queryset when built
    (``form.fields`` is typed as holding plain ``Field``\\ s). A field of another class is a programming error."""
    field = form.fields[name]
    if not isinstance(field, kind):
        raise TypeError(f"{type(form).__name__}.{name} is a {type(field).__name__}, not a {kind.__name__}")
    return field


class ClubReferencesForm(forms.BaseForm):
    """Labels, help texts and errors that name a rule (written "§2.12") show the club's own reference, or none
    (SPEC §16.7; ``ncpc.core.identity.reference_rewrite``). Put it first among a form's bases."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if field.label:
                field.label = reference_rewrite(str(field.label))
            if field.help_text:
                field.help_text = reference_rewrite(str(field.help_text))

    def add_error(self, field: str | None, error: Any) -> None:
        if isinstance(error, str):
            error = reference_rewrite(error)
        super().add_error(field, error)

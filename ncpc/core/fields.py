"""The one model field for money: two decimal places, up to ten digits before the point (SPEC: every amount is
dollars and cents). Every money column of every app is a ``MoneyField``; ``ncpc.core.money`` does the arithmetic."""

from typing import TYPE_CHECKING, Any, TypeVar

from django.db import models

# django-stubs makes model fields generic in the type they take and the type they give (``Field[_ST, _GT]``);
# its mypy plugin fills them in from ``DecimalField`` (takes str, float, Decimal or an expression, gives a
# Decimal, or Decimal | None for ``null=True``). Django's classes are not subscriptable at run time, so the
# subscript is for the type checker only.
_ST = TypeVar("_ST", contravariant=True)
_GT = TypeVar("_GT", covariant=True)

if TYPE_CHECKING:
    _DecimalField = models.DecimalField
else:

    class _DecimalField(models.DecimalField):
        def __class_getitem__(cls, params: object) -> type:
            return cls


class MoneyField(_DecimalField[_ST, _GT]):
    """A ``DecimalField(max_digits=12, decimal_places=2)``. The migrations keep the two numbers as arguments
    (``deconstruct`` leaves them in), so the column is the same ``numeric(12, 2)`` as before."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_digits", 12)
        kwargs.setdefault("decimal_places", 2)
        super().__init__(*args, **kwargs)

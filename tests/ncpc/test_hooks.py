"""The hooks through which a lower app asks a higher one: called like the function connected, typed like it."""

import datetime as dt
from typing import Protocol

import pytest
from django.core.exceptions import ImproperlyConfigured

from events import hooks as events_hooks
from finance import hooks as finance_hooks
from members import hooks as members_hooks
from ncpc.core import permissions
from ncpc.core.hooks import Hook


class Doubled(Protocol):
    def __call__(self, *, number: int) -> int: ...


def test_a_hook_calls_the_function_last_connected_with_its_arguments():
    hook: Hook[Doubled] = Hook("doubled(number)", "a test")
    hook.connect(lambda *, number: number * 3)

    def doubled(*, number: int) -> int:
        return number * 2

    assert hook.connect(doubled) is doubled
    assert hook(number=21) == 42


def test_a_hook_nobody_answers_names_the_app_that_should():
    hook: Hook[Doubled] = Hook("doubled(number)", "the doubling app")
    with pytest.raises(ImproperlyConfigured, match="Nothing answers doubled\\(number\\): the doubling app"):
        hook(number=1)


def test_every_hook_is_answered_by_the_function_its_protocol_names():
    """The apps' ready() connect each hook to the function its Protocol's docstring names."""
    hooks = [
        getattr(module, name)
        for module in (events_hooks, finance_hooks, members_hooks)
        for name in dir(module)
        if isinstance(getattr(module, name), Hook)
    ] + [permissions.login_standing]
    assert len(hooks) == 15  # closed_month_refusal and last_payment_on (issue 45) among them
    for hook in hooks:
        answer = hook.answer
        assert answer is not None, hook
        assert f"{answer.__module__}.{answer.__name__}" in " ".join(
            str(getattr(cls, "__doc__", "")) for cls in _protocols()
        ), hook


def _protocols() -> list[type]:
    """The classes the hook modules declare (the Protocols; their docstrings name the answering functions)."""
    return [
        value
        for module in (events_hooks, finance_hooks, members_hooks, permissions)
        for value in vars(module).values()
        if isinstance(value, type) and value.__module__ == module.__name__
    ]


def test_a_hook_answers_like_its_function(db):
    assert permissions.login_standing(user_id=0, on=dt.date(2026, 1, 1)) == (None, set(), False)

"""Questions a lower layer asks and a higher layer answers, so that imports only ever point down.

The apps sit in layers (``pyproject.toml``, ``[tool.importlinter]``): ncpc's core, events, members, finance,
standings, then the club-wide wiring. When a lower app needs a higher one's answer (attendance needs good
standing, which finance decides), the lower app declares a ``Hook`` and the higher app connects its function
in its ``AppConfig.ready()``. The lower app calls the hook like the function itself.
"""

from collections.abc import Callable
from typing import Generic, ParamSpec, TypeVar

from django.core.exceptions import ImproperlyConfigured

P = ParamSpec("P")
R = TypeVar("R")


class Hook(Generic[P, R]):
    """One question with one answering function (the last one connected wins, so a test can replace it)."""

    def __init__(self, name: str, answered_by: str) -> None:
        self.name = name
        self.answered_by = answered_by
        self.answer: Callable[P, R] | None = None

    def connect(self, func: Callable[P, R]) -> Callable[P, R]:
        self.answer = func
        return func

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        if self.answer is None:
            raise ImproperlyConfigured(f"Nothing answers {self.name}: {self.answered_by} must be installed.")
        return self.answer(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<Hook {self.name}, answered by {self.answered_by}>"

"""Questions a lower layer asks and a higher layer answers, so that imports only ever point down.

The apps sit in layers (``pyproject.toml``, ``[tool.importlinter]``): ncpc's core, events, members, finance,
standings, then the club-wide wiring. When a lower app needs a higher one's answer (attendance needs good
standing, which finance decides), the lower app declares a ``Hook`` and the higher app connects its function
in its ``AppConfig.ready()``. The lower app calls the hook like the function itself.

Each hook is typed with the exact signature of its answer: a ``Protocol`` whose ``__call__`` takes the same
keyword arguments and returns the same type (``Hook[GoodStanding]``), so mypy checks both the callers and the
function connected. The types a signature names from a higher app (a ``Membership``, a ``Person``) are imported
under ``TYPE_CHECKING`` only: the type checker reads them, the running program never imports upward (the
import-linter contract leaves such imports aside, ``exclude_type_checking_imports``).
"""

from collections.abc import Callable
from typing import Generic, TypeVar

from django.core.exceptions import ImproperlyConfigured

F = TypeVar("F", bound=Callable[..., object])


class Hook(Generic[F]):
    """One question with one answering function (the last one connected wins, so a test can replace it)."""

    def __init__(self, name: str, answered_by: str) -> None:
        self.name = name
        self.answered_by = answered_by
        self.answer: F | None = None

    def connect(self, func: F) -> F:
        self.answer = func
        return func

    # Calling the hook calls the function connected, with its own signature: ``__call__`` gives that function
    # (Python looks special methods up on the class and honours the property, so ``hook(...)`` works).
    @property
    def __call__(self) -> F:
        if self.answer is None:
            raise ImproperlyConfigured(f"Nothing answers {self.name}: {self.answered_by} must be installed.")
        return self.answer

    def __repr__(self) -> str:
        return f"<Hook {self.name}, answered by {self.answered_by}>"

"""The one family of domain errors. Views turn these into a message for the user, never a 500."""

from ncpc.core.identity import reference_rewrite


class NcpcError(Exception):
    """A rule of the club (or of the app) was broken by what the user asked for.

    ``str(error)`` is a sentence fit to show the user as it is.
    """

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:
        # The message names rules as the app's rule book numbers them ("§2.17"); the club's own numbers are
        # shown, or none (SPEC §16.7). Read when shown, not when raised: a message may be made anywhere.
        try:
            return reference_rewrite(self.message)
        except (
            Exception
        ):  # the club's references cannot be read (a broken transaction, no database): as written
            return self.message


class RulesError(NcpcError):
    """The season's rule data is inconsistent or incomplete."""


class NotAllowed(NcpcError):
    """The user's role does not allow the action (views answer 403)."""


class ConcurrentChange(NcpcError):
    """Someone else changed the same thing meanwhile; reload and try again."""

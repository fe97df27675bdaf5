"""Errors of events, attendance and results entry (all NcpcError: views show them as messages)."""

from ncpc.core.errors import NcpcError


class ResultsError(NcpcError):
    """The eliminations entered do not make a valid result (unknown player, entered twice, …)."""


class NotInGoodStanding(NcpcError):
    """A member not in good standing on the event's date cannot play (§2.9, §2.17)."""


class RulesNotSigned(NcpcError):
    """A member who has not signed the season's rules document cannot play (§2.4, §3.5.5)."""


class SubstituteRefused(NcpcError):
    """A substitute who is professional, banned, or over the member's yearly limit (§5.3)."""


class ExemptionUsed(NcpcError):
    """The once-a-season late-arrival exemption was used already (§6.3)."""


class AnnouncementLate(NcpcError):
    """Announcing later than the season's notice period needs an explicit confirmation (§4.6)."""


class ChangeUnreadable(NcpcError):
    """A night action lacks a field the app's own pages always send, or it cannot be read (an undo that names
    no bust, SPEC §17.8): not a rule the officer broke but a request the app did not make (views answer 400)."""

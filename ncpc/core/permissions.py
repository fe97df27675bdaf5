"""The one place that answers "may this user do X now?" (SPEC §12).

Officers are whoever holds an office on that date according to the officer terms, never a hand-kept flag.
Views use ``require(Action.X)`` or ``user_can``; templates get ``perms_ncpc`` from the context processor.
"""

import datetime as dt
import enum
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, Protocol

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase

from ncpc.core.audit import Actor, actor_user
from ncpc.core.clock import club_today
from ncpc.core.hooks import Hook

if TYPE_CHECKING:  # types only: the running program never imports upward (see ncpc.core.hooks)
    from members.models import Person

PRESIDENT = "president"
VICE_PRESIDENT = "vice_president"
TREASURER = "treasurer"
OFFICES = (PRESIDENT, VICE_PRESIDENT, TREASURER)


class Action(enum.StrEnum):
    # Any member of the club
    VIEW_CLUB = "view_club"  # schedule, results, standings, club totals of reports
    VOTE = "vote"
    # Any officer
    EDIT_RULES = "edit_rules"
    VIEW_AUDIT = "view_audit"
    VIEW_PERSONAL_DATA = "view_personal_data"  # date of birth, address, phone, dues of every member (§15.12)
    APPROVE_CHECKS = "approve_checks"  # §4.7: a quorum of the officers approves every check
    # Vice President (and President)
    MANAGE_MEMBERS = "manage_members"
    RECORD_SIGNATURES = "record_signatures"
    ENTER_RESULTS = "enter_results"
    RECORD_TIE_BREAKS = "record_tie_breaks"
    POINTS_REPORT = "points_report"
    # Treasurer (and President)
    RECORD_PAYMENTS = "record_payments"
    MANAGE_LEDGER = "manage_ledger"
    APPROVE_DISBURSEMENTS = "approve_disbursements"
    TREASURER_REPORT = "treasurer_report"
    # Treasurer only (SPEC §7: "only the treasurer can waive" a late fee)
    WAIVE_LATE_FEES = "waive_late_fees"
    # President
    MANAGE_BALLOTS = "manage_ballots"
    MANAGE_ELECTIONS = "manage_elections"
    RECORD_RULINGS = "record_rulings"
    EDIT_CLUB_IDENTITY = "edit_club_identity"  # SPEC §16.7: name, time zone, rule book


MEMBER_ACTIONS = {Action.VIEW_CLUB, Action.VOTE}
OFFICER_ACTIONS = {Action.EDIT_RULES, Action.VIEW_AUDIT, Action.VIEW_PERSONAL_DATA, Action.APPROVE_CHECKS}
OFFICE_ACTIONS: dict[str, set[Action]] = {
    VICE_PRESIDENT: {
        Action.MANAGE_MEMBERS,
        Action.RECORD_SIGNATURES,
        Action.ENTER_RESULTS,
        Action.RECORD_TIE_BREAKS,
        Action.POINTS_REPORT,
    },
    TREASURER: {
        Action.RECORD_PAYMENTS,
        Action.MANAGE_LEDGER,
        Action.APPROVE_DISBURSEMENTS,
        Action.TREASURER_REPORT,
        Action.WAIVE_LATE_FEES,
    },
}
OFFICE_ACTIONS[PRESIDENT] = (
    {Action.MANAGE_BALLOTS, Action.MANAGE_ELECTIONS, Action.RECORD_RULINGS, Action.EDIT_CLUB_IDENTITY}
    | OFFICE_ACTIONS[VICE_PRESIDENT]
    | OFFICE_ACTIONS[TREASURER]
) - {Action.WAIVE_LATE_FEES}


# Who holds which office and seat is members' data: members answers (see ncpc.core.hooks), given a login's id and a
# date, with (the login's person or None, the offices held that day, holds a seat that day).
# A view function, as the decorators below take and return it.
View = Callable[..., HttpResponseBase]


class LoginStanding(Protocol):
    """members.selectors.login_standing: (the login's person or None, the offices held that day, holds a seat
    that day)."""

    def __call__(self, *, user_id: int, on: dt.date) -> "tuple[Person | None, set[str], bool]": ...


login_standing: Hook[LoginStanding] = Hook("login_standing(user_id, on)", "members")


def _standing_now(user: Actor) -> tuple[Any, set[Action]]:
    """Today's (person or None, actions) of the login, remembered on the request's user object (made per
    request by the session middleware, so it never outlives the request): one query."""
    signed_in = actor_user(user)
    if signed_in is None:
        return None, set()
    standing = getattr(signed_in, "ncpc_standing", None)
    if standing is None:
        standing = user_standing(signed_in)
        signed_in.ncpc_standing = standing  # type: ignore[attr-defined]  # remembered for this request
    return standing


def user_person(user: Actor) -> Any:
    """The login's person, or None (a login with no person, e.g. a superuser). It comes with the permissions
    (``user_standing``): no query of its own."""
    return _standing_now(user)[0]


def user_offices(user: Actor, *, on: dt.date | None = None) -> set[str]:
    signed_in = actor_user(user)
    if signed_in is None:
        return set()
    return set(login_standing(user_id=signed_in.pk, on=on or club_today())[1])


def user_standing(user: Actor, *, on: dt.date | None = None) -> tuple[Any, set[Action]]:
    """(the login's person or None, the actions they may take on ``on``), in one query."""
    signed_in = actor_user(user)
    if signed_in is None:
        return None, set()
    person, offices, seated = login_standing(user_id=signed_in.pk, on=on or club_today())
    if not signed_in.is_active:
        return person, set()
    if signed_in.is_superuser:
        return person, set(Action)
    actions: set[Action] = set()
    if offices or seated:
        actions |= MEMBER_ACTIONS
    if offices:
        actions |= OFFICER_ACTIONS
    for office in offices:
        actions |= OFFICE_ACTIONS[office]
    return person, actions


def user_actions(user: Actor, *, on: dt.date | None = None) -> set[Action]:
    return user_standing(user, on=on)[1]


def _actions_now(user: Actor) -> set[Action]:
    """Today's actions, remembered with the person for the rest of the request."""
    return _standing_now(user)[1]


def user_can(user: Actor, action: Action, *, on: dt.date | None = None) -> bool:
    if on is None:
        return action in _actions_now(user)
    return action in user_actions(user, on=on)


def require(action: Action) -> Callable[[View], View]:
    """View decorator: anonymous → login page; logged in without the right → 403."""

    def decorator(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not user_can(request.user, action):
                raise PermissionDenied(
                    "Your role does not allow this page or action. If you think it should, ask an officer."
                )
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def club_page(view: View) -> View:
    """For schedule, results and standings: members only, or everyone when NCPC_PUBLIC_STANDINGS is on."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            if settings.NCPC_PUBLIC_STANDINGS:
                return view(request, *args, **kwargs)
            return redirect_to_login(request.get_full_path())
        if not user_can(request.user, Action.VIEW_CLUB):
            raise PermissionDenied("These pages are for club members.")
        return view(request, *args, **kwargs)

    return login_not_required(wrapper)

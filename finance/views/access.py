"""Who may see which money page: a member their own seat's, the officers who record payments every seat's, any
officer in office the checks."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from ncpc.core.permissions import Action, user_can, user_offices, user_person


def officer_required(view):
    """Any officer in office (checks need two officers' approvals, §4.7; all three sign)."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not (request.user.is_superuser or user_offices(request.user)):
            raise PermissionDenied("Only an officer in office may do this.")
        return view(request, *args, **kwargs)

    return wrapper


def own_membership(request, season):
    person = user_person(request.user)
    if person is None or season is None:
        return None
    return person.memberships.filter(season=season).select_related("person", "season").first()


def may_see_member(request, membership) -> bool:
    if user_can(request.user, Action.RECORD_PAYMENTS):
        return True
    person = user_person(request.user)
    return person is not None and membership.person_id == person.pk

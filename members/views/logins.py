"""Officers' terms and invitations (SPEC §16.8): what the Django admin was needed for. Thin: form → service."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_not_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from events.selectors import current_season
from members.login_forms import InvitationAcceptForm, OfficerTermEndForm, OfficerTermForm
from members.models import OfficerTerm, Person
from members.services.invitations import (
    VALID_FOR,
    invitation_accept,
    invitation_for_token,
    invitation_problem,
    invitation_rows,
    invitations_send,
)
from members.services.logins import officer_year_end
from members.services.officers import officer_term_create, officer_term_end, officer_term_text
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.feedback import command_run
from ncpc.core.permissions import Action, require

# Officers' terms follow the elections, which the President runs (SPEC §12): the same right.
OFFICER_TERMS = Action.MANAGE_ELECTIONS


@require(OFFICER_TERMS)
def officer_terms(request):
    today = club_today()
    form = OfficerTermForm(request.POST or None, initial={"start": today, "end": officer_year_end(on=today)})
    if request.method == "POST" and form.is_valid():
        term = command_run(
            request,
            officer_term_create,
            refused=lambda exc: form.add_error(None, str(exc)),
            **form.cleaned_data,
        )
        if term is not None:
            messages.success(request, f"Recorded: {officer_term_text(term)}.")
            return redirect("members:officer_terms")
    if request.method == "POST" and not form.is_valid():
        messages.error(request, "Nothing was saved: please correct the fields marked below.")
    terms = list(OfficerTerm.objects.select_related("person"))
    return render(
        request,
        "members/officer_terms.html",
        {
            "form": form,
            "today": today,
            "current": [t for t in terms if t.start <= today <= t.end],
            "coming": [t for t in terms if t.start > today],
            "past": [t for t in terms if t.end < today],
            "vacant": [
                label
                for office, label in OfficerTerm.Office.choices
                if not any(t.office == office and t.start <= today <= t.end for t in terms)
            ],
        },
    )


@require_POST
@require(OFFICER_TERMS)
def officer_term_end_view(request, pk):
    term = get_object_or_404(OfficerTerm, pk=pk)
    form = OfficerTermEndForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing was changed: give the last day of the term and the reason.")
        return redirect("members:officer_terms")
    ended = command_run(request, officer_term_end, term=term, **form.cleaned_data)
    if ended is not None:
        messages.success(
            request,
            f"{ended.person}'s term as {ended.get_office_display()} now ends on {ended.end:%b %-d, %Y} (included).",
        )
    return redirect("members:officer_terms")


@require(Action.MANAGE_MEMBERS)
def invitations(request):
    today = club_today()
    season = current_season()
    if request.method == "POST":
        rows = invitation_rows(season=season, on=today, now=timezone.now())
        invitable = {row.person.pk: row.person for row in rows if row.can_invite}
        if request.POST.get("all"):
            chosen = list(invitable.values())
        elif only := request.POST.get("only", ""):
            chosen = (
                [invitable[int(only)]] if only.isascii() and only.isdigit() and int(only) in invitable else []
            )
        else:
            picked = {int(v) for v in request.POST.getlist("person") if v.isascii() and v.isdigit()}
            chosen = [person for pk, person in invitable.items() if pk in picked]
        if not chosen:
            messages.error(request, "Nobody was invited: tick members without a login who have an e-mail.")
            return redirect("members:invitations")
        result = command_run(request, invitations_send, people=chosen)
        if result is not None:
            names = ", ".join(str(i.person) for i in result.sent)
            messages.success(
                request,
                f"Invitation{'s' if len(result.sent) != 1 else ''} queued for {names}: the link works once, for "
                f"{VALID_FOR.days} days.",
            )
            if result.skipped:
                messages.warning(request, "Not invited: " + "; ".join(result.skipped) + ".")
        return redirect("members:invitations")
    rows = invitation_rows(season=season, on=today, now=timezone.now())
    return render(
        request,
        "members/invitations.html",
        {
            "season": season,
            "rows": rows,
            "invitable": sum(1 for row in rows if row.can_invite),
            "days": VALID_FOR.days,
        },
    )


@login_not_required
@never_cache
def invitation_accept_view(request, token):
    """The invited person chooses a username and password (no login needed: the link is the key). A link that
    cannot be used shows why, never an error page. A browser logged in as someone else is asked to log out
    first (SPEC §17.6): the new login never silently replaces the session's."""
    now = timezone.now()
    invitation = invitation_for_token(token=token)
    problem = invitation_problem(invitation=invitation, now=now)
    if problem or invitation is None:
        status = 404 if invitation is None else 410
        return render(request, "members/invitation_invalid.html", {"problem": problem}, status=status)
    person: Person = invitation.person
    if request.user.is_authenticated:  # the invited person has no login yet: this session is someone else's
        status = 409 if request.method == "POST" else 200
        return render(request, "members/invitation_logged_in.html", {"person": person}, status=status)
    form = InvitationAcceptForm(request.POST or None, initial={"username": person.key})
    if request.method == "POST" and form.is_valid():
        try:
            user = invitation_accept(
                token=token,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                now=now,
            )
        except NcpcError as exc:
            # The form's field names, not passwords.
            field = {"username": "username", "password": "password1"}.get(exc.field or "")  # nosec B105
            form.add_error(field, str(exc))
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request, f"Welcome, {person.first_name}: your login '{user.get_username()}' is ready."
            )
            return redirect("home")
    return render(request, "members/invitation_accept.html", {"form": form, "person": person})

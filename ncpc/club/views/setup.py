"""The set-up checklist's page (SPEC §16.8): every step of starting a club in the app, ticked off as it is done."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from ncpc.club.services.setup import setup_checklist, setup_checklist_show, setup_hidden, setup_step_confirm
from ncpc.core.feedback import command_run
from ncpc.core.permissions import Action, require

# Any officer: each step names who does it, and its page checks the right.
SETUP = Action.EDIT_RULES


@require(SETUP)
def setup(request):
    return render(request, "setup.html", {"setup": setup_checklist(), "hidden": setup_hidden()})


@require_POST
@require(SETUP)
def setup_confirm(request):
    command_run(request, setup_step_confirm, slug=request.POST.get("step", ""), success="Marked as done.")
    return redirect("home" if request.POST.get("back") == "home" else "setup")


@require_POST
@require(SETUP)
def setup_home(request):
    show = request.POST.get("show") == "1"
    setup_checklist_show(show=show, actor=request.user)
    messages.success(
        request,
        "The set-up checklist is back on the home page."
        if show
        else "The set-up checklist is hidden from the home page; it stays under Officers → Set-up.",
    )
    return redirect("setup" if show else "home")

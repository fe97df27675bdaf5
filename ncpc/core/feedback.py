"""Turning a broken club rule (NcpcError) into feedback on the page, the same way in every view."""

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest

from ncpc.core.errors import ConcurrentChange, NcpcError


def error_show(request: HttpRequest, exc: NcpcError, *, form: forms.BaseForm | None = None) -> None:
    """Put the error on the form field it names, else show it as a message at the top of the page."""
    if form is not None and exc.field in form.fields:
        form.add_error(exc.field, str(exc))
    else:
        messages.error(request, str(exc))


def command_run(
    request: HttpRequest,
    command: Callable[..., Any],
    *,
    success: str | None = None,
    form: forms.BaseForm | None = None,
    refused: Callable[[NcpcError], object] | None = None,
    **kwargs: Any,
) -> Any:
    """Run a service command as the user; return its result, or None when it refused.

    A refusal becomes a message (someone else's change meanwhile a warning: reload and try again), or goes on
    ``form``'s field it names (``error_show``); a page that says it otherwise passes ``refused``, called with
    the error instead. On success ``success``, formatted with ``result``, is shown.
    """
    try:
        result = command(actor=request.user, **kwargs)
    except ConcurrentChange as exc:
        messages.warning(request, str(exc))
        return None
    except NcpcError as exc:
        if refused is not None:
            refused(exc)
        else:
            error_show(request, exc, form=form)
        return None
    if success:
        messages.success(request, success.format(result=result))
    return result

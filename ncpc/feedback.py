"""Turning a broken club rule (NcpcError) into feedback on the page, the same way in every view."""

from django.contrib import messages

from ncpc.errors import NcpcError


def error_show(request, exc: NcpcError, *, form=None) -> None:
    """Put the error on the form field it names, else show it as a message at the top of the page."""
    if form is not None and exc.field in form.fields:
        form.add_error(exc.field, str(exc))
    else:
        messages.error(request, str(exc))

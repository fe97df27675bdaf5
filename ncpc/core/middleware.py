"""Requests the app refuses before any view sees them, and what one request remembers while it runs."""

import contextvars
from collections.abc import Callable
from typing import Any, TypeVar

from django.http import HttpRequest, HttpResponseBadRequest
from django.http.response import HttpResponseBase

R = TypeVar("R")

NUL = "\x00"


def _has_nul(request: HttpRequest) -> bool:
    if NUL in request.path:
        return True
    for data in (request.GET, request.POST):
        for key, values in data.lists():
            if NUL in key or any(isinstance(v, str) and NUL in v for v in values):
                return True
    return False


class RefuseNulMiddleware:
    """A NUL character is never part of a name, a reason or an address the club types. PostgreSQL refuses it
    in any text it is given (a 500 deep inside a query), SQLite stores it silently; so the request is
    refused at the door with 400, the same on both databases, whether it came in the path, the query string
    or a posted form."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if _has_nul(request):
            return HttpResponseBadRequest(
                "The request contains a NUL character (\\0), which no field of this site accepts.",
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)


_request_values: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "ncpc_request_values", default=None
)


def request_memo(key: str, compute: Callable[[], R]) -> R:
    """``compute()`` once for the rest of the request: a value many parts of one page ask for (the club's
    identity). Outside a request (a management command, the mail worker) it is computed every time, so
    nothing is ever kept from one request to the next."""
    values = _request_values.get()
    if values is None:
        return compute()
    if key not in values:
        values[key] = compute()
    value: R = values[key]
    return value


def request_memo_forget() -> None:
    """This request changed what it remembered (the club identity's own form): read it again next time."""
    values = _request_values.get()
    if values is not None:
        values.clear()


class RequestMemoMiddleware:
    """Each request starts with nothing remembered and leaves nothing behind."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        token = _request_values.set({})
        try:
            return self.get_response(request)
        finally:
            _request_values.reset(token)

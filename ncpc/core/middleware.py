"""Requests the app refuses before any view sees them."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBadRequest
from django.http.response import HttpResponseBase

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

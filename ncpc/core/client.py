"""The client's address, as the app's own proxies saw it.

Behind ``TRUSTED_PROXIES`` proxies (1 for the documented nginx), each proxy appends the address it received
the request from to ``X-Forwarded-For``; the entries before the trusted ones were written by the client and
prove nothing. So the client is the entry the outermost trusted proxy added: the ``TRUSTED_PROXIES``-th from
the right. Without proxies the address is the connection's (``REMOTE_ADDR``).
"""

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _valid(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_address(request: HttpRequest) -> str | None:
    """The address login throttling and reset limits count by (also django-axes' AXES_CLIENT_IP_CALLABLE);
    None when the request carries none (a request made in code)."""
    remote = request.META.get("REMOTE_ADDR", "") or ""
    proxies = settings.NCPC_TRUSTED_PROXIES
    if proxies:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [part for part in forwarded if part]
        if forwarded:
            # Fewer entries than trusted proxies: the request skipped some; the leftmost is the best we know.
            found = _valid(forwarded[-proxies] if len(forwarded) >= proxies else forwarded[0])
            if found:
                return found
    return _valid(remote)

"""Read-only pages of the Django admin (SPEC §16.11: the admin cannot rewrite history).

Results, nights, who's-coming answers, seats, a season's rules and money change only through the club's pages
and commands, which check them and write an audit row; the admin shows these records and changes none: no add,
no change, no delete (and so no "delete selected" action). Each app registers its models with these classes in
its own ``admin.py``.
"""

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

KEPT_AS_RECORDED = (
    "Results, nights, answers and money are kept as recorded: the admin shows them and cannot add, change or "
    "delete them. Corrections go through the club's own pages, which check them and keep an audit trail."
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """A model the admin shows and never changes."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def delete_view(self, request: HttpRequest, object_id: str, extra_context: Any = None) -> HttpResponse:
        # Say why, rather than the admin's bare refusal.
        raise PermissionDenied(KEPT_AS_RECORDED)

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> HttpResponse:
        raise PermissionDenied(KEPT_AS_RECORDED)


class ReadOnlyTabularInline(admin.TabularInline):
    """Rows shown under their parent, read-only like it."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

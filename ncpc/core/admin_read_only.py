"""Read-only pages of the Django admin (SPEC §16.11: the admin cannot rewrite history).

Results, nights, who's-coming answers, seats, a season's rules and money change only through the club's pages
and commands, which check them and write an audit row; the admin shows these records and changes none: no add,
no change, no delete (and so no "delete selected" action). Each app registers its models with these classes in
its own ``admin.py``.
"""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest


class ReadOnlyAdmin(admin.ModelAdmin):
    """A model the admin shows and never changes."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


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

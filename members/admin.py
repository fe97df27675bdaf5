from django.contrib import admin

from members.models import Membership, OfficerTerm, Person


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ("full_name", "key", "email", "user", "is_professional")
    search_fields = ("first_name", "last_name", "key", "email")
    prepopulated_fields = {"key": ("first_name",)}


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("person", "season", "first_event", "left_after_event", "how_left")
    list_filter = ("season",)


@admin.register(OfficerTerm)
class OfficerTermAdmin(admin.ModelAdmin):
    list_display = ("person", "office", "start", "end")
    list_filter = ("office",)

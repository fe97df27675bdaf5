from django.contrib import admin

from members.models import Ballot, Membership, OfficerTerm, Person, RuleChange, Ruling, Vote


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


# Governance (issue 10). Counts and participations are not in the admin: a vote is cast on the ballot page.


@admin.register(Vote)
class VoteAdmin(admin.ModelAdmin):
    list_display = ("held_on", "kind", "subject", "yes", "no", "abstain", "members_eligible")
    list_filter = ("kind", "season")


@admin.register(Ballot)
class BallotAdmin(admin.ModelAdmin):
    list_display = ("title", "season", "kind", "status", "opened_on", "closed_on", "published_on")
    list_filter = ("kind", "status")
    readonly_fields = ("status", "opened_on", "closed_on", "published_on", "members_eligible")


@admin.register(RuleChange)
class RuleChangeAdmin(admin.ModelAdmin):
    list_display = ("__str__", "season", "submitted_by", "status", "apply_state", "applies_to")
    list_filter = ("status", "apply_state")


@admin.register(Ruling)
class RulingAdmin(admin.ModelAdmin):
    list_display = ("event", "hand", "parties", "ruled_by")

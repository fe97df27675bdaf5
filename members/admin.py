from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import User

from members.models import Ballot, Membership, OfficerTerm, Person, RuleChange, Ruling, Vote
from members.services.logins import username_problem
from members.services.officers import officer_term_overlap
from ncpc.core.admin_read_only import ReadOnlyAdmin


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ("full_name", "key", "email", "user", "is_professional")
    search_fields = ("first_name", "last_name", "key", "email")
    prepopulated_fields = {"key": ("first_name",)}


# SPEC §16.11: a seat's terms (first event, when and how it left, the seat it continues) decide its dues and its
# standing, so seats are read-only here; admissions, withdrawals, seat sales and removals are the club's audited
# commands.
@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin):
    list_display = ("person", "season", "first_event", "left_after_event", "how_left")
    list_filter = ("season",)
    list_select_related = ("person", "season")


class OfficerTermAdminForm(forms.ModelForm):
    """One holder of an office at a time, in the admin as on the election pages (the service's check)."""

    class Meta:
        model = OfficerTerm
        fields = ("person", "office", "start", "end")

    def clean(self):
        super().clean()
        data = self.cleaned_data
        office, start, end = data.get("office"), data.get("start"), data.get("end")
        if office and start and end:
            if end < start:
                raise forms.ValidationError("A term cannot end before it starts.")
            if problem := officer_term_overlap(
                office=office, start=start, end=end, exclude_pk=self.instance.pk
            ):
                raise forms.ValidationError(problem)
        return data


@admin.register(OfficerTerm)
class OfficerTermAdmin(admin.ModelAdmin):
    form = OfficerTermAdminForm
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


# Logins made or renamed in the admin follow the club's rules for usernames (SPEC §17.6): ASCII, and not another
# login's name in other capitals.
class _UsernameChecked(forms.ModelForm):
    def clean_username(self) -> str:
        username = self.cleaned_data.get("username", "")
        if self.instance.pk is not None and username == self.instance.username:
            return username  # unchanged: a name from before the rule stays usable
        if problem := username_problem(username, exclude_pk=self.instance.pk):
            raise forms.ValidationError(problem)
        return username


class LoginCreationForm(_UsernameChecked, AdminUserCreationForm):
    pass


class LoginChangeForm(_UsernameChecked, UserChangeForm):
    pass


class LoginAdmin(UserAdmin):
    add_form = LoginCreationForm
    form = LoginChangeForm


admin.site.unregister(User)
admin.site.register(User, LoginAdmin)

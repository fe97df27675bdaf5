from django.contrib import admin

from events.models import BlindLevel, DuesInstallment, Event, PayoutRow, Season, Venue, WsopRow


class PayoutInline(admin.TabularInline):
    model = PayoutRow
    extra = 0


class WsopInline(admin.TabularInline):
    model = WsopRow
    extra = 0


class DuesInline(admin.TabularInline):
    model = DuesInstallment
    extra = 0


class BlindInline(admin.TabularInline):
    model = BlindLevel
    extra = 0


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "start", "end", "max_members", "dues_per_event")
    inlines = (DuesInline, PayoutInline, WsopInline, BlindInline)


@admin.register(Venue)
class VenueAdmin(admin.ModelAdmin):
    list_display = ("name", "address", "active")


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("season", "number", "date", "venue", "status")
    list_filter = ("season", "status")

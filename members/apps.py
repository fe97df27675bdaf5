from django.apps import AppConfig


class MembersConfig(AppConfig):
    name = "members"

    def ready(self) -> None:
        # Members answers the questions of the layers below it (see ncpc.core.hooks).
        from events import hooks as events_hooks
        from members import receivers, selectors  # noqa: F401  (receivers: events' signals)
        from ncpc.core import permissions

        events_hooks.event_roster.connect(selectors.roster_for_event)
        events_hooks.rules_signed.connect(selectors.rules_signed)
        events_hooks.people_named.connect(selectors.people_named)
        events_hooks.person_banned.connect(selectors.person_banned)
        events_hooks.seats_held.connect(selectors.current_member_count)
        events_hooks.month_votes.connect(selectors.two_events_votes)
        permissions.login_standing.connect(selectors.login_standing)

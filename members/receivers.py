"""Members listens to events' signals (events does not import members)."""

from django.dispatch import receiver

from events.signals import season_created
from members.services.rule_changes import rule_changes_apply_pending


@receiver(season_created, dispatch_uid="members_rule_changes_apply_pending")
def season_created_rule_changes(sender, season, rules_copied, actor, **kwargs):
    # Rule changes the club adopted for this season (§3.4.4) land on top of the copied rules, in the same
    # transaction; a season given its rules (a season file) is taken as it is.
    if rules_copied:
        rule_changes_apply_pending(season=season, actor=actor)

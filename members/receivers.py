"""Members listens to events' signals (events does not import members)."""

from django.db.models.signals import post_save
from django.dispatch import receiver

from events.signals import season_created
from members.models import Person
from members.services.logins import person_login_email_sync
from members.services.rule_changes import rule_changes_apply_pending


@receiver(season_created, dispatch_uid="members_rule_changes_apply_pending")
def season_created_rule_changes(sender, season, rules_copied, actor, **kwargs):
    # Rule changes the club adopted for this season (§3.4.4) land on top of the copied rules, in the same
    # transaction; a season given its rules (a season file) is taken as it is.
    if rules_copied:
        rule_changes_apply_pending(season=season, actor=actor)


@receiver(post_save, sender=Person, dispatch_uid="members_person_login_email")
def person_saved_login_email(sender, instance, raw=False, **kwargs):
    # One address (SPEC §16.8): whatever saved the person (a page, an import, the admin), the login's e-mail
    # follows the person's. Bulk updates send no signal: they call person_login_email_sync themselves.
    if not raw:
        person_login_email_sync(person=instance)

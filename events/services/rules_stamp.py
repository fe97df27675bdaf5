"""A season's rule tables changed: give the season a new ``rules_stamp``, so the tables kept in memory under
the old one (``events.selectors.season_rules``) are never read again.

The services that write the tables call ``season_rules_touched``; as a safety net, every save or delete of a
table's row does too (``events.apps``). ``QuerySet.update()`` and ``bulk_create`` send no signals: code using
them on a table must call it itself, in the same transaction.
"""

from typing import Any

from events.models import BlindLevel, DuesInstallment, PayoutRow, Season, WsopRow, rules_stamp_new

RULE_TABLE_ROW_MODELS = (DuesInstallment, PayoutRow, WsopRow, BlindLevel)


def season_rules_touched(*, season_id: int) -> None:
    Season.objects.filter(pk=season_id).update(rules_stamp=rules_stamp_new())


def _row_changed(sender: type, instance: Any, **kwargs: object) -> None:
    season_rules_touched(season_id=instance.season_id)


def rules_stamp_watch() -> None:
    from django.db.models.signals import post_delete, post_save

    for model in RULE_TABLE_ROW_MODELS:
        uid = f"events.rules_stamp:{model._meta.label}"
        post_save.connect(_row_changed, sender=model, dispatch_uid=uid)
        post_delete.connect(_row_changed, sender=model, dispatch_uid=uid)

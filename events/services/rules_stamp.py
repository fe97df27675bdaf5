"""A season's rule tables changed: give the season a new ``rules_stamp``, so the tables kept in memory under
the old one (``events.selectors.season_rules``) are never read again. Written in the transaction that makes
the change, so a reader sees the new stamp only together with the new rows; this process also forgets what
it kept under the old stamp (``ncpc.core.cache.stamped_forget``), as a season object read before the change
still carries it.

The services that write the tables call ``season_rules_touched``; as a safety net, every save or delete of a
table's row does too (``events.apps``). ``QuerySet.update()`` and ``bulk_create`` send no signals: code using
them on a table must call it itself, in the same transaction.

(The seasons themselves, and a season's memberships and events, are kept under the club-wide roster version
instead: ``ncpc.core.cache.roster_kept``; a new stamp moves it too.)
"""

from typing import Any

from events.models import BlindLevel, DuesInstallment, PayoutRow, Season, WsopRow, rules_stamp_new
from ncpc.core.cache import roster_bump, stamped_forget

RULE_TABLE_ROW_MODELS = (DuesInstallment, PayoutRow, WsopRow, BlindLevel)


def season_rules_touched(*, season_id: int) -> None:
    Season.objects.filter(pk=season_id).update(rules_stamp=rules_stamp_new())
    # The seasons are kept under the roster version (events.selectors.seasons_all) and update() sends no
    # signal: the new stamp must reach them.
    roster_bump()
    stamped_forget(f"rules:{season_id}:")


def _row_changed(sender: type, instance: Any, **kwargs: object) -> None:
    season_rules_touched(season_id=instance.season_id)


def rules_stamp_watch() -> None:
    from django.db.models.signals import post_delete, post_save

    for model in RULE_TABLE_ROW_MODELS:
        uid = f"events.rules_stamp:{model._meta.label}"
        post_save.connect(_row_changed, sender=model, dispatch_uid=uid)
        post_delete.connect(_row_changed, sender=model, dispatch_uid=uid)

"""A season's stamps: give the season a new ``rules_stamp`` when its rule tables change, a new
``roster_stamp`` when its roster or schedule does, so that what is kept in memory under the old stamp
(``events.selectors.season_rules``, ``season_events``, ``members.selectors.season_memberships``) is never read
again. Written in the transaction that makes the change, so a reader sees the new stamp only together with the
new rows; this process also forgets what it kept under the old stamp (``ncpc.core.cache.stamped_forget``),
as a season object read before the change still carries it.

The services that write the rule tables call ``season_rules_touched``; as a safety net, every save or delete
of a table's row does too (``events.apps``). Likewise every save or delete of an event or a venue
(``events.apps``), of a membership or a person (``members.apps``) calls ``season_roster_touched``.
``QuerySet.update()``, ``bulk_create`` and ``bulk_update`` send no signals: code using them on one of these
tables must call the function itself, in the same transaction.
"""

from typing import Any

from django.db.models import Model

from events.models import (
    BlindLevel,
    DuesInstallment,
    Event,
    PayoutRow,
    Season,
    Venue,
    WsopRow,
    rules_stamp_new,
)
from ncpc.core.cache import stamped_forget

RULE_TABLE_ROW_MODELS = (DuesInstallment, PayoutRow, WsopRow, BlindLevel)


def season_rules_touched(*, season_id: int) -> None:
    Season.objects.filter(pk=season_id).update(rules_stamp=rules_stamp_new())
    stamped_forget(f"rules:{season_id}:")


def season_roster_touched(*, season_id: int | None) -> None:
    """The season's memberships, their people, its events or their venues changed; ``None``: every season's
    (a person or a venue belongs to no one season)."""
    seasons = Season.objects.all() if season_id is None else Season.objects.filter(pk=season_id)
    seasons.update(roster_stamp=rules_stamp_new())
    which = "" if season_id is None else f"{season_id}:"
    stamped_forget(f"events:{which}")
    stamped_forget(f"memberships:{which}")


def _row_changed(sender: type, instance: Any, **kwargs: object) -> None:
    season_rules_touched(season_id=instance.season_id)


def _season_row_changed(sender: type, instance: Any, **kwargs: object) -> None:
    """An event or a membership: its season's roster stamp."""
    season_roster_touched(season_id=instance.season_id)


def _shared_row_changed(sender: type, instance: Any, **kwargs: object) -> None:
    """A venue or a person: every season's."""
    season_roster_touched(season_id=None)


def stamps_watch(*, seasonal: tuple[type[Model], ...], shared: tuple[type[Model], ...]) -> None:
    """Move the roster stamp on every save and delete of these models: ``seasonal`` ones have a ``season_id``."""
    from django.db.models.signals import post_delete, post_save

    for models, receiver in ((seasonal, _season_row_changed), (shared, _shared_row_changed)):
        for model in models:
            uid = f"events.roster_stamp:{model._meta.label}"
            post_save.connect(receiver, sender=model, dispatch_uid=uid)
            post_delete.connect(receiver, sender=model, dispatch_uid=uid)


def rules_stamp_watch() -> None:
    from django.db.models.signals import post_delete, post_save

    for model in RULE_TABLE_ROW_MODELS:
        uid = f"events.rules_stamp:{model._meta.label}"
        post_save.connect(_row_changed, sender=model, dispatch_uid=uid)
        post_delete.connect(_row_changed, sender=model, dispatch_uid=uid)
    stamps_watch(seasonal=(Event,), shared=(Venue,))

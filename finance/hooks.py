"""What finance asks of the apps above it (standings), answered in their ``AppConfig.ready()`` (see ncpc.hooks)."""

from ncpc.hooks import Hook

# membership id → WSOP status of the season's standings ("qualified", "replacement", "declined", …)
wsop_statuses: Hook[..., dict[int, str]] = Hook("wsop_statuses(season)", "standings")

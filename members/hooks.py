"""What members asks of the apps above it (finance), answered in their ``AppConfig.ready()`` (see ncpc.hooks)."""

from ncpc.hooks import Hook

dues_paid_up: Hook[..., bool] = Hook("dues_paid_up(membership, on)", "finance")

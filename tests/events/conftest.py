import pytest


@pytest.fixture(autouse=True)
def everyone_eligible(monkeypatch):
    """Results tests start with every member in good standing and signed; refusal tests switch one off.

    (Good standing and signatures belong to finance and members; their own tests cover them.)
    """
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)

import pytest


@pytest.fixture(autouse=True)
def everyone_eligible(monkeypatch):
    """Results tests start with every member in good standing and signed; refusal tests switch one off.

    (Good standing and signatures belong to finance and members; their own tests cover them.)
    """
    monkeypatch.setattr("finance.selectors.good_standing", lambda *, membership, on: True)
    monkeypatch.setattr("members.selectors.rules_signed", lambda *, membership: True)

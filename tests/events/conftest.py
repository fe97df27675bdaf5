import pytest


@pytest.fixture(autouse=True)
def everyone_eligible(monkeypatch):
    """Results tests start with every member in good standing and signed; refusal tests switch one off.

    (Good standing and signatures belong to finance and members; their own tests cover them.)
    """
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)


@pytest.fixture
def stamped_on(settings):
    """What is kept under a stamp or the roster version (ncpc.core.cache.stamped, roster_kept) kept, as in
    production; the tests run with it off. Such tests need real transactions: nothing is kept inside one."""
    from ncpc.core.cache import computed_forget

    settings.NCPC_STAMPED_CACHE = True
    computed_forget()
    yield
    computed_forget()

"""End-to-end tests in Debian's Chromium driven by Playwright, against pytest-django's live_server.

They run whenever /usr/bin/chromium exists and are skipped (with a clear reason) otherwise; CI sets
NCPC_REQUIRE_BROWSER=1 so a missing browser fails instead of skipping. A failing test leaves a
screenshot in test-artifacts/.
"""

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("NCPC_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# Playwright's sync API runs an event loop in this thread; Django's ORM is safe to use here in tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def _browser_missing_reason() -> str | None:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"browser tests skipped: no Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "browser tests skipped: the playwright package is not installed"
    return None


def pytest_collection_modifyitems(config, items):
    reason = _browser_missing_reason()
    if reason is None:
        return
    if os.environ.get("NCPC_REQUIRE_BROWSER") == "1":
        raise pytest.UsageError(reason.replace("skipped", "required (NCPC_REQUIRE_BROWSER=1)"))
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


def _page(browser, request, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()


@pytest.fixture
def page(browser, request):
    yield from _page(browser, request, DESKTOP)


@pytest.fixture
def phone(browser, request):
    yield from _page(browser, request, PHONE)


# Logging in hashes a password and renders the home page: under CI load it once took longer than the
# pages' default 10 s.
LOGIN_TIMEOUT = 30_000


def login(page, live_server, username: str, password: str = "pw-for-tests-123") -> None:
    page.goto(f"{live_server.url}/accounts/login/", timeout=LOGIN_TIMEOUT)
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/", timeout=LOGIN_TIMEOUT)

"""Fixtures for the browser tests: one real `conclave serve` (embedded storage) and one headless
Chromium (Debian's, driven by Playwright; Playwright's own browser download is not used).
Locally a missing browser skips these tests with the reason; under CI=true it fails them."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.api.conftest import server_factory, storage_env
from tests.api.services import IN_CI, ROOT

ARTIFACTS = ROOT / "test-artifacts"


def need_browser(why: str) -> None:
    message = f"the browser tests need headless Chromium and Playwright: {why}"
    if IN_CI:
        pytest.fail(f"{message} (CI must run them)")
    pytest.skip(message)


def chromium_path() -> str | None:
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


@pytest.fixture(scope="module")
def browser():
    """Module scope, not session: Playwright's sync API keeps an event loop running while it
    is started, and tests of other modules on the same worker call asyncio.run()."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        need_browser(f"the playwright package is not installed ({exc})")
    executable = chromium_path()
    if executable is None:
        need_browser("no chromium executable on PATH or at /usr/bin/chromium (Debian: apt-get install chromium)")
    manager = sync_playwright().start()
    try:
        launched = manager.chromium.launch(executable_path=executable, args=["--no-sandbox"], timeout=30_000)
    except Exception as exc:  # present but unusable
        manager.stop()
        need_browser(f"{executable} did not start ({exc})")
    try:
        yield launched
    finally:
        launched.close()
        manager.stop()


@pytest.fixture(scope="session")
def web_server(tmp_path_factory):
    """One server for all browser tests of this worker (each test makes its own tables)."""
    tmp = tmp_path_factory.mktemp("web")
    with storage_env("embedded", tmp) as env, server_factory(env, tmp) as make:
        yield make()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS

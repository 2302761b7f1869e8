"""A third-party module installs as its own distribution and joins through the `conclave`
entry-point group: built into a temporary folder with pip, found by importlib.metadata."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core import Registry
from core.bot import play_game
from core.plugins import BUILTIN_PLUGINS

PACKAGE = Path(__file__).resolve().parents[1] / "thirdparty" / "royal_banquet"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "--target", str(target), str(PACKAGE)], check=True)
    sys.path.insert(0, str(target))
    yield target
    sys.path.remove(str(target))
    for name in [m for m in sys.modules if m.startswith("conclave_royal_banquet")]:
        del sys.modules[name]


def test_an_installed_module_is_found_through_its_entry_point_and_plays(installed, monkeypatch):
    import core.plugins

    registry = Registry(list(BUILTIN_PLUGINS))  # loads the `conclave` entry points
    assert registry.modules["royal-banquet"].game == "new-capital"
    monkeypatch.setattr(core.plugins, "_DEFAULT", {(): registry})  # no operator packs
    with_banquet = play_game("new-capital", 3, 5, modules=["royal-banquet"], check_invariants=True)
    assert with_banquet.table.state.finished and not with_banquet.invariant_errors
    assert with_banquet.table.state.module_state["royal-banquet"]["banquets"] == with_banquet.table.state.round


def test_the_module_changes_crisis_totals_through_the_games_extension_point(installed, monkeypatch):
    import core.plugins
    from tests.new_capital.harness import auto, new_game

    monkeypatch.setattr(core.plugins, "_DEFAULT", {(): Registry(list(BUILTIN_PLUGINS))})
    checks = {}
    for modules in ([], ["royal-banquet"]):
        table = new_game(2, seed=4, modules=modules)
        events = auto(table, until=lambda t: t.state.round >= 2)
        checks[bool(modules)] = [e.data["totals"] for e in events if e.type == "crisis_check"]
    assert len(checks[True]) == len(checks[False]) == 2  # round 1: warfare, then political
    for plain, banquet in zip(checks[False], checks[True]):
        assert {s: v + 1 for s, v in plain.items()} == banquet

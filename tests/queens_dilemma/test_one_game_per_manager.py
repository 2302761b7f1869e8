"""The game's hooks do not ask which game a state belongs to: a table's plugin manager holds
its own game and enabled modules only. The one hook run on the registry's manager of every
game, `conclave_table_warnings`, keeps its check."""
from __future__ import annotations

from core import default_registry
from plugins.queens_dilemma import plugin

GAME = "queens-dilemma"


def test_a_tables_manager_holds_only_its_game_and_enabled_modules():
    registry = default_registry()
    assert [n for n, _ in registry.rules_for(GAME, []).pm.list_name_plugin()] == [f"game:{GAME}"]
    assert [n for n, _ in registry.rules_for(GAME, ["age-of-disorder"]).pm.list_name_plugin()] == [
        f"game:{GAME}", "module:age-of-disorder"]
    assert [n for n, _ in registry.rules_for("new-capital", []).pm.list_name_plugin()] == ["game:new-capital"]


def test_table_warnings_run_for_every_game_and_say_nothing_of_another():
    assert plugin.conclave_table_warnings(game="new-capital", players=3, options={"characters": ["Syd"]},
                                          modules=[]) is None
    registry = default_registry()
    assert registry.check_table(GAME, [], 3, {"characters": ["Aesyas", "Lyrie", "Syd"]})  # QD-027

"""Content packs are validated on load: a corrupt file gets a clear ContentError."""
from __future__ import annotations

import shutil

import pytest
from typer.testing import CliRunner

from api.cli import app
from core import create_table
from core.errors import ContentError
from plugins.new_capital.content import DEFAULT_PACK, load_pack
from tests.content_files import copy_folder, edit_json, registry_with_pack


@pytest.fixture
def pack_copy(tmp_path):
    return copy_folder(DEFAULT_PACK, tmp_path, "pack")


def test_the_demo_pack_loads_and_every_card_is_marked_demo():
    pack = load_pack(DEFAULT_PACK)
    cards = [*pack.actions.values(), *pack.structures.values(), *pack.leaders.values(),
             *pack.crises.values(), *pack.hunger.values()]
    assert cards and all(c.demo for c in cards)


@pytest.mark.parametrize("name,change,message", [
    ("structures.json", lambda d: d.pop(), "60 structure cards"),
    ("crises.json", lambda d: d[0].update(level=7), "crisis cards of level"),
    ("leaders.json", lambda d: d[0].update(faction="pirates"), "unknown faction"),
    ("actions.json", lambda d: d[0].update(colour="green"), "unknown field"),
    ("hunger.json", lambda d: d[0].update(support="lots"), "Expected `array`"),
    ("board.json", lambda d: d.update(seal_slots=[False] * 8), "9 seal slots"),
])
def test_corrupt_content_is_refused_with_a_message_naming_the_problem(pack_copy, name, change, message):
    edit_json(pack_copy, name, change)
    with pytest.raises(ContentError, match=message):
        load_pack(pack_copy)


def test_broken_json_and_missing_files_are_content_errors(pack_copy):
    (pack_copy / "crises.json").write_text("[{not json")
    with pytest.raises(ContentError, match="crises.json: not valid JSON"):
        load_pack(pack_copy)
    (pack_copy / "crises.json").unlink()
    with pytest.raises(ContentError, match="cannot read"):
        load_pack(pack_copy)


def test_a_table_can_use_another_pack_and_a_bad_one_is_refused_at_creation(pack_copy, tmp_path):
    edit_json(pack_copy, "structures.json", lambda d: [s.update(name=s["name"] + " (alt)") for s in d])
    table = create_table("new-capital", 2, seed=1, options={"pack": "alt"}, registry=registry_with_pack(pack_copy, "alt"))
    assert table.state.pack == str(pack_copy) and table.view(None)["pack"] == "alt"
    broken = tmp_path / "broken"
    shutil.copytree(pack_copy, broken)
    (broken / "board.json").write_text("[]")
    with pytest.raises(ContentError):
        create_table("new-capital", 2, seed=1, options={"pack": "broken"}, registry=registry_with_pack(broken, "broken"))


def test_content_validate_command(pack_copy):
    runner = CliRunner()
    ok = runner.invoke(app, ["content", "validate"])
    assert ok.exit_code == 0 and ok.output.startswith("ok:")
    edit_json(pack_copy, "crises.json", lambda d: d.pop())
    bad = runner.invoke(app, ["content", "validate", str(pack_copy)])
    assert bad.exit_code == 1 and "18 crisis cards" in bad.output

"""The campaign box loads only when every file is well formed and consistent: a corrupt,
unknown or inconsistent file is refused at load with the file and the field named."""
from __future__ import annotations


import pytest

from core.errors import ContentError
from plugins.queens_dilemma.content import DEFAULT_BOX, load_box
from tests.content_files import copy_folder, edit_json


@pytest.fixture
def box_copy(tmp_path):
    return copy_folder(DEFAULT_BOX, tmp_path, "box")


def test_the_demo_box_loads_and_every_card_is_marked_demo():
    box = load_box()
    assert len(box.dilemmas) > 60 and len(box.endings) == 21 and len(box.investments) == 7
    assert all(d.demo for d in box.dilemmas.values()) and all(a.demo for a in box.agendas.values())


def test_a_file_that_is_not_json_is_refused_naming_it(box_copy):
    (box_copy / "dilemmas.json").write_text("[{not json")
    with pytest.raises(ContentError, match=r"dilemmas\.json: not valid JSON"):
        load_box(box_copy)


def test_a_wrong_field_type_is_refused_naming_file_and_field(box_copy):
    edit_json(box_copy, "chronicles.json", lambda d: d[0].update(duration="three"))
    with pytest.raises(ContentError, match=r"chronicles\.json: .*duration"):
        load_box(box_copy)


def test_an_unknown_field_is_refused(box_copy):
    edit_json(box_copy, "agendas.json", lambda d: d[0].update(colour="blue"))
    with pytest.raises(ContentError, match=r"agendas\.json: .*colour"):
        load_box(box_copy)


def test_an_unknown_content_file_is_refused(box_copy):
    (box_copy / "spells.json").write_text("[]")
    with pytest.raises(ContentError, match=r"spells\.json: unknown content file"):
        load_box(box_copy)


def test_a_code_pointing_nowhere_is_refused_with_where_it_is(box_copy):
    def break_first_envelope_opener(d):
        for card in d:
            if card["aye"].get("envelopes"):
                card["aye"]["envelopes"] = ["99"]
                return
    edit_json(box_copy, "dilemmas.json", break_first_envelope_opener)
    with pytest.raises(ContentError, match=r"dilemmas\.json: D\w+\.aye\.envelopes: unknown envelope '99'"):
        load_box(box_copy)


def test_a_points_loss_is_refused_since_points_are_only_gained(box_copy):
    """QD-295."""
    edit_json(box_copy, "investments.json", lambda d: d[0]["failure"].append({"op": "lose", "what": "hegemony", "n": 1}))
    with pytest.raises(ContentError, match=r"investments\.json: I\d.*lose a Resource or Power"):
        load_box(box_copy)


def test_a_missing_file_is_refused(box_copy):
    (box_copy / "skills.json").unlink()
    with pytest.raises(ContentError, match=r"skills\.json"):
        load_box(box_copy)


def _all_boxes_and_effects(box):
    boxes, effects = [], []
    for d in box.dilemmas.values():
        for o in (d.aye, d.nay):
            boxes += o.boxes
    for s in box.stories.values():
        boxes += s.boxes
    for m in box.mysteries.values():
        boxes += m.boxes
    for e in box.events.values():
        boxes += e.setup + e.resolve
        effects += e.action.effects if e.action else []
    for c in box.chronicles.values():
        boxes += c.boxes
        effects += c.herald_effects + (c.action.effects if c.action else [])
    for a in box.agendas.values():
        effects += a.success + a.failure + a.reward + [e for o in a.options for e in o.effects]
    for i in box.investments.values():
        effects += i.success + i.failure
    for s in box.skills.values():
        effects += s.action.effects
    return boxes, effects + [e for b in boxes for e in b.effects]


def test_the_demo_campaign_uses_every_effect_type_trigger_target_and_band():
    """The issue's content promise, checked on the data itself (ruling QD-R3)."""
    from plugins.queens_dilemma.content import BANDS, BUILDING_TYPES, TARGET_KINDS, TRIGGERS

    box = load_box()
    boxes, effects = _all_boxes_and_effects(box)
    ops = {e.op for e in effects}
    # Envelopes and Mystery boxes are printed as an outcome's lists, Endings on a final Story
    assert ops | {"envelope", "mystery", "ending"} >= {"gain", "lose", "push", "agenda", "chronicle", "building",
                                                      "keyword", "skill", "ongoing", "fate"}
    assert any(o.envelopes for d in box.dilemmas.values() for o in (d.aye, d.nay))
    assert any(o.mysteries for d in box.dilemmas.values() for o in (d.aye, d.nay))
    assert any(s.ending for s in box.stories.values())
    assert {e.what for e in effects if e.op == "gain"} >= {"gold", "food", "army", "materials", "power",
                                                          "hegemony", "independence", "infamy"}
    assert {e.what for e in effects if e.op == "lose"} >= {"gold", "food", "army", "materials", "power"}
    assert any(e.bag for e in effects)
    assert {b.to for b in boxes} >= set(TARGET_KINDS) - {"self"}
    assert {b.trigger.when for b in boxes if b.trigger} == set(TRIGGERS)
    assert {band for c in box.chronicles.values() for band in c.bands} == set(BANDS)
    assert {b.of for b in boxes if b.to == "buildings"} <= set(BUILDING_TYPES)
    heralds = {c.herald for c in box.chronicles.values()}
    assert "brand" in heralds and "none" in heralds and heralds & set(box.characters)
    assert {a.kind for a in box.agendas.values()} == {"storyline", "crossroad", "epilogue", "ongoing", "general"}

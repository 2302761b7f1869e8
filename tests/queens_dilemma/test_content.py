"""The campaign box loads only when every file is well formed and consistent: a corrupt,
unknown or inconsistent file is refused at load with the file and the field named."""
from __future__ import annotations

import json
import shutil

import pytest

from core.errors import ContentError
from plugins.queens_dilemma.content import DEFAULT_BOX, load_box


@pytest.fixture
def box_copy(tmp_path):
    folder = tmp_path / "box"
    shutil.copytree(DEFAULT_BOX, folder)
    return folder


def _edit(folder, name, change):
    path = folder / name
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_the_demo_box_loads_and_every_card_is_marked_demo():
    box = load_box()
    assert len(box.dilemmas) > 60 and len(box.endings) == 21 and len(box.investments) == 7
    assert all(d.demo for d in box.dilemmas.values()) and all(a.demo for a in box.agendas.values())


def test_a_file_that_is_not_json_is_refused_naming_it(box_copy):
    (box_copy / "dilemmas.json").write_text("[{not json")
    with pytest.raises(ContentError, match=r"dilemmas\.json: not valid JSON"):
        load_box(box_copy)


def test_a_wrong_field_type_is_refused_naming_file_and_field(box_copy):
    _edit(box_copy, "chronicles.json", lambda d: d[0].update(duration="three"))
    with pytest.raises(ContentError, match=r"chronicles\.json: .*duration"):
        load_box(box_copy)


def test_an_unknown_field_is_refused(box_copy):
    _edit(box_copy, "agendas.json", lambda d: d[0].update(colour="blue"))
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
    _edit(box_copy, "dilemmas.json", break_first_envelope_opener)
    with pytest.raises(ContentError, match=r"dilemmas\.json: D\w+\.aye\.envelopes: unknown envelope '99'"):
        load_box(box_copy)


def test_a_points_loss_is_refused_since_points_are_only_gained(box_copy):
    """QD-295."""
    _edit(box_copy, "investments.json", lambda d: d[0]["failure"].append({"op": "lose", "what": "hegemony", "n": 1}))
    with pytest.raises(ContentError, match=r"investments\.json: I\d.*lose a Resource or Power"):
        load_box(box_copy)


def test_a_missing_file_is_refused(box_copy):
    (box_copy / "skills.json").unlink()
    with pytest.raises(ContentError, match=r"skills\.json"):
        load_box(box_copy)

"""The Queen's Dilemma's glossary names the whole map of Ankist for every viewer: a table view
draws every Region (its base Building and what it produces) before any Region is chosen, and
a spectator sees the same map. Region faces are printed on the board: public (QD-008 lists
the secrets, and no Region is among them)."""
from __future__ import annotations

from core.engine import view
from tests.queens_dilemma.harness import BOX, start


def test_every_viewer_gets_every_region_before_the_regions_are_chosen():
    table = start(None, players=3, seed=5)
    assert not table.state.campaign.regions_chosen  # the first Region pick is open
    owned = {r for d in table.state.campaign.diaries for r in d.regions + d.vassals}
    assert owned == set()
    for viewer in (0, 1, 2, None):
        shown = view(table.rules, table.state, viewer)
        glossary = {}
        for part in table.rules.hook.conclave_glossary(state=table.state, viewer=viewer, view=shown):
            glossary.update(part or {})
        regions = {k: v for k, v in glossary.items() if v["kind"] == "region"}
        assert set(regions) == set(BOX.regions), viewer
        for name, region in BOX.regions.items():
            entry = regions[name]
            assert entry["name"] == region.name
            assert region.type in entry["text"] and region.colour in entry["text"]
            assert all(r in entry["text"] for r in region.produces)

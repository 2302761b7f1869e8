"""Rule deviations a review found (issue 16), each played through the engine with the
answers it lists as legal; a refused answer is typed and changes nothing."""
from __future__ import annotations

from core.errors import IllegalAction
from core.state import Action
from plugins.arcs.content import default_box
from tests.arcs.flow_helpers import prompt_of
from tests.arcs.test_abilities_in_play import fresh_table, in_court, lead, listed, own, refused

BOX = default_box()


def _secure(t, card: str) -> None:
    in_court(t, card, [2, 0, 0])
    lead(t, "AGG4")  # Aggression pips buy Secure
    (secure,) = listed(t, 0, act="secure", card=card, pay=-1)
    t.act(0, secure)


# -- 1. a Vox card's mandatory parts --------------------------------------------------------------
def test_guild_struggle_steal_is_optional_its_reshuffle_is_not_BC30_ARCS_165():
    """Guild Struggle (BC30): "may steal" is a choice (stealing nothing is listed), but the
    effect cannot be declined as a whole: the decline is not listed and is refused, typed,
    changing nothing; after the choice the Guild cards of the Court discard go back into
    the Court deck unasked (the Vox card in the discard stays)."""
    t = fresh_table()
    own(t, 1, "BC01")
    s = t.state
    for card in ("BC02", "BC31"):
        for pile in (s.court_deck, s.court_discard):
            if card in pile:
                pile.remove(card)
        s.court_discard.append(card)
    _secure(t, "BC30")
    p = prompt_of(t, 0)
    assert p.kind == "arcs.use_ability" and p.args["vox"] == "BC30"
    assert not listed(t, 0, card="")
    refused(t, 0, Action("use_ability", {"card": "", "index": -1, "params": {}}), IllegalAction)
    assert listed(t, 0, card="BC30", params={"rival": 1, "card": "BC01"})
    (keep,) = listed(t, 0, card="BC30", params={})
    t.act(0, keep)
    s = t.state
    assert "BC02" not in s.court_discard and ("BC02" in s.court_deck or "BC02" in s.court_row)
    assert "BC31" in s.court_discard and "BC30" in s.court_discard
    assert "BC01" in s.players[1].guild
    assert not [p for p in s.prompts if p.kind == "arcs.use_ability"]


def test_mass_uprising_cannot_be_declined_only_its_cluster_is_chosen_BC26():
    """Mass Uprising (BC26): the securer picks a cluster; not placing is neither listed nor
    accepted (typed refusal, nothing changed); the ships go into each system of it."""
    t = fresh_table()
    _secure(t, "BC26")
    assert prompt_of(t, 0).kind == "arcs.use_ability"
    assert not listed(t, 0, card="")
    assert all(a.params["params"].get("cluster") for a in listed(t, 0, card="BC26"))
    refused(t, 0, Action("use_ability", {"card": "", "index": -1, "params": {}}), IllegalAction)
    (two,) = listed(t, 0, card="BC26", params={"cluster": 2})
    t.act(0, two)
    s = t.state
    assert all(s.systems[x].ships[0].fresh == 1 for x in s.systems if BOX.cluster_of(x) == 2)
    assert "BC26" in s.court_discard


def test_the_optional_vox_cards_still_offer_doing_nothing_BC27_BC28_BC29():
    """Populist Demands, Outrage Spreads and Song of Freedom say "may": their "nothing"
    choice (empty params) stays listed, while the decline of the card as a whole is not."""
    for card in ("BC27", "BC28", "BC29"):
        t = fresh_table()
        _secure(t, card)
        if prompt_of(t, 0).kind != "arcs.use_ability":  # nothing to choose: resolved unasked
            assert card != "BC28"
            continue
        assert listed(t, 0, card=card, params={}) and not listed(t, 0, card="")

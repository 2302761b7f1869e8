"""Rules a review found the first build of the Arcs flow breaking, played through the engine."""
from __future__ import annotations

from plugins.arcs.content import default_box
from tests.arcs.flow_helpers import act
from tests.arcs.test_rules_b_turn import bare, lead, slots

BOX = default_box()


def test_loyal_marines_spend_any_token_as_a_weapon_despite_outrage_ARCS_215_313():
    """BC15 Loyal Marines (ARCS-313): any token may be spent as a Weapon, and a Weapon's
    Prelude effect (the pips may battle, ARCS-215) ignores Outrage in Weapons; without the
    card a Material does nothing of the kind and an Outraged Weapon is not offered."""
    t = bare()
    lead(t, "ADM4")
    slots(t, 0, ["material", None, None])
    act(t, 0, "spend", pay=0)
    assert not t.state.turn.weapon  # no Loyal card: a Material is no Weapon (ARCS-220)

    for token in ("material", "weapon"):
        t = bare()
        t.state.players[0].guild.append("BC15")
        t.state.players[0].outrage.append("weapon")
        lead(t, "ADM4")
        slots(t, 0, [token, None, None])
        assert {"act": "spend", "pay": 0} in [a.params for a in t.legal(0)]
        act(t, 0, "spend", pay=0)
        assert t.state.turn.weapon, token


def test_relic_fence_converts_only_once_a_turn_through_the_engine_BC24():
    """BC24 Relic Fence: once per turn in the Prelude, discard a token to gain a Relic; a
    second use in the same turn is refused (typed) and changes nothing; a later turn may."""
    from core.errors import IllegalAction

    from tests.arcs.test_rules_b_turn import refused

    t = bare()
    t.state.players[0].guild.append("BC24")
    index = next(i for i, a in enumerate(BOX.court["BC24"].abilities) if a.do == "convert")
    lead(t, "ADM4")
    slots(t, 0, ["material", "fuel", None])
    act(t, 0, "ability", card="BC24", index=index, params={"slot": 0})
    assert sorted(r for r in t.state.players[0].resources if r) == ["fuel", "relic"]
    assert not any(a.params.get("card") == "BC24" for a in t.legal(0))
    refused(t, 0, {"act": "ability", "card": "BC24", "index": index, "params": {"slot": 1}}, IllegalAction)

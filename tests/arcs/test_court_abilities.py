"""The op registry (plugins/arcs/abilities.py): every Court op is implemented once, `held`
and `modifiers` find a seat's abilities, `use` decodes choices strictly and a refused
choice leaves everything as it was; every candidate an op offers is accepted."""
from __future__ import annotations

import copy

import pytest

from core.errors import BadParameter, EngineError, IllegalAction
from plugins.arcs import abilities
from plugins.arcs.abilities import OPS, Env, OpImpl, Use, can_use, candidates, held, modifiers, op, secured_uses, use
from plugins.arcs.court_ops import extra_battle_dice
from tests.arcs.court_helpers import BOX, ability, env_for, grant, refused, sound, table

STANDING = {"keep_card", "spend_any_as", "prelude_despite_outrage", "hold_supply", "extra_dice",
            "steal_protection", "bury_self", "no_zero_marker"}


def test_every_court_op_is_registered_once_ARCS_005():
    """ARCS-005: all 31 base Court cards' ops have an implementation; standing rules have none
    to apply, every other op does."""
    ops = {a.do for c in BOX.court.values() for a in c.abilities}
    assert len(BOX.court) == 31 and ops <= set(OPS)
    for name in ops:
        assert (OPS[name].apply is None) == (name in STANDING), name
    with pytest.raises(EngineError):
        op("gain")(lambda env, u, p: None)


def test_held_and_modifiers_read_guild_lore_and_leader():
    """`held` lists a seat's abilities at a trigger from its Guild cards, Lore and Leader;
    `modifiers` lists them by op: Gatekeepers' 2 dice in gates add to a Leader's 2 anywhere."""
    state = table()
    grant(state, 0, "BC08")
    state.players[0].leader = "LEAD05"
    state.players[0].lore = ["L03"]
    battle = held(state, BOX, 0, "battle")
    assert [(u.card, u.ability.do) for u in battle] == [("BC08", "extra_dice"), ("LEAD05", "extra_dice")]
    assert [u.card for u in held(state, BOX, 0, "move")] == ["L03"]
    assert [u.card for u in modifiers(state, BOX, 0, "extra_dice")] == ["BC08", "LEAD05"]
    assert extra_battle_dice(state, BOX, 0, "3G") == 4 and extra_battle_dice(state, BOX, 0, "3.1") == 2
    assert held(state, BOX, 1, "battle") == []


def test_use_decodes_strictly_and_checks_the_use_is_real():
    """A typed refusal for a seat that does not exist, an ability the card does not have, choices
    an op does not take, a wrong type or an unknown field: nothing changes."""
    state = table()
    grant(state, 0, "BC24")
    grant(state, 0, "BC09")
    env = env_for(state)
    u = ability(0, "BC24", "convert")
    refused(env, Use(seat=7, card=u.card, index=u.index, ability=u.ability), {"slot": 0}, BadParameter)
    refused(env, Use(seat=0, card="BC24", index=3, ability=u.ability), {"slot": 0}, BadParameter)
    refused(env, Use(seat=0, card="BC09", index=0, ability=u.ability), {"slot": 0}, BadParameter)
    refused(env, u, {"slot": "0"}, BadParameter)
    refused(env, u, {"slot": 0, "extra": 1}, BadParameter)
    refused(env, u, None, BadParameter)
    refused(env, ability(0, "BC09", "gain"), {"resource": "relic"}, BadParameter)


def test_a_refused_apply_is_rolled_back_with_its_events(monkeypatch):
    """Even an op that changed the state before refusing leaves it exactly as it was, and its
    events are never sent."""
    def clumsy(env: Env, u: Use, _):
        env.state.players[u.seat].power += 5
        env.moment.used.append("x")
        env.emit("too_early")
        raise IllegalAction("refused late")
    monkeypatch.setitem(OPS, "gain", OpImpl(op="gain", apply=clumsy))
    state = table()
    grant(state, 0, "BC02")
    refused(env_for(state), ability(0, "BC02", "gain"), {}, IllegalAction)


def _moment_for(face_up: list[str]) -> dict:
    """A moment in which the card's triggered abilities make sense to try: Rivals' cards lie
    face up, seat 0 has Pivoted with one of them, and a roll is on the table."""
    return {"face_up": face_up, "played": face_up[0], "play": "pivot",
            "roll": [("skirmish", 0), ("skirmish", 3), ("assault", 1)]}


@pytest.mark.parametrize("card", sorted(BOX.court))
def test_every_candidate_is_accepted_and_keeps_the_table_sound(card):
    """Every candidate a usable Court ability offers (what bots and legalActions see) is a choice
    `use` accepts, and the table stays sound afterwards (every piece and card in one place)."""
    state = table(seed=3)
    state.initiative = 1  # seat 0 may seize
    face_up = []  # one played card of each suit, taken from the Rivals' hands
    for suit in BOX.actions.suits:
        hand = next(h for h in state.hands[1:] if any(c.startswith(suit[:3].upper()) for c in h))
        face_up.append(next(c for c in hand if c.startswith(suit[:3].upper())))
        hand.remove(face_up[-1])
    for owner, cards in ((1, ["BC13", "BC23"]), (2, ["BC06"])):
        for c in cards:
            if c != card:
                grant(state, owner, c)
    grant(state, 0, card)
    state.players[0].captives = [1]
    state.players[1].agents -= 1
    for row_card in state.court_row:
        state.court_agents[row_card][1] += 1
        state.players[1].agents -= 1
    uses = secured_uses(BOX, card, 0) if BOX.court[card].kind == "vox" else \
        [Use(0, card, i, a) for i, a in enumerate(BOX.court[card].abilities)]
    tried = 0
    for u in uses:
        env = env_for(state, **_moment_for(face_up))
        for choice in candidates(env, u):
            trial = copy.deepcopy(state)
            trial_env = env_for(trial, **_moment_for(face_up))
            assert can_use(trial_env, u)
            use(trial_env, u, choice)
            sound(trial, face_up)
            tried += 1
    assert tried > 0 or all(a.do in STANDING for a in BOX.court[card].abilities)


def test_registry_names_match_the_interface():
    """The registry exposes exactly the interface's names (shared with the Lore ops)."""
    for name in ("OpImpl", "Env", "Use", "OPS", "op", "held", "use", "modifiers"):
        assert hasattr(abilities, name)

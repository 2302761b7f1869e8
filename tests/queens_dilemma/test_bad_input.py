"""Bad input to The Queen's Dilemma gets a typed error and changes nothing, for every kind of
decision a whole game asks for: another seat answering, an unknown action type, a parameter
out of range or of the wrong type, a Vote with more Power than held (CannotAfford, QD-142),
a payment of more than is held, anything after the end. Checked at every decision of bot
games (a campaign's first game, with the one-time setup, and a later one)."""
from __future__ import annotations

import copy
import random

import pytest

from core import default_registry
from core.bot import play_game
from core.errors import ActionRejected, BadParameter, CannotAfford, GameOver, IllegalAction, NotYourTurn, UnknownSeat
from core.state import Action, encode_state
from tests.queens_dilemma.harness import GAME_ID, campaign, choices, start


def refused(table, seat, action, *kinds) -> ActionRejected:
    before = encode_state(table.state)
    with pytest.raises(kinds or ActionRejected) as caught:
        table.act(seat, action)
    assert encode_state(table.state) == before  # nothing changed
    assert caught.value.code and caught.value.message
    return caught.value


def bent(params: dict) -> list[dict]:
    """Variants of an option's parameters that no option matches."""
    out = []
    for key, value in params.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            out.append({**params, key: value + 99})
            out.append({**params, key: str(value)})  # right value, wrong type
        elif isinstance(value, str) and value:
            out.append({**params, key: value + "-nope"})
    out.append({**params, "extra": 1})
    return out


def walk(table, rng, kinds_seen: set) -> None:
    n = len(table.state.seats)
    while not table.state.finished:
        prompt = rng.choice([p for p in table.state.prompts if p.blocking])
        kinds_seen.add(prompt.kind)
        option = rng.choice(choices(table, prompt))
        others = [s for s in range(n) if not any(p.seat == s for p in table.state.prompts)]
        if others:
            refused(table, others[0], option, NotYourTurn)
        refused(table, n + 3, option, UnknownSeat)
        refused(table, prompt.seat, Action("seize_the_throne", {}), IllegalAction)
        for params in bent(option.params)[:3]:
            candidate = Action(option.type, params)
            if candidate not in [o for p in table.state.prompts if p.seat == prompt.seat for o in choices(table, p)]:
                refused(table, prompt.seat, candidate, BadParameter, CannotAfford)
        if prompt.kind == "vote" and any(o.type == "vote" for o in choices(table, prompt)):  # QD-142
            power = table.state.councilors[prompt.seat].power
            refused(table, prompt.seat, Action("vote", {"side": "aye", "power": power + 1}), BadParameter, CannotAfford)
        payments = [p for p in table.state.prompts if p.kind == "payment" and p.seat == prompt.seat]
        if payments:
            held = table.state.councilors[prompt.seat].resources["gold"]
            to = (prompt.seat + 1) % n
            refused(table, prompt.seat, Action("pay", {"to": to, "resource": "gold", "n": held + 1, "reason": "x"}),
                    BadParameter, CannotAfford)
            refused(table, prompt.seat, Action("pay", {"to": prompt.seat, "resource": "gold", "n": 1, "reason": "x"}),
                    BadParameter, CannotAfford)  # never to oneself
            refused(table, prompt.seat, Action("pay", {"to": to, "resource": "power", "n": 1, "reason": "x"}),
                    BadParameter, CannotAfford)  # QD-165: Power is never given
        table.act(prompt.seat, option)
    refused(table, 0, Action("vote", {"side": "aye", "power": 1}), GameOver)


def test_every_decision_of_a_first_game_refuses_bad_input_and_changes_nothing():
    kinds: set = set()
    walk(start(None, players=4, seed=8), random.Random(8), kinds)
    assert {"region", "vote", "investment"} <= kinds


def test_every_decision_of_a_later_game_refuses_bad_input_and_changes_nothing():
    camp = campaign(5)
    first = play_game(GAME_ID, 5, 30, campaign=copy.deepcopy(camp))
    default_registry().rules_for(GAME_ID, []).hook.conclave_campaign_save(state=first.table.state, campaign=camp)
    kinds: set = set()
    walk(start(camp, seed=31), random.Random(31), kinds)
    assert {"vote", "investment"} <= kinds

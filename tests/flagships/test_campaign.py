"""A whole campaign with the Flagships module, played by the random bots through legal
actions alone (issue 19's must-hold, on one seed here; `conclave simulate` runs more), and
the log sheet carrying each Flagship from one act to the next (BR-356, BR-352, BR-341)."""
from __future__ import annotations

import copy

from core.bot import play_game
from core.engine import create_table
from core.plugins import default_registry
from core.state import Seat
from plugins.flagships.state import board_of, flagship_seats

GAME = "blighted-reach"


def test_bots_play_act_one_with_flagships_and_the_next_act_starts_with_them_BR_356_352_341():
    """BR-341, BR-352, BR-356.
    Act I with the module on, played to its end by bots with the invariants checked after
    every action; the saved campaign's next act begins with every seat's Flagship where it
    stood, its board as Intermission D left it (no damaged piece)."""
    rules = default_registry().rules_for(GAME, ["flagships"])
    campaign = rules.hook.conclave_campaign_new(game=GAME, seats=[Seat(index=i) for i in range(2)], options={})
    first = play_game(GAME, 2, 1000, modules=["flagships"], check_invariants=True, campaign=copy.deepcopy(campaign))
    assert first.invariant_errors == []
    rules.hook.conclave_campaign_save(state=first.table.state, campaign=campaign)
    kept = {s: board_of(first.table.state, s) for s in flagship_seats(first.table.state)}
    assert sorted(kept) == [0, 1]
    assert not any(p.damaged for ship in kept.values() for _, _, p in ship.pieces())  # BR-341
    second = create_table(GAME, 2, seed=1001, modules=["flagships"], campaign=copy.deepcopy(campaign))
    state = second.state
    assert state.act == 2
    assert {s: board_of(state, s) for s in flagship_seats(state)} == kept
    assert [p for found in second.rules.hook.conclave_check_invariants(state=state) for p in found] == []

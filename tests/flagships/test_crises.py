"""A Blight Crisis reaching a Flagship (BR-291, BR-292, BR-216), run by the campaign's Crisis
step (`event_flow.crises_begin`) on the tables of `test_engine`: the Blight at 1.3 made
fresh (3 hits, BR-213)."""
from __future__ import annotations

from core.flow import Ctx, run
from plugins.arcs.rounds import round_start
from plugins.blighted_reach import event_flow
from plugins.blighted_reach.state import Pieces
from plugins.flagships.state import BoardPiece, board_of
from tests.blighted_reach.empire_tables import set_ships
from tests.blighted_reach.test_empire_flow import sound
from tests.flagships.test_engine import HOME, SEAT, flagship_table
from tests.flagships.tables import put


def fresh_blight(t, system: str = HOME) -> None:
    """The Blight in `system` becomes one fresh Blight (the damaged one turned up)."""
    assert t.state.blight[system] == Pieces(damaged=1)
    t.state.blight[system] = Pieces(fresh=1)


def crises(t) -> list:
    """The Crises as an Event card's roll starts them (the round under way set aside), then a round."""
    t.state.prompts, t.state.stack = [], []
    ctx = Ctx(t.state, t.rules)
    ctx.push(round_start)  # what follows them: the next round, from the hands held
    ctx.push(event_flow.crises_begin, number=0, symbol="")
    run(ctx)
    return ctx.events


def test_the_blight_hits_the_flagship_only_once_no_other_fresh_loyal_ship_is_left_BR_291_292_216():
    """BR-216, BR-291, BR-292.
    3 hits on a seat with 1 fresh ship, 1 damaged ship and its Flagship there: the fresh
    ship is damaged first; then the Flagship is its only fresh ship, so the next 2 hits strike
    its board, the rightmost Armor (Hull) twice, destroying it (a starport back to the supply,
    no Trophy); the damaged ships are spared."""
    t = flagship_table()
    put(t.state, SEAT, "ship_crane", "upgrade", "city")
    put(t.state, SEAT, "ship_crane", "armor", "city")
    put(t.state, SEAT, "hull", "upgrade", "city")
    put(t.state, SEAT, "hull", "armor", "starport")
    set_ships(t.state, SEAT, HOME, fresh=1, damaged=1)
    fresh_blight(t)
    starports = t.state.players[SEAT].starports
    events = crises(t)
    s = t.state
    ship = board_of(s, SEAT)
    assert s.systems[HOME].ships[SEAT].fresh == 0 and s.systems[HOME].ships[SEAT].damaged == 2
    assert ship.slots[5].armor is None and ship.slots[5].upgrade == BoardPiece(kind="city")
    assert ship.slots[3].armor == BoardPiece(kind="city")  # the Ship Crane Armor, further left, untouched
    assert s.players[SEAT].starports == starports + 1 and not s.players[SEAT].trophies
    assert any(e.data.get("players", {}).get(SEAT, {}).get("flagship_hits") == 2 for e in events)
    sound(t)


def test_with_more_fresh_ships_than_hits_the_flagship_is_spared_BR_291():
    """BR-291: 3 fresh ships take the 3 hits; the board is untouched."""
    t = flagship_table()
    put(t.state, SEAT, "hull", "upgrade", "city")
    set_ships(t.state, SEAT, HOME, fresh=3)
    fresh_blight(t)
    crises(t)
    assert board_of(t.state, SEAT).slots[5].upgrade == BoardPiece(kind="city")
    assert t.state.systems[HOME].ships[SEAT].damaged == 3
    sound(t)


def test_a_flagship_alone_takes_every_hit_on_its_board_right_to_left_BR_292():
    """BR-292: alone in the system, the Flagship's board takes the 3 hits: the Hull Armor
    (destroyed), then the Ship Crane Armor (damaged); Upgrades wait for the Armor row."""
    t = flagship_table()
    put(t.state, SEAT, "ship_crane", "upgrade", "city")
    put(t.state, SEAT, "ship_crane", "armor", "city")
    put(t.state, SEAT, "hull", "upgrade", "city")
    put(t.state, SEAT, "hull", "armor", "city")
    fresh_blight(t)
    crises(t)
    ship = board_of(t.state, SEAT)
    assert ship.slots[5].armor is None and ship.slots[3].armor == BoardPiece(kind="city", damaged=True)
    assert ship.slots[5].upgrade == BoardPiece(kind="city") and ship.slots[3].upgrade == BoardPiece(kind="city")
    sound(t)

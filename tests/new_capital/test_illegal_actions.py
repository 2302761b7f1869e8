"""Illegal actions: every action type, used wrongly, is refused with the right typed error
from `core.errors`, and the table is left exactly as it was (state bytes, version, log).

`reach(type)` plays a table through the engine up to a prompt that offers that action type;
each test then sends a wrong variant of a legal action.
"""
from __future__ import annotations

import msgspec
import pytest

from core import Action, to_action
from core.errors import (
    ActionRejected,
    BadParameter,
    CannotAfford,
    GameOver,
    IllegalAction,
    NotYourTurn,
    UnknownSeat,
)
from core.state import decode_state, encode_state
from plugins.new_capital.state import NewCapitalState
from tests.new_capital.harness import (
    PACK,
    act,
    add_column,
    auto,
    card_of,
    check,
    move_card,
    new_game,
    pl,
    prompt,
    put_leader,
    set_hand,
    set_pool,
    structures,
    until_prompt,
)

ACTION_TYPES = [
    "draft_leader", "play", "board", "skip", "research", "recruit", "leader_slot", "displace",
    "build", "upgrade_column", "upgrade_card", "administrate", "diplomacy", "attr_track",
    "seal_slot", "rebellion_column", "unrest_column", "choice", "scout", "burn", "no_burn",
    "decline", "extra_action", "bid_power", "bid_control", "bribe", "reset_track",
]


# -- reaching a prompt of each action type, through the engine -------------------------------
def _start(players: int = 2, seed: int = 3):
    table = new_game(players=players, seed=seed)
    return table, table.state.first


def _hand(table, seat, *cards):
    set_hand(table, seat, [c if c[0] in "AH" else card_of(seat, c) for c in cards])


def _draft_leader():
    table = new_game(players=3, seed=3, draft=False)
    table.act(0, table.legal(0)[0])  # seat 0 has drafted: seats 1 and 2 still choose
    return table, 1


def _turn():
    return _start()


def _skip():
    table, seat = _start()
    _hand(table, seat, "H01")  # only a Hunger card: nothing playable
    return table, seat


def _research():
    table, seat = _start()
    _hand(table, seat, "B-RESEARCH", "B-MORALE")
    act(table, seat, "play", card=card_of(seat, "B-RESEARCH"))
    return table, seat


def _recruit():
    table, seat = _start()
    _hand(table, seat, "B-RECRUIT", "B-MORALE")
    act(table, seat, "play", card=card_of(seat, "B-RECRUIT"))
    return table, seat


def _leader_slot():
    table, seat = _recruit()
    act(table, seat, "recruit", card=table.state.rows["leaders"].pool[0])
    return table, seat


def _displace():
    table, seat = _leader_slot()
    p = prompt(table, seat)
    act(table, seat, "leader_slot", **{**p.options[0].params, "column": 0, "slot": 0})  # the draft leader's slot
    return table, seat


def _build():
    table, seat = _start()
    _hand(table, seat, "B-BUILD", "B-MORALE")
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    return table, seat


def _upgrade_column():
    table, seat = _start()
    add_column(table, seat, structures(tier=1)[0])
    _hand(table, seat, "B-BUILD", "B-MORALE")
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    act(table, seat, "build", card="upgrade")
    return table, seat


def _upgrade_card():
    table, seat = _start()
    col = pl(table, seat).columns[0]
    kind = PACK.structures[col.structures[0]].type
    set_pool(table, "t2", structures(tier=2, type=kind)[:2] + [c for c in structures(tier=2)
                                                                 if PACK.structures[c].type != kind][:1])
    col.upgrades = 1
    _hand(table, seat, "B-BUILD", "B-MORALE")
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    act(table, seat, "build", card="upgrade")  # one column: the token lands at once, 2 tokens
    return table, seat


def _administrate():
    table, seat = _start()
    _hand(table, seat, "B-ADMINISTRATE", "B-MORALE")
    act(table, seat, "play", card=card_of(seat, "B-ADMINISTRATE"))
    return table, seat


def _diplomacy():
    table, seat = _start()
    put_leader(table, seat, "L07", 0, 1)  # when you play Send Envoy, move a diplomacy cube
    _hand(table, seat, "B-ENVOY", "B-MORALE")
    act(table, seat, "play", card=card_of(seat, "B-ENVOY"))
    return table, seat


def _seal_slot():
    table, seat = _start()
    pl(table, seat).diplomacy = [-4, 0]
    _hand(table, seat, "B-ADMINISTRATE", "B-MORALE")
    act(table, seat, "play", card=card_of(seat, "B-ADMINISTRATE"))
    act(table, seat, "administrate", track=0, direction=-1)  # Favored: a seal
    return table, seat


def _attr_track():
    table, seat = _seal_slot()
    act(table, seat, "seal_slot", slot=2)  # an Alert slot: Learning gives a point on any track
    return table, seat


def _rebellion_column():
    table, seat = _start()
    for h in list(table.state.hunger_deck):
        move_card(table, h, "box")  # no Hunger card left: a Rebellion token instead
    _hand(table, seat, "B-BUILD", "B-MORALE")
    act(table, seat, "play", card=card_of(seat, "B-BUILD"))
    act(table, seat, "build", card=table.state.rows["t1"].pool[0])  # 2 columns, both clean
    return table, seat


def _unrest_column():
    table, seat = _start()
    add_column(table, seat, structures(tier=1)[0])
    for col in pl(table, seat).columns:
        col.rebellion = 1
    _hand(table, seat, "H10", "B-MORALE")  # Soup Kitchen: support removes a Rebellion token
    act(table, seat, "board", action="support", card="H10")
    return table, seat


def _choice():
    table, seat = _start()
    _hand(table, seat, "A09", "B-MORALE")  # Recruit or Build
    act(table, seat, "play", card="A09")
    return table, seat


def _scout():
    """No demo card has a Scout effect: open the prompt the way such an effect would, in
    place of the turn prompt, which comes back once the Scout is answered."""
    from core.flow import Ctx
    from plugins.new_capital.effects import OPS
    from plugins.new_capital.rounds import reoffer

    table, seat = _start()
    state = table.state
    turn = prompt(table, seat)
    state.prompts.remove(turn)
    ctx = Ctx(state, table.rules)
    ctx.push(reoffer, seat=seat, **turn.args)
    OPS["scout"](ctx, seat, {"op": "scout"}, "card")
    return table, seat


def _burn():
    table, seat = _start()
    _hand(table, seat, "A02", "B-MORALE", "B-ELITE")  # Research, then burn a card
    act(table, seat, "play", card="A02")
    act(table, seat, "research", card=table.state.rows["adv"].pool[0])
    return table, seat


def _end_burn():
    table, seat = _start()
    auto(table, until=until_prompt("end_burn"))
    return table, prompt(table).seat


def _feather():
    table, seat = _start()
    _hand(table, seat, "A04", "B-MORALE")  # Research, then one more board action
    act(table, seat, "play", card="A04")
    act(table, seat, "research", card=table.state.rows["adv"].pool[0])
    return table, seat


def _extra_action():
    table, seat = _start()
    pl(table, seat).extra_actions = 1
    auto(table, until=until_prompt("extra_action"))
    return table, seat


def _bid_power():
    table, seat = _start()
    pl(table, seat).reserve_power = 2
    pl(table, seat).reserve_control = 2
    auto(table, until=until_prompt("bid_power", seat))
    return table, seat


def _bid_control():
    table, seat = _bid_power()
    act(table, seat, "bid_power", n=0)
    return table, seat


def _bribe():
    table, seat = _start()
    bribe = card_of(seat, "B-BRIBE")
    _hand(table, seat, "B-BRIBE", "B-MORALE", "B-ELITE", "B-MOBILIZE")

    def play_bribe_first(t, p):
        if p.kind == "turn" and p.seat == seat and bribe in pl(t, seat).hand:
            return Action("play", {"card": bribe})
        return None

    auto(table, policy=play_bribe_first, until=until_prompt("bribe", seat))
    return table, seat


def _reset_track():
    table, seat = _start()
    pl(table, seat).tracks.update(influence=5, wealth=5)
    auto(table, until=until_prompt("reset_track", seat))
    return table, seat


REACH = {
    "draft_leader": _draft_leader, "play": _turn, "board": _turn, "skip": _skip,
    "research": _research, "recruit": _recruit, "leader_slot": _leader_slot, "displace": _displace,
    "build": _build, "upgrade_column": _upgrade_column, "upgrade_card": _upgrade_card,
    "administrate": _administrate, "diplomacy": _diplomacy, "attr_track": _attr_track,
    "seal_slot": _seal_slot, "rebellion_column": _rebellion_column, "unrest_column": _unrest_column,
    "choice": _choice, "scout": _scout, "burn": _burn, "no_burn": _end_burn, "decline": _feather,
    "extra_action": _extra_action, "bid_power": _bid_power, "bid_control": _bid_control,
    "bribe": _bribe, "reset_track": _reset_track,
}


def reach(type: str):
    """A table where `seat` has an open prompt offering `type` actions (two or more wherever
    the action has parameters); returns (table, seat, one legal action of that type)."""
    table, seat = REACH[type]()
    legal = [o for o in table.legal(seat) if o.type == type]
    assert legal, f"could not reach a {type} prompt: {[(p.seat, p.kind) for p in table.state.prompts]}"
    return table, seat, legal[0]


def idle_seat(table) -> int:
    """A seat with no open prompt."""
    busy = {p.seat for p in table.state.prompts}
    return next(s for s in range(len(table.state.seats)) if s not in busy)


def rejected(table, seat, action, error: type[ActionRejected]):
    """Send `action`; it must raise exactly `error` and leave the table untouched."""
    before, version, log, events = encode_state(table.state), table.state.version, len(table.log), table.events
    with pytest.raises(ActionRejected) as info:
        table.act(seat, action)
    assert type(info.value) is error, f"{type(info.value).__name__} ({info.value}) instead of {error.__name__}"
    assert info.value.code == error.code
    assert encode_state(table.state) == before
    assert table.state.version == version
    assert len(table.log) == log and table.events is events
    return info.value


# -- the tests ----------------------------------------------------------------------------------
def test_every_action_type_has_a_reachable_prompt():
    """The list of action types here is the engine's: every one is offered somewhere."""
    for type in ACTION_TYPES:
        table, seat, legal = reach(type)
        assert legal.type == type
        check(table)


@pytest.mark.parametrize("type", ACTION_TYPES)
def test_legal_action_sent_by_another_seat_is_not_your_turn(type):
    """A seat with no decision to make sends exactly the action another seat may take."""
    table, seat, legal = reach(type)
    other = idle_seat(table)
    err = rejected(table, other, legal, NotYourTurn)
    assert f"Seat {seat + 1}" in str(err).split("waiting for")[1]  # says whom the table waits for, named from 1
    table.act(seat, legal)  # the rightful seat may still take it


@pytest.mark.parametrize("type", ACTION_TYPES)
def test_action_type_not_offered_now_is_illegal(type):
    """At the first turn only play and board actions are offered; at a Research prompt only
    research."""
    if type in ("play", "board"):
        table, seat, _ = reach("research")
    else:
        table, seat, _ = reach("play")
    assert all(o.type != type for o in table.legal(seat))
    rejected(table, seat, Action(type, {}), IllegalAction)
    rejected(table, seat, Action(type, {"card": "x", "n": 1}), IllegalAction)


def test_skip_is_illegal_while_a_card_can_be_played():
    """Skipping is only offered when no card in hand can be played."""
    table, seat, _ = reach("play")
    rejected(table, seat, Action("skip"), IllegalAction)


def test_second_board_action_in_a_round_is_illegal():
    """The board-action cube has left its top slot: no board action until the next round."""
    table, seat, _ = reach("play")
    act(table, seat, "board", action="resupply")
    assert prompt(table, seat).kind == "turn"
    rejected(table, seat, Action("board", {"action": "resupply"}), IllegalAction)
    rejected(table, seat, Action("board", {"action": "scout", "row": "t1", "match": "port"}), IllegalAction)


def _other_value(value):
    """A value of the same type that no option uses."""
    if isinstance(value, bool):
        return not value  # not used: both booleans are usually legal
    if isinstance(value, int):
        return 97
    return "NO-SUCH-" + str(value)


def _wrong_type(value):
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, int):
        return str(value)
    return 1


def bad_variants(legal: Action) -> list[tuple[str, dict]]:
    """Wrong parameters derived from a legal action: each key missing, an extra key, each
    value unknown, each value of the wrong type, and no parameters at all."""
    params = dict(legal.params)
    out = [("extra parameter", {**params, "extra": 1})]
    for k, v in params.items():
        out.append((f"missing {k}", {x: y for x, y in params.items() if x != k}))
        if not isinstance(v, bool):
            out.append((f"unknown {k}", {**params, k: _other_value(v)}))
        out.append((f"{k} of wrong type", {**params, k: _wrong_type(v)}))
        out.append((f"{k} as null", {**params, k: None}))
        out.append((f"{k} as a list", {**params, k: [v]}))
    if params:
        out.append(("no parameters", {}))
    return out


@pytest.mark.parametrize("type", ACTION_TYPES)
def test_bad_parameters_are_refused_for_every_action_type(type):
    """Unknown values, missing or extra parameters and wrongly typed values: BadParameter."""
    table, seat, legal = reach(type)
    legal_params = [dict(o.params) for o in table.legal(seat) if o.type == type]
    for why, params in bad_variants(legal):
        assert params not in legal_params, why
        expected = BadParameter
        if type in ("bid_power", "bid_control") and why == "unknown n":
            expected = CannotAfford  # 97 tokens: more than held
        try:
            rejected(table, seat, Action(type, params), expected)
        except AssertionError as exc:
            raise AssertionError(f"{type} with {why} {params}: {exc}") from None
    table.act(seat, legal)  # and the legal one still works afterwards
    check(table)


@pytest.mark.parametrize("type,value,why", [
    ("bid_power", {"n": True}, "a boolean for an integer"),
    ("bid_power", {"n": 1.0}, "a float for an integer"),
    ("seal_slot", {"slot": True}, "a boolean for a slot number"),
    ("choice", {"option": 1.0}, "a float for an option number"),
    ("extra_action", {"use": 0}, "an integer for a boolean"),
    ("extra_action", {"use": 1}, "an integer for a boolean"),
])
def test_value_of_the_wrong_type_is_refused_even_when_it_compares_equal(type, value, why):
    """JSON `true`, `1.0` and `1` are different values; an option asks for one exact type.
    A value that merely compares equal in Python (True == 1 == 1.0) must be refused too,
    or the state stores a bool/float where an int belongs (and no longer decodes)."""
    table, seat, legal = reach(type)
    assert Action(type, value) in table.legal(seat)  # Python equality cannot tell them apart
    before, version = encode_state(table.state), table.state.version
    try:
        table.act(seat, Action(type, value))
    except BadParameter:
        assert encode_state(table.state) == before and table.state.version == version
        return
    try:
        decode_state(encode_state(table.state), NewCapitalState)
        broken = ""
    except msgspec.ValidationError as exc:
        broken = f"; the saved state no longer decodes: {exc}"
    pytest.fail(f"{type} {value} ({why}) was accepted as a legal option{broken}")


def test_play_refuses_cards_not_in_hand_and_hunger_cards():
    """Cards in the own deck, in another hand, in a pool, unknown ids, and a Hunger card in
    hand (never playable): BadParameter, saying the card is not in hand where that is why."""
    table, seat, _ = reach("play")
    other = 1 - seat
    set_hand(table, seat, list(pl(table, seat).hand) + ["H02"])
    in_deck = pl(table, seat).deck[-1]
    for card in (in_deck, pl(table, other).hand[0], "A01", "B-BUILD", "NO-SUCH-CARD", "H02"):
        err = rejected(table, seat, Action("play", {"card": card}), BadParameter)
        if card != "H02":
            assert "not in" in str(err)


@pytest.mark.parametrize("type,params", [
    ("research", lambda t, s: {"card": t.state.rows["adv"].deck[-1]}),  # not in the pool
    ("build", lambda t, s: {"card": t.state.rows["t1"].deck[-1]}),
    ("build", lambda t, s: {"card": structures(tier=2)[0]}),  # not a Tier 1 card
    ("recruit", lambda t, s: {"card": t.state.rows["leaders"].deck[-1]}),
    ("leader_slot", lambda t, s: {**dict(prompt(t, s).options[0].params), "column": 5}),  # bad column
    ("leader_slot", lambda t, s: {**dict(prompt(t, s).options[0].params), "slot": 2}),
    ("leader_slot", lambda t, s: {**dict(prompt(t, s).options[0].params), "card": "L01" if
                                  prompt(t, s).options[0].params["card"] != "L01" else "L02"}),
    ("displace", lambda t, s: {"to": "0:0"}),  # the slot being taken
    ("displace", lambda t, s: {"to": "9:1"}),
    ("upgrade_column", lambda t, s: {"column": 4}),
    ("upgrade_card", lambda t, s: {"column": 0, "card": structures(tier=3)[0]}),
    ("rebellion_column", lambda t, s: {"column": 7}),
    ("unrest_column", lambda t, s: {"column": -1}),
    ("administrate", lambda t, s: {"track": 0, "direction": 2}),
    ("administrate", lambda t, s: {"track": 2, "direction": 1}),
    ("diplomacy", lambda t, s: {"track": 0, "direction": 0}),
    ("seal_slot", lambda t, s: {"slot": 9}),
    ("attr_track", lambda t, s: {"track": "piety"}),
    ("reset_track", lambda t, s: {"track": "might"}),  # not on its 5th space
    ("choice", lambda t, s: {"option": 2}),
    ("burn", lambda t, s: {"zone": "deck", "card": pl(t, s).deck[-1]}),
    ("burn", lambda t, s: {"zone": "discard", "card": pl(t, s).hand[0]}),
    ("bribe", lambda t, s: {"crisis": "both"}),
    ("board", lambda t, s: {"action": "faction", "faction": "crown"}),  # not Favored
    ("board", lambda t, s: {"action": "support", "card": pl(t, s).hand[0]}),  # not a Hunger card
    ("board", lambda t, s: {"action": "scout", "row": "t4", "match": "port"}),
    ("board", lambda t, s: {"action": "scout", "row": "t1", "match": "political"}),
    ("board", lambda t, s: {"action": "build"}),
    ("bid_power", lambda t, s: {"n": -1}),
    ("bid_control", lambda t, s: {"n": -1}),
    ("scout", lambda t, s: {"row": "adv", "match": "port"}),
    ("draft_leader", lambda t, s: {"card": "DL01" if "DL01" not in pl(t, s).draft_offer else "L01"}),
])
def test_named_bad_parameters(type, params):
    """Unknown or unavailable cards, bad column/slot/track numbers, values outside the
    options: BadParameter."""
    table, seat, legal = reach(type)
    action = Action(type, params(table, seat))
    assert action not in table.legal(seat)
    rejected(table, seat, action, BadParameter)


@pytest.mark.parametrize("type,held", [("bid_power", 2), ("bid_control", 2)])
def test_bidding_more_reserve_tokens_than_held_cannot_be_afforded(type, held):
    """A bid above the seat's reserve is CannotAfford (not a generic BadParameter)."""
    table, seat, legal = reach(type)
    kind = type.split("_")[1]
    assert getattr(pl(table, seat), f"reserve_{kind}") == held
    for n in (held + 1, held + 10):
        err = rejected(table, seat, Action(type, {"n": n}), CannotAfford)
        assert str(held) in str(err)
    table.act(seat, Action(type, {"n": held}))  # everything held is fine
    assert getattr(pl(table, seat), f"reserve_{kind}") == 0


@pytest.fixture(scope="module")
def finished_table():
    table = new_game(players=3, seed=5)
    auto(table)
    assert table.state.finished
    return table


@pytest.mark.parametrize("type", ACTION_TYPES)
def test_any_action_after_the_game_is_over_is_refused(finished_table, type):
    """Once the game has ended, every seat gets GameOver for any action."""
    table = finished_table
    for seat in range(3):
        rejected(table, seat, Action(type, {}), GameOver)
    rejected(table, 0, Action(type, {"card": "0:B-BUILD", "n": 0}), GameOver)


@pytest.mark.parametrize("type", ACTION_TYPES)
def test_seat_that_does_not_exist_is_refused(type):
    """A legal action sent for a seat number the table does not have."""
    table, seat, legal = reach(type)
    players = len(table.state.seats)
    for bad in (players, players + 1, 99, -1):
        rejected(table, bad, legal, UnknownSeat)


@pytest.mark.parametrize("data", [
    None,
    "play",
    ["play", {"card": "0:B-BUILD"}],
    42,
    {},
    {"params": {"card": "0:B-BUILD"}},
    {"type": None},
    {"type": 7, "params": {}},
    {"type": ["play"]},
    {"type": "play", "params": None},
    {"type": "play", "params": ["0:B-BUILD"]},
    {"type": "play", "params": "0:B-BUILD"},
    {"type": "play", "params": {1: "0:B-BUILD"}},
], ids=repr)
def test_malformed_action_data_is_a_bad_parameter(data):
    """`core.to_action` refuses data that is not {type: str, params: {str: ...}}; a table
    given such a dict refuses it the same way and stays as it was."""
    with pytest.raises(BadParameter):
        to_action(data)
    if isinstance(data, dict):
        table, seat, _ = reach("play")
        rejected(table, seat, data, BadParameter)


@pytest.mark.parametrize("stray", ["card outside params", "a seat key", "a misspelt key"])
def test_unknown_top_level_keys_in_action_data_are_refused(stray):
    """An action is `type` and `params`, nothing else: a key outside them (a misplaced
    parameter, a typo) makes the data malformed; it is not silently dropped."""
    table, seat, legal = reach("play")
    card = legal.params["card"]
    data = {
        "card outside params": {"type": "play", "card": card},
        "a seat key": {"type": "play", "params": {"card": card}, "seat": 1 - seat},
        "a misspelt key": {"type": "play", "params": {"card": card}, "parms": {"card": card}},
    }[stray]
    with pytest.raises(BadParameter):
        to_action(data)
    rejected(table, seat, data, BadParameter)


def test_well_formed_action_data_is_accepted():
    """The control case: the same data, well formed, is a legal action."""
    table, seat, legal = reach("play")
    assert to_action({"type": "play", "params": dict(legal.params)}) == legal
    version = table.state.version
    table.act(seat, {"type": "play", "params": dict(legal.params)})
    assert table.state.version == version + 1
    check(table)

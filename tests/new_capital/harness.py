"""Helpers for New Capital rule tests: arrange a situation, then play it through the engine.

Arranging moves cards between zones without breaking "every card in one place"
(`move_card`); everything after the arrangement goes through `Table.act`, so the rules
under test run exactly as in a real game. `check(table)` asserts the invariants.
"""
from __future__ import annotations

from core import Action, create_table
from core.engine import Table
from plugins.new_capital.content import pack_for
from plugins.new_capital.state import Column, NewCapitalState, Player
from plugins.new_capital.views import invariant_errors, zones

PACK = pack_for("")


def new_game(players: int = 4, seed: int = 0, scenario: str = "learning", draft: bool = True, **kw) -> Table:
    """A table after setup; with `draft`, every seat keeps its first draft leader, so the
    table waits on the first player's first turn of round 1."""
    table = create_table("new-capital", players, seed=seed, options={"scenario": scenario}, **kw)
    if draft:
        for seat in range(players):
            table.act(seat, table.legal(seat)[0])
    return table


def st(table: Table) -> NewCapitalState:
    return table.state


def pl(table: Table, seat: int) -> Player:
    return table.state.players[seat]


def act(table: Table, seat: int, type: str, **params):
    """Send one action through the engine; returns its events."""
    return table.act(seat, Action(type=type, params=params))


def prompt(table: Table, seat: int | None = None):
    """The first open prompt (of `seat`, if given)."""
    for p in table.state.prompts:
        if seat is None or p.seat == seat:
            return p
    return None


def kinds(table: Table) -> list[tuple[int, str]]:
    return [(p.seat, p.kind) for p in table.state.prompts]


def options(table: Table, seat: int, type: str | None = None) -> list[dict]:
    return [dict(o.params) for o in table.legal(seat) if type is None or o.type == type]


def where(table: Table, card: str) -> str | None:
    for zone, cards in zones(table.state).items():
        if card in cards:
            return zone
    return None


def _zone_list(state: NewCapitalState, zone: str) -> list[str]:
    return zones(state)[zone]


def move_card(table: Table, card: str, to: str, top: bool = True) -> None:
    """Arrange: move `card` from wherever it is to zone `to` (a name from `zones`),
    on top (end of list) or bottom. Not for province cards (use `add_column`/`put_leader`)."""
    state = table.state
    src = where(table, card)
    assert src is not None, f"{card} is nowhere"
    assert not src.endswith("province"), "province cards are arranged with add_column/put_leader"
    if src == "crisis":
        state.crisis = ""
    else:
        _zone_list(state, src).remove(card)
    if to == "crisis":
        if state.crisis:
            state.box.append(state.crisis)
        state.crisis = card
        return
    dest = _zone_list(state, to)
    if top:
        dest.append(card)
    else:
        dest.insert(0, card)


def set_hand(table: Table, seat: int, cards: list[str]) -> None:
    """Arrange: the seat's hand becomes exactly `cards` (old hand cards go to its deck)."""
    p = pl(table, seat)
    for c in list(p.hand):
        if c not in cards:
            p.hand.remove(c)
            p.deck.insert(0, c)
    for c in cards:
        if c not in p.hand:
            move_card(table, c, f"p{seat}.hand")
    _refresh_turn_prompt(table)


def add_column(table: Table, seat: int, *structures: str) -> int:
    """Arrange: a new column holding `structures` (bottom to top), taken from wherever they are."""
    p = pl(table, seat)
    for c in structures:
        src = where(table, c)
        if src and not src.endswith("province"):
            _zone_list(table.state, src).remove(c)
    p.columns.append(Column(structures=list(structures)))
    _refill_rows(table)
    return len(p.columns) - 1


def put_leader(table: Table, seat: int, leader: str, column: int, slot: int) -> None:
    """Arrange: place a face-up leader directly (no bonus, no cube move)."""
    src = where(table, leader)
    if src and not src.endswith("province"):
        _zone_list(table.state, src).remove(leader)
    pl(table, seat).columns[column].slots[slot].leader = leader
    _refill_rows(table)


def set_pool(table: Table, row: str, cards: list[str]) -> None:
    """Arrange: the row's face-up pool becomes `cards`; the old pool cards go under its deck."""
    r = table.state.rows[row]
    for c in cards:
        src = where(table, c)
        _zone_list(table.state, src).remove(c)
    for c in r.pool:
        r.deck.insert(0, c)
    r.pool = list(cards)


def _refill_rows(table: Table) -> None:
    for r in table.state.rows.values():
        while len(r.pool) < 3 and r.deck:
            r.pool.append(r.deck.pop())


def _refresh_turn_prompt(table: Table) -> None:
    """After arranging a hand, rebuild the open turn prompt's options the engine's way."""
    from core.flow import Ctx
    from plugins.new_capital.rounds import offer_turn

    state = table.state
    for p in list(state.prompts):
        if p.kind == "turn":
            state.prompts.remove(p)
            ctx = Ctx(state, table.rules)
            offer_turn(ctx, p.seat, **p.args)


def card_of(seat: int, basic: str) -> str:
    """The id of a seat's starting card, e.g. card_of(0, "B-BUILD") -> "0:B-BUILD"."""
    return f"{seat}:{basic}"


def structures(tier: int | None = None, type: str | None = None, faction: str | None = None, draft: bool = False):
    return sorted(s.id for s in PACK.structures.values() if s.draft == draft and (tier is None or s.tier == tier)
                  and (type is None or s.type == type) and (faction is None or s.faction == faction))


def leaders(type: str | None = None, faction: str | None = None, trigger: str | None = None):
    return sorted(l.id for l in PACK.leaders.values() if not l.draft and not l.hero
                  and (type is None or l.type == type) and (faction is None or l.faction == faction)
                  and (trigger is None or l.ability.trigger == trigger))


def check(table: Table) -> None:
    errors = invariant_errors(table.state, PACK)
    assert not errors, errors


def auto(table: Table, until=None, policy=None, limit: int = 5000) -> list:
    """Answer prompts (default: each seat's first option, 'no_burn', bids of 0, declines)
    until `until(table)` is true or the game ends. Returns every event raised on the way."""
    events = []
    for _ in range(limit):
        if table.state.finished or (until is not None and until(table)):
            return events
        p = next((q for q in table.state.prompts if q.blocking), None)
        assert p is not None, "nothing to answer"
        choice = policy(table, p) if policy else None
        if choice is None:
            choice = _default(p)
        events.extend(table.act(p.seat, choice))
    raise AssertionError("auto() did not reach its goal")


def _default(p) -> Action:
    prefer = {"end_burn": "no_burn", "feather": "decline"}
    for o in p.options:
        if o.type == prefer.get(p.kind):
            return o
    if p.kind in ("bid_power", "bid_control"):
        return next(o for o in p.options if o.params["n"] == 0)
    if p.kind == "turn":
        plays = [o for o in p.options if o.type in ("play", "skip")]
        return plays[0]
    if p.kind == "extra_action":
        return next(o for o in p.options if o.params["use"] is False)
    return p.options[0]


def until_phase(phase: str, step: str | None = None):
    return lambda t: t.state.phase == phase and (step is None or t.state.step == step)


def until_prompt(kind: str, seat: int | None = None):
    return lambda t: any(p.kind == kind and (seat is None or p.seat == seat) for p in t.state.prompts)


# -- arrangements shared by many rule tests -------------------------------------------------
QUIET = "C1C"  # a level-1 crisis whose penalties are Hunger only and whose rewards give no attribute
CRISIS_CARDS = ("B-MOBILIZE", "B-ELITE", "B-INTIMIDATE", "B-MORALE", "B-ENVOY", "B-BRIBE")


def clear_leaders(table: Table) -> None:
    """Arrange: every face-up leader goes to the box (no leader ability interferes)."""
    for p in table.state.players:
        for col in p.columns:
            for slot in col.slots:
                if slot.leader:
                    table.state.box.append(slot.leader)
                    slot.leader = None


def crisis_hands(table: Table, seats=None) -> None:
    """Hands of the six basic face-down cards: nothing played touches a province or a track."""
    for seat in seats if seats is not None else range(len(table.state.players)):
        set_hand(table, seat, [card_of(seat, c) for c in CRISIS_CARDS])


def quiet_crisis(table: Table) -> None:
    if table.state.crisis != QUIET:
        move_card(table, QUIET, "crisis")


def bare_province(table: Table, seat: int, *columns: list[str]) -> None:
    """The seat's province becomes exactly `columns` (structure ids, bottom to top), no leaders."""
    p = pl(table, seat)
    for col in p.columns:
        table.state.box.extend(col.structures)
        for slot in col.slots:
            table.state.box.extend(([slot.leader] if slot.leader else []) + slot.flipped)
    p.columns = []
    for structures in columns:
        add_column(table, seat, *structures)


def scripted(plan: dict, log: list | None = None):
    """A policy for `auto`: `plan` maps (seat, prompt kind) to a list of wanted params, used in
    order; an option matches when it has every wanted key/value. Other prompts: the default.
    With `log`, every prompt met is recorded as (seat, kind, step, args, options, round)."""
    def pick(table, p):
        if log is not None:
            log.append((p.seat, p.kind, table.state.step, dict(p.args), [dict(o.params) for o in p.options],
                        table.state.round))
        wanted = plan.get((p.seat, p.kind))
        if not wanted:
            return None
        want = wanted.pop(0)
        for o in p.options:
            if all(o.params.get(k) == v for k, v in want.items()):
                return o
        raise AssertionError(f"{want} is not an option of {p.kind} for seat {p.seat}: {p.options}")
    return pick

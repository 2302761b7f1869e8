"""The Twisted Passage and the Passage tokens (F2205, the Gate Wraith's law): how the map
changes while the Gate Wraith is in play. Only the map: which cards do what with it is
`fate_gate_wraith`.

- The map center becomes a gate, the Twisted Passage (`TWISTED_PASSAGE`, "0G"): a system of
  the table (`state.systems`) from the Gate Wraith's setup on, and only then.
- A gate with a Passage token (`state.passages`) is out of play: it leaves `state.systems`
  and the map (`passage_reach`, a `turn.MAP_RULES` rule); pieces that would be placed there
  go to the Passage (`arcs.setup.PLACE_AT`).
- Moves: from every system bordering a Passaged gate into the Passage (one way); from the
  Passage to any planet whose ID symbol the event die in the map center shows (one way),
  after which the die is rerolled (`actions.AFTER_MOVE`).
- No player harms a Rival in the Passage (`empire.HARM_LIMITS`; Crises still do); a city
  there is Psionic (`lore_ops.CITY_TYPES`).

Readings:
- "Out of play" is the base game's: the gate leaves the map, its borders with it; the
  planets of its cluster stay, bordering each other as before.
- A gate broken in one's setup or by a Catapult takes its ships (each with its side),
  Imperial ships, Blight, Flagships and Witness/Pilgrim tokens to the Passage; buildings
  there are destroyed without Trophies, Outrage or Ransack (cities back to their boards,
  starports to their supplies), as the card says nothing of harm.
"""
from __future__ import annotations

from plugins.arcs import actions, lore_ops, turn
from plugins.arcs import setup as arcs_setup
from plugins.arcs.reach import Reach
from plugins.arcs.state import Ships, SystemState
from plugins.blighted_reach import empire
from plugins.blighted_reach.rules_box import TWISTED_PASSAGE, rules_box
from plugins.blighted_reach.state import BlightedReachState, Pieces

PASSAGE_TOKENS = 6
GAME_ID = "blighted-reach"


def in_play(state) -> bool:
    """The Twisted Passage is on this table (the Gate Wraith's setup opened it)."""
    return getattr(state, "game", "") == GAME_ID and TWISTED_PASSAGE in state.systems


def tokens_left(state: BlightedReachState) -> int:
    return PASSAGE_TOKENS - len(state.passages)


def open_passage(state: BlightedReachState, symbol: str) -> None:
    """The Passage joins the table's systems, the event die showing `symbol` beside it."""
    state.systems[TWISTED_PASSAGE] = SystemState(ships=[Ships() for _ in state.players])
    state.passage_die = symbol


def _add(pieces: dict, system: str, fresh: int, damaged: int) -> None:
    here = pieces.get(system, Pieces())
    now = Pieces(fresh=here.fresh + fresh, damaged=here.damaged + damaged)
    if now.total:
        pieces[system] = now


def destroy_building(state: BlightedReachState, system: str, index: int) -> dict:
    """A building destroyed without a Trophy (F2203 steps 2 and 3): back to its owner's
    board or supply, a Free one to the Free supply."""
    from plugins.blighted_reach.blight import return_building

    here = state.systems[system]
    b = here.buildings.pop(index)
    lore_ops.buildings_removed(state, system, [index])
    return_building(rules_box(), state, b)
    return {"system": system, "owner": b.owner, "kind": b.kind}


def break_gate(state: BlightedReachState, gate: str) -> dict:
    """F2203 steps 1 and 3: a Passage token on `gate`; its ships and tokens to the Twisted
    Passage, its buildings destroyed (no Trophies); the gate leaves the map. Returns what
    moved, for the event."""
    from plugins.flagships.state import KEY as FLAGSHIPS

    here = state.systems[gate]
    destroyed = [destroy_building(state, gate, i) for i in reversed(range(len(here.buildings)))]
    del state.systems[gate]
    passage = state.systems[TWISTED_PASSAGE]
    ships = {}
    for seat, group in enumerate(here.ships):
        if group.fresh or group.damaged:
            passage.ships[seat] = Ships(fresh=passage.ships[seat].fresh + group.fresh,
                                        damaged=passage.ships[seat].damaged + group.damaged)
            ships[str(seat)] = [group.fresh, group.damaged]
    moved: dict = {"ships": ships, "destroyed": destroyed}
    for name in ("imperial", "blight"):
        pieces = getattr(state, name)
        if gate in pieces:
            found = pieces.pop(gate)
            _add(pieces, TWISTED_PASSAGE, found.fresh, found.damaged)
            moved[name] = [found.fresh, found.damaged]
    for name in ("witnesses", "pilgrims"):
        tokens = getattr(state, name)
        if gate in tokens:
            tokens[TWISTED_PASSAGE] = tokens.get(TWISTED_PASSAGE, 0) + tokens.pop(gate)
            moved[name] = tokens[TWISTED_PASSAGE]
    for seat, board in state.module_state.get(FLAGSHIPS, {}).items():
        if board.get("system") == gate:
            board["system"] = TWISTED_PASSAGE
            moved.setdefault("flagships", []).append(int(seat))
    state.passages.append(gate)
    return moved


# -- the map (turn.MAP_RULES) -------------------------------------------------------------
_MAPS: dict[tuple, Reach] = {}


def die_planets(state: BlightedReachState) -> list[str]:
    """The planets in play whose ID symbol the central event die shows (the die's faces
    name the symbols as the campaign's box does: `setup.SYMBOLS`)."""
    from plugins.blighted_reach.setup import SYMBOLS

    box, symbol = rules_box(), SYMBOLS.get(state.passage_die, "")
    return sorted(s for s in state.systems if box.systems.get(s) is not None and box.systems[s].symbol == symbol)


def passage_reach(box, state, reach: Reach) -> Reach:
    """The map with the Passaged gates gone and the Twisted Passage's one-way links: in
    from every system bordering a Passaged gate, out to the die's planets."""
    if not in_play(state):
        return reach
    key = (id(reach), tuple(sorted(state.passages)), state.passage_die)
    found = _MAPS.get(key)
    if found is not None:
        return found
    broken = set(state.passages)
    neighbours = {s: set(n) - broken for s, n in reach.neighbours.items() if s not in broken}
    for gate in broken:
        for s in reach.neighbours.get(gate, ()):
            if s not in broken:
                neighbours[s].add(TWISTED_PASSAGE)
    neighbours[TWISTED_PASSAGE] = set(die_planets(state))
    found = _MAPS[key] = Reach(systems=frozenset((reach.systems - broken) | {TWISTED_PASSAGE}),
                               neighbours={s: frozenset(n) for s, n in neighbours.items()})
    if len(_MAPS) > 256:
        _MAPS.clear()
    return found


def left_passage(move) -> bool:
    """The move went out of the Twisted Passage (started there or passed through it)."""
    return move.origin == TWISTED_PASSAGE or TWISTED_PASSAGE in move.path[:-1]


def reroll(ctx, why: str) -> str:
    """Reroll the event die in the map center (F2205); its new ID symbol."""
    from plugins.blighted_reach.content import default_box as campaign_box
    from plugins.blighted_reach.setup import chance_roll

    _kind, symbol = chance_roll(ctx, why)("event", [list(f) for f in campaign_box().box.event_die_faces])
    ctx.state.passage_die = symbol
    ctx.emit("passage_die_rolled", symbol=symbol, why=why)
    return symbol


def leaving_passage(state, seat: int, move) -> bool:
    return in_play(state) and left_passage(move)


def reroll_after_leaving(ctx, seat: int, move, left: bool) -> None:
    """`actions.AFTER_MOVE`: a move out of the Passage rerolls the die (F2205)."""
    if left:
        reroll(ctx, "F2205")


# -- pieces placed on a Passaged gate (arcs.setup.PLACE_AT) --------------------------------
def placed_in_passage(state, system: str) -> str:
    if in_play(state) and system in state.passages:
        return TWISTED_PASSAGE
    return system


# -- no harm in the Passage (empire.HARM_LIMITS), Psionic cities (lore_ops.CITY_TYPES) ----
def no_harm_in_passage(state, seat: int, target, system: str, harm: str) -> str:
    if system == TWISTED_PASSAGE and in_play(state) and isinstance(target, int) and target >= 0 and target != seat:
        return "F2205: no player harms a Rival in the Twisted Passage"
    return ""


def passage_city_types(state, box, system: str):
    return ["psionic"] if system == TWISTED_PASSAGE else None


# -- the table's invariants ---------------------------------------------------------------
def passage_problems(state: BlightedReachState) -> list[str]:
    out = []
    if state.passages and not in_play(state):
        out.append("gates hold Passage tokens but the Twisted Passage is not in play")
    if len(state.passages) > PASSAGE_TOKENS or len(set(state.passages)) != len(state.passages):
        out.append(f"Passage tokens: {state.passages}")
    out += [f"{g} holds a Passage token yet is on the map" for g in state.passages if g in state.systems]
    return out


turn.MAP_RULES.append(passage_reach)
arcs_setup.PLACE_AT.append(placed_in_passage)
empire.HARM_LIMITS.append(no_harm_in_passage)
lore_ops.CITY_TYPES.append(passage_city_types)
actions.AFTER_MOVE.append((leaving_passage, reroll_after_leaving))


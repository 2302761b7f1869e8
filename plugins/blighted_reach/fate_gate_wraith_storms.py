"""Passage Storms (F2206, the Gate Wraith's Vox card, on top of the Court deck at its setup).

- When Drawn (`actions.DRAWN`, asked through `placing_flow.QUESTIONS` right after the step
  that drew it): the player with initiative attaches it to a card in the Court, and its
  place is filled again from the deck (`storms_host`).
- Crisis (`FATE_CRISIS_HANDLERS["passage_storms"]`): one hit on each piece in the Twisted
  Passage; then the card goes under the top card of the Court deck.
- When Secured (`passage_storms_moves`): its securer moves its ships out of the Passage to
  any planets, as many moves as it likes; the card stays in the Court.

Readings:
- "Each piece": every ship (a fresh one damaged, a damaged one destroyed: to The Dead Live
  while it is in play), every building (damaged, or destroyed and sent home: a Crisis takes
  no Trophy and provokes no Outrage), a Flagship there (one hit, as a Blight Crisis hits it)
  and Blight, which is Tough (BR-231): one hit is too few to damage it.
- With no card to attach to, it stays in the row as a Vox card of its own.
- The moves of When Secured are the securer's Loyal ships (Imperial ships follow only the
  Movement Law of a real Move) and do not read nor reroll the event die.
- "Remains in the Court": in its place in the row when it was there; attached, it stays
  attached, to the leftmost card of the row with nothing attached (discarded if none).
"""
from __future__ import annotations

import msgspec

from core.errors import BadParameter, IllegalAction
from core.state import Action
from plugins.arcs import actions, court_flow, placing_flow
from plugins.arcs.abilities import op
from plugins.arcs.state import Building, Ships
from plugins.blighted_reach import attachments, board
from plugins.blighted_reach import blight as bl
from plugins.blighted_reach import twisted_passage as tp
from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler, remove_from_court
from plugins.blighted_reach.rules_box import TWISTED_PASSAGE, rules_box
from plugins.blighted_reach.state import Pieces
from plugins.blighted_reach.tables import steps

STORMS = "F2206"


def _campaign(state) -> bool:
    return getattr(state, "game", "") == "blighted-reach"


# -- When Drawn ------------------------------------------------------------------------------
def free_hosts(state) -> list[str]:
    taken = set(state.attached) | set(state.attached.values())
    return [c for c in state.court_row if c and c != STORMS and c not in taken]


def note_drawn(state, position: int) -> None:
    """`actions.DRAWN`: Passage Storms came into the row; its host is asked next."""
    if _campaign(state) and state.court_row[position] == STORMS:
        state.storms_drawn = position


def storms_question(ctx):
    """`placing_flow.QUESTIONS`: right after the step that drew it, the player with
    initiative attaches Passage Storms to a Court card (none to choose: it stays put)."""
    state = ctx.state
    if not _campaign(state) or getattr(state, "storms_drawn", -1) < 0:
        return None
    position, state.storms_drawn = state.storms_drawn, -1
    hosts = free_hosts(state)
    if position >= len(state.court_row) or state.court_row[position] != STORMS or not hosts or state.initiative < 0:
        return None
    options = [Action("storms_host", {"host": h}) for h in hosts]
    return ctx.prompt(state.initiative, "storms_host", options, resume=storms_attached, question=True,
                      position=position)


@steps("gate_wraith_storms_attached")
def storms_attached(ctx, seat, params, position: int, question: bool = True):
    state = ctx.state
    host = params.get("host", "")
    if host not in free_hosts(state):
        raise BadParameter(f"{host!r} is not a Court card Passage Storms can attach to")
    if position >= len(state.court_row) or state.court_row[position] != STORMS:
        return
    agents = state.court_agents.pop(STORMS, [])
    state.court_row[position] = ""
    state.attached[host] = STORMS
    for owner, n in enumerate(agents):
        state.players[owner].agents += n
    ctx.emit("card_attached", seat=seat, card=STORMS, host=host, why=STORMS)
    court_flow.refill(ctx, position)


# -- Crisis ------------------------------------------------------------------------------------
def _hit_ships(ships: Ships) -> tuple[Ships, int]:
    return Ships(fresh=0, damaged=ships.fresh), ships.damaged


def hit_each_piece(state) -> dict:
    """One hit on every piece in the Twisted Passage. Returns what it did."""
    here = state.systems[TWISTED_PASSAGE]
    out: dict = {"ships": {}, "buildings": [], "flagships": {}}
    for seat, ships in enumerate(here.ships):
        takers = [t for t in bl.CRISIS_HIT_TAKERS if t(state, seat, TWISTED_PASSAGE, 0) is not None]
        for taker in takers:
            out["flagships"][str(seat)] = taker(state, seat, TWISTED_PASSAGE, 1)
        if ships.total:
            here.ships[seat], gone = _hit_ships(ships)
            board.destroyed_ships_home(state, seat, gone)
            out["ships"][str(seat)] = [ships.fresh, gone]
    imperial = state.imperial.get(TWISTED_PASSAGE)
    if imperial is not None and imperial.total:
        state.imperial[TWISTED_PASSAGE] = Pieces(damaged=imperial.fresh)
        if not imperial.fresh:
            del state.imperial[TWISTED_PASSAGE]
        board.destroyed_ships_home(state, board.EMPIRE, imperial.damaged)
        out["imperial"] = [imperial.fresh, imperial.damaged]
    kept = []
    for b in here.buildings:
        if b.damaged:
            bl.return_building(rules_box(), state, b)
            out["buildings"].append({"owner": b.owner, "kind": b.kind, "destroyed": True})
        else:
            kept.append(Building(kind=b.kind, owner=b.owner, damaged=True))
            out["buildings"].append({"owner": b.owner, "kind": b.kind, "destroyed": False})
    if len(kept) != len(here.buildings):
        from plugins.arcs.lore_ops import buildings_removed

        buildings_removed(state, TWISTED_PASSAGE, [i for i, b in enumerate(here.buildings) if b.damaged])
    here.buildings = kept
    return out


def _storms_crisis(call) -> dict:
    state = call.state
    hit = hit_each_piece(state) if tp.in_play(state) else {}
    remove_from_court(state, STORMS, "bury")
    if STORMS in state.court_deck:  # under the top card (unless the bury's refill drew it back)
        state.court_deck.remove(STORMS)
        state.court_deck.insert(min(1, len(state.court_deck)), STORMS)
    return {"event": "passage_storms", "card": STORMS, **hit}


FATE_CRISIS_HANDLERS["passage_storms"] = CrisisHandler(apply=_storms_crisis)


# -- When Secured --------------------------------------------------------------------------------
class StormMoves(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Moves out of the Passage: each [planet, fresh, damaged]; none to stop."""

    moves: list[tuple[str, int, int]] = []


def _planets(state) -> list[str]:
    box = rules_box()
    return sorted(s for s in state.systems if box.systems.get(s) is not None)


def _candidates(env, u) -> list[dict]:
    state = env.state
    if not tp.in_play(state):
        return [{"moves": []}]
    mine = state.systems[TWISTED_PASSAGE].ships_of(u.seat)
    out = [{"moves": []}]
    if mine.total:
        out += [{"moves": [[p, mine.fresh, mine.damaged]]} for p in _planets(state)]
    return out


@op("passage_storms_moves", params=StormMoves, candidates=_candidates)
def passage_storms_moves(env, u, choice: StormMoves) -> None:
    state = env.state
    if not choice.moves:
        return
    if not tp.in_play(state):
        raise IllegalAction("the Twisted Passage is not in play")
    planets = set(_planets(state))
    mine = state.systems[TWISTED_PASSAGE].ships_of(u.seat)
    fresh, damaged = mine.fresh, mine.damaged
    for planet, f, d in choice.moves:
        if planet not in planets:
            raise BadParameter(f"{planet!r} is not a planet in play")
        if f < 0 or d < 0 or f + d == 0:
            raise BadParameter("each move takes at least one ship, none negative")
        fresh, damaged = fresh - f, damaged - d
        if fresh < 0 or damaged < 0:
            raise BadParameter("more ships moved than stand in the Twisted Passage")
    here = state.systems[TWISTED_PASSAGE]
    for planet, f, d in choice.moves:
        now = here.ships[u.seat]
        here.ships[u.seat] = Ships(fresh=now.fresh - f, damaged=now.damaged - d)
        there = state.systems[planet].ships[u.seat]
        state.systems[planet].ships[u.seat] = Ships(fresh=there.fresh + f, damaged=there.damaged + d)
    env.emit("passage_storms_moved", seat=u.seat, card=u.card, moves=[list(m) for m in choice.moves])


# -- "This card remains in the Court" --------------------------------------------------------
def stays_in_place(ctx, card: str, position: int) -> bool:
    """`court_flow.STAYS`: secured (or ransacked) from the row, it goes back into its place."""
    state = ctx.state
    if card != STORMS or not _campaign(state) or STORMS not in state.resolving:
        return False
    state.resolving.remove(STORMS)
    state.court_row[position] = STORMS
    state.court_agents[STORMS] = [0] * len(state.players)
    ctx.emit("card_remains", card=STORMS, position=position)
    return True


def stays_attached(ctx, card: str) -> bool:
    """`attachments.REMAINS`: secured while attached, it stays attached (leftmost free card)."""
    state = ctx.state
    if card != STORMS or not _campaign(state) or STORMS not in state.resolving:
        return False
    hosts = free_hosts(state)
    if not hosts:
        return False
    state.resolving.remove(STORMS)
    state.attached[hosts[0]] = STORMS
    ctx.emit("card_attached", card=STORMS, host=hosts[0], why=STORMS)
    return True


court_flow.STAYS.append(stays_in_place)
actions.DRAWN.append(note_drawn)
placing_flow.QUESTIONS.append(storms_question)
attachments.REMAINS.append(stays_attached)

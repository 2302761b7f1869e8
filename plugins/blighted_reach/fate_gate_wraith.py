"""The Gate Wraith (FATE22, a C Fate: Act III only): its Fate Set's rules that the card data
cannot say. The map it changes (the Twisted Passage, Passaged gates, moves in and out, no
harm there, Psionic cities) is `twisted_passage`; The Dead Live is `fate_gate_wraith_dead`;
Passage Storms is `fate_gate_wraith_storms`.

- F2201 Setup side: Resettle (`fate_c`); gain Catapult Overdrive (Lore) and Breaking Gates
  & Placing Passages (ability, in the play area); the Passage opens and the Gate Wraith
  puts the first Passage token on a gate of its choice, which breaks as F2203 step 3 says
  (`first_passage`); the event die rolled into the map center (`roll_passage_die`); The
  Dead Live by the map (a reminder); F2205 into the booklet; Passage Storms on top of the
  Court deck. Objective side, the final objective "Collapse the Gates of the Reach" (1 per
  Passage token on the map each time it wins an ambition) and "Control the Twisted
  Passage" (1 per Passage token at a chapter's end, before scoring and before The Dead
  Live places any ship, if it controls the Passage); start 24/21/18 by players.
- F2202 Catapult Overdrive: its holder Catapults from Rival starports in systems it
  controls (`free_states.CATAPULT_ORIGINS`); entering the Twisted Passage never ends its
  Catapult, whatever controls it or Blight there (`free_states.CATAPULT_GOES_ON`), so it
  goes on to a planet the die shows.
- F2203 Breaking Gates: a Catapult of its holder from a planet into its own cluster's gate
  (a move from a system it may Catapult from, ARCS-152) breaks that gate once the ships
  are in: a Passage token on it, the starport used destroyed without a Trophy, everything
  there to the Twisted Passage (`actions.AFTER_MOVE`).

Readings:
- Every move from a system the mover may Catapult from is a Catapult move (ARCS-152: the
  starport makes it one), so such a move of the Gate Wraith into its own cluster's gate
  always breaks it. The starport used is its own there if any, else a Free one it
  controls, else a Rival's (Overdrive): one building.
- Breaking *places* the ships in the Passage (step 3): that ends the move, so a breaking
  Catapult goes no farther than the gate (a longer path is refused); the Gate Wraith moves
  on from the Passage with a later move.
- No more Passage tokens (6) means no more gates break: the Catapult into the gate is an
  ordinary move.
- The Slipstream Drive's own Catapult (Flagships) breaks a gate too: its Slipstream Drive
  Upgrade and Armor are destroyed without Trophies (`slipstream_broke`).
"""
from __future__ import annotations

from core.errors import IllegalAction
from core.state import Action
from plugins.arcs import actions
from plugins.arcs.abilities import standing
from plugins.blighted_reach import board, fates, free_states, objectives
from plugins.blighted_reach import twisted_passage as tp
from plugins.blighted_reach.fate_c import is_campaign, seat_of
from plugins.blighted_reach.rules_box import TWISTED_PASSAGE
from plugins.blighted_reach.state import FREE, BlightedReachState
from plugins.blighted_reach.tables import steps

GATE_WRAITH = "FATE22"
OVERDRIVE = "F2202"
BREAKING = "F2203"


def holds_overdrive(state: BlightedReachState, seat: int) -> bool:
    return is_campaign(state) and 0 <= seat < len(state.players) and OVERDRIVE in state.players[seat].lore


def breaker(state: BlightedReachState) -> int:
    """The seat with Breaking Gates & Placing Passages in its play area (-1: none)."""
    return next((s for s, area in enumerate(state.play_area) if BREAKING in area), -1)


def gates_in_play(state: BlightedReachState) -> list[str]:
    return sorted(s for s in state.systems if s.endswith("G") and s != TWISTED_PASSAGE)


# -- F2201 setup steps 3 and 4 ------------------------------------------------------------------
@fates.handler("first_passage")
def first_passage(ctx, seat: int, card_id: str, effect) -> None:
    """The Twisted Passage opens; the Gate Wraith names the gate its first Passage goes on."""
    state = ctx.state
    tp.open_passage(state, "")
    options = [Action("first_passage", {"gate": g}) for g in gates_in_play(state)]
    ctx.ask(seat, "first_passage", options, resume=first_passage_placed, card=card_id)


fates.WAITS.add("first_passage")


@steps("gate_wraith_first_passage")
def first_passage_placed(ctx, seat, params, card: str):
    gate = params["gate"]
    if gate not in gates_in_play(ctx.state):
        raise IllegalAction(f"{gate!r} is not a gate in play")
    moved = tp.break_gate(ctx.state, gate)
    ctx.emit("gate_broken", seat=seat, gate=gate, why=card, **moved)


@fates.handler("roll_passage_die")
def roll_passage_die(ctx, seat: int, card_id: str, effect) -> None:
    tp.reroll(ctx, card_id)


@fates.handler("place_the_dead_live")
def place_the_dead_live(ctx, seat: int, card_id: str, effect) -> None:
    """The Dead Live by the map (a reminder); it counts the chapter's dead from now on."""
    from plugins.blighted_reach.fate_gate_wraith_dead import mark_chapter

    fates.tuck_reminder_under_map(ctx, seat, card_id, effect)
    mark_chapter(ctx.state)


# The cards' standing rules, carried out by the hooks below and in the sibling modules.
standing("catapult_from_rival_starports", "catapult_on_through_the_passage", "catapult_into_own_gate_breaks_it",
         "destroyed_ships_return_to_the_passage", "twisted_passage")


# -- F2202 Catapult Overdrive --------------------------------------------------------------------
def rival_starport_origin(state, seat: int, system: str) -> bool:
    """`free_states.CATAPULT_ORIGINS`: a Rival's starport in a system its holder controls."""
    if not holds_overdrive(state, seat):
        return False
    here = state.systems[system]
    return (any(b.kind == "starport" and b.owner >= 0 and b.owner != seat for b in here.buildings)
            and board.controls_on_turn(state, seat, system))


def on_through_passage(state, seat: int, move, i: int) -> bool:
    """`free_states.CATAPULT_GOES_ON`: once its Catapult enters the Passage, neither control
    nor Blight ends it there or after."""
    return holds_overdrive(state, seat) and tp.in_play(state) and TWISTED_PASSAGE in move.path[:i + 1]


# -- F2203 Breaking Gates & Placing Passages ----------------------------------------------------
def _own_gate(origin: str) -> str:
    return f"{origin.split('.')[0]}G" if "." in origin else ""


def starport_used(state: BlightedReachState, seat: int, system: str) -> int:
    """The index of the starport the seat Catapults with from `system` (-1: none)."""
    here = state.systems[system]
    order = [b.owner == seat for b in here.buildings], [b.owner == FREE for b in here.buildings], \
        [b.owner >= 0 and b.owner != seat for b in here.buildings]
    for wanted in order:
        found = [i for i, b in enumerate(here.buildings) if b.kind == "starport" and wanted[i]]
        if found:
            return found[0]
    return -1


def breaking(state, seat: int, origin: str, first: str) -> bool:
    """Would a Catapult of `seat` from `origin` into `first` break that gate now?"""
    return (tp.in_play(state) and breaker(state) == seat and first == _own_gate(origin)
            and first in state.systems and tp.tokens_left(state) > 0
            and free_states.catapult_origin(state, seat, origin))


def _about_to_move(state, seat: int, move):
    """`actions.AFTER_MOVE` (before): the gate this move breaks and the starport it used."""
    if not move.path or not breaking(state, seat, move.origin, move.path[0]):
        return None
    return [move.path[0], starport_used(state, seat, move.origin)]


def broke(ctx, seat: int, move, note) -> None:
    """`actions.AFTER_MOVE` (after): the starport destroyed, the gate broken (F2203 1-3)."""
    if note is None:
        return
    gate, starport = note
    destroyed = [tp.destroy_building(ctx.state, move.origin, starport)] if starport >= 0 else []
    moved = tp.break_gate(ctx.state, gate)
    ctx.emit("gate_broken", seat=seat, gate=gate, why=BREAKING, used=destroyed, **moved)


def check_breaking_move(box, state, reach, seat: int, act) -> None:
    """`empire_hooks.MOVE_CHECKS`: a breaking Catapult ends in the gate it breaks."""
    if len(act.path) > 1 and breaking(state, seat, act.origin, act.path[0]):
        raise IllegalAction(f"{BREAKING}: Catapulting into {act.path[0]} breaks it and places the ships in "
                            "the Twisted Passage; the move ends there")


def slipstream_breaks(state, seat: int, origin: str, path: list[str]) -> bool:
    """The Slipstream Drive's Catapult (Flagships) from a planet into its own gate breaks it."""
    return bool(path) and tp.in_play(state) and breaker(state) == seat and path[0] == _own_gate(origin) \
        and path[0] in state.systems and tp.tokens_left(state) > 0


def check_slipstream(state, seat: int, origin: str, path: list[str]) -> None:
    if len(path) > 1 and slipstream_breaks(state, seat, origin, path):
        raise IllegalAction(f"{BREAKING}: Catapulting into {path[0]} breaks it; the Catapult ends there")


def slipstream_broke(env, seat: int, origin: str, path: list[str]) -> None:
    """After the Slipstream Drive's Catapult: the gate breaks and the Flagship's Slipstream
    Drive Upgrade and Armor are destroyed without Trophies (step 2)."""
    from plugins.flagships import slipstream

    if not slipstream_breaks(env.state, seat, origin, path):
        return
    destroyed = slipstream.destroy_drive(env.state, seat)
    moved = tp.break_gate(env.state, path[0])
    env.emit("gate_broken", seat=seat, gate=path[0], why=BREAKING, flagship_destroyed=destroyed, **moved)


# -- the final objective (F2201) ----------------------------------------------------------------
def passages_on_map(box, cbox, state: BlightedReachState, seat: int, score=None, ambition="") -> int:
    return len(state.passages)


def controls_passage(box, cbox, state: BlightedReachState, seat: int, score=None, ambition="") -> bool:
    return tp.in_play(state) and board.controls_for_scoring(state, seat, TWISTED_PASSAGE)


objectives.COUNT_RULES["passage_token_on_map"] = passages_on_map
objectives.CONDITION_RULES["controls_twisted_passage"] = controls_passage


def gate_wraith_problems(box, state: BlightedReachState) -> list[str]:
    """Invariants: the map's (`twisted_passage`), and the cards where the Fate keeps them."""
    out = tp.passage_problems(state)
    if state.passages and seat_of(state, GATE_WRAITH) < 0 and breaker(state) < 0:
        out.append("Passage tokens on the map with no Gate Wraith")
    return out


def _register() -> None:
    from plugins.blighted_reach import empire_hooks

    free_states.CATAPULT_ORIGINS.append(rival_starport_origin)
    free_states.CATAPULT_GOES_ON.append(on_through_passage)
    actions.AFTER_MOVE.append((_about_to_move, broke))
    empire_hooks.MOVE_CHECKS.append(check_breaking_move)
    try:
        from plugins.flagships import slipstream
    except ImportError:  # the Flagships module not installed: no Slipstream Drive to break with
        return
    slipstream.CHECKS.append(check_slipstream)
    slipstream.AFTER.append(slipstream_broke)


_register()

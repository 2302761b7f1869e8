"""The Overlord (FATE17, a C Fate: Act III only): its Fate Set's rules that the card data
cannot say.

- F1701 Setup side: Resettle (`fate_c`), gain Sycophants, Reach Rejects Overlord into the
  booklet, then, with no Outrage yet, the seat may Provoke Outrage once to place 2 ships at
  a planet of that type (`provoke_once_for_two_ships`, asked as one choice of planet: its
  type is the Outrage). Sycophants does not also place ships for that Provoking.
  Objective side, the final objective "Rule by Fear Alone" / "Control by Fear Alone":
  at each chapter's end 1 space per Outraged type the seat holds a resource of, 2 per
  Outraged type it controls a planet of (BR-106, BR-107: at 0 with 1 Power it wins).
- F1702 Sycophants (a reprint of F1102, whose effects it plays): kept when its holder
  Provokes Weapon Outrage (`keep_card`); each time its holder Provokes Outrage, once per
  turn, it may place 2 fresh ships at a planet of that type (`ships_on_provoking_outrage`,
  asked right after the step that provoked it, before anything else: `placing_flow.QUESTIONS`);
  Prelude: discard it to place 3 ships in a system the holder controls (the base op).
- F1703 Reach Rejects Overlord (Edict): the Overlord loses 1/3/6/8/10 Power for 1-5 Outrage.

Readings:
- "A resource type you have" counts the tokens in the seat's resource slots.
- Sycophants' ships may go to any planet of the type, from the holder's supply (fewer if
  it has fewer). A Provoking outside any turn (a Crisis, an Edict) is "a turn" of its own.
- Outraged types count once each, however the slot is covered (an agent or a placeholder).
"""
from __future__ import annotations

from core.state import Action
from plugins.arcs import placing_flow
from plugins.arcs.abilities import standing
from plugins.arcs.outrage import PROVOKED, provoke_outrage
from plugins.arcs.setup import place_ships
from plugins.blighted_reach import board, fates, objectives
from plugins.blighted_reach.fate_c import is_campaign, planets_of, seat_of
from plugins.blighted_reach.rules_box import rules_box
from plugins.blighted_reach.state import BlightedReachState
from plugins.blighted_reach.tables import steps

OVERLORD = "FATE17"
SYCOPHANTS = ("F1702", "F1102")  # the Overlord's card and the Act II print it reprints
SETUP_SHIPS = 2
SYCOPHANT_SHIPS = 2
LOSS = {0: 0, 1: 1, 2: 3, 3: 6, 4: 8, 5: 10}  # Reach Rejects Overlord: Outrage -> Power lost

standing("ships_on_provoking_outrage")


# -- F1701 setup step 4 ----------------------------------------------------------------------
@fates.handler("provoke_once_for_two_ships")
def provoke_once_for_two_ships(ctx, seat: int, card_id: str, effect) -> None:
    """With no Outrage, the seat may name a planet: it Provokes Outrage of the planet's type
    and places 2 ships there. Declining is the empty planet."""
    state = ctx.state
    if state.players[seat].outrage:
        ctx.emit("setup_step_skipped", seat=seat, card=card_id, why="already Outraged")
        return
    planets = planets_of(state, rules_box().board.resources)
    options = [Action("overlord_outrage", {"planet": ""})] + [Action("overlord_outrage", {"planet": p}) for p in planets]
    ctx.ask(seat, "overlord_outrage", options, resume=overlord_outraged, card=card_id)


@steps("overlord_outraged")
def overlord_outraged(ctx, seat, params, card: str):
    planet = params["planet"]
    if not planet:
        return
    state = ctx.state
    resource = rules_box().systems[planet].type
    provoke_outrage(rules_box(), state, seat, resource)
    state.sycophants_due = []  # this Provoking does not also trigger Sycophants
    placed = place_ships(state, planet, seat, SETUP_SHIPS)
    ctx.emit("outrage_provoked", seat=seat, resources=[resource], why=card)
    ctx.emit("ships_placed", seat=seat, card=card, systems={planet: placed})


# -- F1702 Sycophants --------------------------------------------------------------------------
def holds_sycophants(state: BlightedReachState, seat: int) -> bool:
    return any(c in state.players[seat].guild for c in SYCOPHANTS)


def turn_key(state: BlightedReachState) -> str:
    """Which turn it is, for "once per turn": the round's plays so far name the turn being
    taken; outside any turn the round's end is one turn of its own."""
    turn = state.turn
    who = f"{turn.seat}:{len(state.plays)}" if turn is not None else "between"
    return f"{state.act}:{state.chapter}:{state.round}:{who}"


def note_provoked(box, state, seat: int, resource: str) -> None:
    """`outrage.PROVOKED`: the holder of Sycophants Provoked Outrage; its placement is due."""
    if is_campaign(state) and holds_sycophants(state, seat) and state.players[seat].ships > 0:
        state.sycophants_due.append(f"{seat}:{resource}")


def _due(state: BlightedReachState) -> tuple[int, list[str]]:
    """The seat whose placement is due and the types it may place at (-1 when none)."""
    if not state.sycophants_due:
        return -1, []
    seat = int(state.sycophants_due[0].split(":")[0])
    types = sorted({d.split(":")[1] for d in state.sycophants_due if int(d.split(":")[0]) == seat})
    return seat, types


def sycophants_question(ctx):
    """`placing_flow.QUESTIONS`: ask the holder where its ships go, if it may still place
    this turn and has ships; else the due placement lapses."""
    state = ctx.state
    if not is_campaign(state) or not getattr(state, "sycophants_due", None):
        return None
    seat, types = _due(state)
    if (state.sycophants_used == turn_key(state) or not holds_sycophants(state, seat)
            or state.players[seat].ships <= 0 or not planets_of(state, types)):
        state.sycophants_due = []
        return None
    options = [Action("sycophants", {"planet": ""})] + [Action("sycophants", {"planet": p})
                                                        for p in planets_of(state, types)]
    return ctx.prompt(seat, "sycophants", options, resume=sycophants_placed, question=True)


@steps("sycophants_placed")
def sycophants_placed(ctx, seat, params, question: bool = True):
    state = ctx.state
    state.sycophants_due = []
    planet = params["planet"]
    if not planet:
        return
    state.sycophants_used = turn_key(state)
    placed = place_ships(state, planet, seat, SYCOPHANT_SHIPS)
    ctx.emit("ships_placed", seat=seat, card="F1702", systems={planet: placed})


PROVOKED.append(note_provoked)
placing_flow.QUESTIONS.append(sycophants_question)


# -- F1703 Reach Rejects Overlord ----------------------------------------------------------
@fates.handler("overlord_loses_power_by_outrage")
def reach_rejects_overlord(ctx, seat: int, card_id: str, effect) -> None:
    """The Overlord (whoever is First Regent) loses Power by its number of Outrage."""
    state = ctx.state
    overlord = seat_of(state, OVERLORD)
    if overlord < 0:
        ctx.emit("edict_lapsed", card=card_id, why="nobody is the Overlord")
        return
    lost = LOSS[min(len(state.players[overlord].outrage), max(LOSS))]
    state.players[overlord].power -= lost
    ctx.emit("power_lost", seat=overlord, power=lost, why=card_id)


# -- the final objective (F1701) ---------------------------------------------------------------
def outrage_types_held(box, cbox, state: BlightedReachState, seat: int, score=None, ambition="") -> int:
    """Rule by Fear Alone: the Outraged types the seat holds a resource token of."""
    player = state.players[seat]
    return len({r for r in player.resources if r is not None and r in player.outrage})


def outrage_planet_types(box, cbox, state: BlightedReachState, seat: int, score=None, ambition="") -> int:
    """Control by Fear Alone: the Outraged types the seat controls a planet of (the First
    Regent counting the Empire's systems, BR-121)."""
    player = state.players[seat]
    return sum(any(board.controls_for_scoring(state, seat, p) for p in planets_of(state, (r,)))
               for r in set(player.outrage))


objectives.COUNT_RULES["outrage_resource_type_held"] = outrage_types_held
objectives.COUNT_RULES["outrage_planet_type_controlled"] = outrage_planet_types

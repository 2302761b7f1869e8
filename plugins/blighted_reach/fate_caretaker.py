"""The Caretaker (FATE05, cards F501-F521): the four Golems and the cards that find, wake,
spend and silence them.

A Golem is a token with a Sleeping side (no type shown) and an Awake side (its type:
warrior, protector, seeker or harvester). Each is in exactly one place
(`BlightedReachState.golems`): at a system on the map, on the Golem Hearth of the seat
holding it, among a seat's resources ("held"), or scrapped. The types of Sleeping Golems
are secret: views show them through `golem_view`.

Reading (Golems among resources): a Golem a player holds outside the Golem Hearth is kept
beside their resource row, not in one of its slots, so the base resource rules stay about
resources; where the card text asks for an empty resource slot (a spent Golem goes to a
Rival's empty slot), the held Golems are counted as filling slots.
"""
from __future__ import annotations

from typing import Literal

import msgspec

from core import chance
from core.errors import BadParameter, IllegalAction
from core.hookspecs import hookimpl
from core.seats import seat_name
from core.state import Action
from plugins.arcs.abilities import op, standing
from plugins.arcs.actions import after_move, check_move, do_move, move_notes
from plugins.arcs.placing import gain
from plugins.arcs.setup import open_slots
from plugins.arcs.state import Ships
from plugins.blighted_reach import board, fates
from plugins.blighted_reach.crises import FATE_CRISIS_HANDLERS, CrisisHandler
from plugins.blighted_reach.objectives import COUNT_RULES, GOAL_RULES, advance_on_event, winning_an_ambition
from plugins.blighted_reach.state import BlightedReachState, Golem, Pieces
from plugins.blighted_reach.tables import steps

GOLEMS = ("warrior", "protector", "seeker", "harvester")
HEARTH = "F503"   # Golem Hearth: holds any number of Golems
BEACON = "F502"   # Golem Beacon: Awaken (Influence)
SPEAKERS = "F504"  # Stone-Speakers
CARETAKER = "FATE05"


# -- places ------------------------------------------------------------------------------------
def on_map(system: str) -> str:
    return f"map:{system}"


def on_hearth(seat: int) -> str:
    return f"hearth:{seat}"


def held_by(seat: int) -> str:
    return f"held:{seat}"


SCRAPPED = "scrapped"


def seat_of(place: str) -> int:
    """The seat holding a Golem at `place` (Hearth or resources), -1 for the map or the scrap."""
    kind, _, rest = place.partition(":")
    return int(rest) if kind in ("hearth", "held") else -1


def system_of(place: str) -> str:
    kind, _, rest = place.partition(":")
    return rest if kind == "map" else ""


def golems_of(state: BlightedReachState, seat: int) -> list[str]:
    """The Golems `seat` has (on its Hearth or among its resources), in the types' order."""
    return [g for g in GOLEMS if g in state.golems and seat_of(state.golems[g].place) == seat]


def in_play(state: BlightedReachState) -> list[str]:
    """The Golems not scrapped (on the map or held)."""
    return [g for g in GOLEMS if g in state.golems and state.golems[g].place != SCRAPPED]


# -- Act I setup (F501) --------------------------------------------------------------------------
def gates_without_imperial_ships(box, state: BlightedReachState) -> list[str]:
    """The gate of each cluster where no Imperial ship stands, in cluster order."""
    imperial = {box.cluster_of(s) for s, p in state.imperial.items() if p.total}
    return [c.gate for c in box.map.clusters if c.id not in imperial]


@fates.handler("sleeping_golems_on_non_imperial_gates")
def place_sleeping_golems(ctx, seat: int, card_id: str, effect) -> None:
    """F501: the four Golem tokens shuffled face down, one Sleeping at the gate of each
    cluster without Imperial ships (four in Act I: two of six clusters are the Empire's).
    Reading: were there fewer such gates, the Golems left over stay off the map, scrapped;
    were there more, the first gates in cluster order get one each."""
    from plugins.arcs.content import box_for

    state: BlightedReachState = ctx.state
    tokens = list(GOLEMS)
    chance.shuffle(ctx, tokens, "Sleeping Golems")
    gates = gates_without_imperial_ships(box_for(state), state)
    places = {golem: on_map(gates[i]) if i < len(gates) else SCRAPPED for i, golem in enumerate(tokens)}
    state.golems = {golem: Golem(place=places[golem]) for golem in GOLEMS}  # kept in type order
    ctx.emit("golems_placed", seat=seat, card=card_id, gates=gates[:len(tokens)])


# -- views and invariants ------------------------------------------------------------------------
def golem_view(state: BlightedReachState, viewer: int | None) -> list[dict]:
    """Every Golem as `viewer` may see it: place and side always; the type once Awake, or
    to the seat holding it (a Sleeping Golem on the map shows no type to anyone)."""
    out = []
    for golem in GOLEMS:
        if golem not in state.golems:
            continue
        g = state.golems[golem]
        shown = g.awake or (viewer is not None and seat_of(g.place) == viewer)
        out.append({"place": g.place, "awake": g.awake, "type": golem if shown else ""})
    # Sleeping Golems on the map are listed by place only, in the map's order, so the list's
    # order does not give their types away.
    return sorted(out, key=lambda d: (d["type"] == "", d["place"], d["type"]))


def golem_problems(box, state: BlightedReachState) -> list[str]:
    """Each Golem in exactly one known place: all four once placed, on a real system or with a
    real seat, on a Golem Hearth only if that seat holds one."""
    out: list[str] = []
    if not state.golems:
        return out
    if sorted(state.golems) != sorted(GOLEMS):
        out.append(f"the Golems are not the four: {sorted(state.golems)}")
    n = len(state.players)
    for golem, g in state.golems.items():
        kind, _, rest = g.place.partition(":")
        if kind == "map":
            if rest not in state.systems:
                out.append(f"the {golem} Golem is at {rest!r}, not a system")
        elif kind in ("hearth", "held"):
            if not rest.isdigit() or int(rest) >= n:
                out.append(f"the {golem} Golem is with no seat ({g.place!r})")
            elif kind == "hearth" and HEARTH not in state.players[int(rest)].lore:
                out.append(f"the {golem} Golem is on the Golem Hearth of a seat without it")
        elif g.place != SCRAPPED:
            out.append(f"the {golem} Golem is nowhere known ({g.place!r})")
    return out


# -- holding Golems (F503, F505) -----------------------------------------------------------------
def free_slots(box, state: BlightedReachState, seat: int) -> int:
    """The seat's empty open resource slots, the Golems it holds among its resources filling
    one each (the module's reading)."""
    player = state.players[seat]
    empty = sum(1 for i in open_slots(box, player) if player.resources[i] is None)
    return empty - sum(1 for g in state.golems.values() if g.place == held_by(seat))


def home_of(state: BlightedReachState, seat: int) -> str:
    """Where a Golem the seat takes goes: its Golem Hearth (F503 holds any number), else
    among its resources."""
    return on_hearth(seat) if HEARTH in state.players[seat].lore else held_by(seat)


def wake(state: BlightedReachState, golems) -> list[str]:
    woken = [g for g in golems if not state.golems[g].awake]
    for g in woken:
        state.golems[g] = Golem(place=state.golems[g].place, awake=True)
    return woken


def wake_held(state: BlightedReachState) -> list[str]:
    """F503's Crisis: every Sleeping Golem that is not on the map (held by anyone) wakes."""
    return wake(state, [g for g in in_play(state) if not system_of(state.golems[g].place)])


FATE_CRISIS_HANDLERS["wake_held_golems"] = CrisisHandler(
    apply=lambda call: {"event": "golems_woken", "card": call.card, "golems": wake_held(call.state)})

# Standing rules: the Golem Hearth holds Golems (`home_of`), the Golems law is read where
# Golems move (`spend_golem`), Knowledge Set Free by the Summit rules.
standing("hold_golems", "golems")


# -- Golem Beacon: Awaken (Influence) (F502) -----------------------------------------------------
class AwakenChoice(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    systems: list[str]  # the systems whose Golems are taken (each one the Caretaker controls)


def awakenable(state: BlightedReachState, seat: int) -> list[str]:
    """Systems the seat controls (on its turn) holding a Golem, in the map's order."""
    return sorted({system_of(g.place) for g in state.golems.values() if system_of(g.place)
                   and board.controls_on_turn(state, seat, system_of(g.place))})


def _awaken_candidates(env, u):
    here = awakenable(env.state, u.seat)
    out = [{"systems": here}] if here else []
    return out + ([{"systems": [s]} for s in here] if len(here) > 1 else [])


@op("awaken_golems", params=AwakenChoice, candidates=_awaken_candidates,
    usable=lambda env, u: bool(awakenable(env.state, u.seat)))
def do_awaken(env, u, choice: AwakenChoice) -> None:
    """F502 Awaken (Influence): the Golems in the chosen systems the Caretaker controls go
    onto its Golem Hearth, Awake if it is winning a declared ambition (else as they were).
    Reading: "Golems you control" are Golems in systems you control on your turn."""
    from plugins.arcs.content import default_box as arcs_box
    from plugins.blighted_reach.content import default_box as campaign_box

    state = env.state
    allowed = set(awakenable(state, u.seat))
    if not choice.systems or len(set(choice.systems)) != len(choice.systems) or set(choice.systems) - allowed:
        raise IllegalAction(f"Awaken takes Golems from systems you control: {sorted(allowed)}")
    woke = winning_an_ambition(arcs_box(), campaign_box(), state, u.seat)
    taken = [g for g in GOLEMS if g in state.golems and system_of(state.golems[g].place) in choice.systems]
    for g in taken:
        state.golems[g] = Golem(place=home_of(state, u.seat), awake=state.golems[g].awake or woke)
    env.emit("golems_awakened", seat=u.seat, systems=list(choice.systems), count=len(taken), awake=woke)


# -- Golem Actions (F506) and the Golems law (F505) ------------------------------------------------
class GolemSpend(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Spend one Awake Golem in the Prelude (F506); `act` False declines its action. `to`: the
    Rival whose empty resource slot takes it, Sleeping (F505); -1 when no Rival has one.
    Its action's choices: warrior `system`; protector `repair` ([system, owner] pairs, the
    owner a seat or -2 for the Empire); seeker a Catapult move (`origin`, `path`, `fresh`,
    `damaged`, `drops`); harvester `resource`."""

    golem: Literal["warrior", "protector", "seeker", "harvester"]
    to: int = -1
    act: bool = True
    system: str = ""
    repair: list[tuple[str, int]] = []
    origin: str = ""
    path: list[str] = []
    fresh: int = 0
    damaged: int = 0
    drops: list[tuple[int, int]] = []
    resource: Literal["", "material", "fuel", "weapon", "relic", "psionic"] = ""


def spendable(state: BlightedReachState, seat: int) -> list[str]:
    """The seat's Awake Golems (on its Hearth or among its resources)."""
    return [g for g in golems_of(state, seat) if state.golems[g].awake]


def receivers(box, state: BlightedReachState, seat: int) -> list[int]:
    """Rivals with an empty resource slot a spent Golem may go to (F505)."""
    return [r for r in board.rivals(state, seat) if free_slots(box, state, r) > 0]


def _damaged_here(state: BlightedReachState, system: str) -> bool:
    here = state.systems[system]
    return any(s.damaged for s in here.ships) or board.imperial_ships(state, system).damaged > 0


def _golem_candidates(env, u):
    state, box = env.state, env.box
    to = receivers(box, state, u.seat) or [-1]
    for golem in spendable(state, u.seat):
        for r in to:
            yield {"golem": golem, "to": r, "act": False}
        first = {"golem": golem, "to": to[0]}
        if golem == "warrior":
            for system in state.systems:
                if _damaged_here(state, system):
                    yield {**first, "system": system}
        elif golem == "protector":
            mine = [[s, u.seat] for s, here in state.systems.items() if here.ships_of(u.seat).damaged]
            if mine:
                yield {**first, "repair": mine}
        elif golem == "seeker":
            reach = _reach(box, state)
            for origin, here in state.systems.items():
                ships = here.ships_of(u.seat)
                if not ships.total:
                    continue
                for step in sorted(reach.neighbours.get(origin, ())):
                    yield {**first, "origin": origin, "path": [step], "fresh": ships.fresh, "damaged": ships.damaged}
        else:
            for r in box.board.resources:
                if state.supply.get(r, 0) > 0:
                    yield {**first, "resource": r}


def _reach(box, state):
    from plugins.arcs.turn import reach_of

    return reach_of(box, state)


def check_spend(box, state: BlightedReachState, seat: int, c: GolemSpend) -> None:
    if c.golem not in spendable(state, seat):
        raise IllegalAction(f"you have no Awake {c.golem} Golem to spend")
    to = receivers(box, state, seat)
    if (c.to not in to) if to else c.to != -1:
        raise BadParameter(f"a spent Golem goes Sleeping to one of {to} (a Rival with an empty "
                           "resource slot), or stays with you (-1) when none has one")
    extra = {"system": c.system, "repair": c.repair, "origin": c.origin, "path": c.path, "resource": c.resource,
             "fresh": c.fresh, "damaged": c.damaged, "drops": c.drops}
    used = {k for k, v in extra.items() if v}
    allowed = {"warrior": {"system"}, "protector": {"repair"},
               "seeker": {"origin", "path", "fresh", "damaged", "drops"}, "harvester": {"resource"}}[c.golem]
    if used - allowed or (not c.act and used):
        raise BadParameter(f"the {c.golem} Golem's action takes only {sorted(allowed)}")
    if not c.act:
        return
    if c.golem == "warrior":
        if c.system not in state.systems:
            raise BadParameter(f"{c.system!r} is not a system")
    elif c.golem == "protector":
        for system, owner in c.repair:
            if system not in state.systems or not (owner == board.EMPIRE or 0 <= owner < len(state.players)):
                raise BadParameter(f"no ships of {owner} to repair in {system!r}")
    elif c.golem == "seeker":
        from plugins.arcs.actions import Move

        if c.origin not in state.systems:
            raise BadParameter(f"{c.origin!r} is not a system")
        check_move(state, _reach(box, state), seat, Move(origin=c.origin, fresh=c.fresh, damaged=c.damaged,
                                                         path=tuple(c.path), drops=tuple(tuple(d) for d in c.drops)),
                   catapult=True)
    elif not c.resource:
        raise BadParameter("the harvester Golem gains a resource: name it")


def warrior(state: BlightedReachState, seat: int, system: str) -> dict[str, int]:
    """F506 Warrior: every damaged ship in the system is destroyed. Reading: outside a
    battle nobody takes Trophies; each ship goes back to its owner's supply (the Imperial
    ones to the Empire's)."""
    here = state.systems[system]
    destroyed: dict[str, int] = {}
    for owner, ships in enumerate(here.ships):
        if ships.damaged:
            destroyed[str(owner)] = ships.damaged
            board.destroyed_ships_home(state, owner, ships.damaged)
            here.ships[owner] = Ships(fresh=ships.fresh, damaged=0)
    imperial = board.imperial_ships(state, system)
    if imperial.damaged:
        destroyed["empire"] = imperial.damaged
        board.destroyed_ships_home(state, board.EMPIRE, imperial.damaged)
        if imperial.fresh:
            state.imperial[system] = Pieces(fresh=imperial.fresh)
        else:
            del state.imperial[system]
    return destroyed


def protector(state: BlightedReachState, repairs: list[tuple[str, int]]) -> int:
    """F506 Protector: the chosen owners' damaged ships in the chosen systems are repaired."""
    count = 0
    for system, owner in repairs:
        if owner == board.EMPIRE:
            p = board.imperial_ships(state, system)
            if p.damaged:
                count += p.damaged
                state.imperial[system] = Pieces(fresh=p.total)
        else:
            ships = state.systems[system].ships[owner]
            count += ships.damaged
            state.systems[system].ships[owner] = Ships(fresh=ships.total)
    return count


def spend_golem(state: BlightedReachState, golem: str, to: int) -> None:
    """F505: a spent (or discarded) Golem flips Sleeping and goes into the chosen Rival's
    empty resource slot; with none to take it, its holder keeps it (where it was)."""
    where = held_by(to) if to >= 0 else state.golems[golem].place
    state.golems[golem] = Golem(place=where, awake=False)


@op("golem_actions", params=GolemSpend, candidates=_golem_candidates,
    usable=lambda env, u: bool(spendable(env.state, u.seat)))
def do_golem_action(env, u, c: GolemSpend) -> None:
    """F506 (a law in the booklet: every player's Prelude): spend an Awake Golem, then take
    its action or not; the Caretaker's objective advances either way (F501B)."""
    from plugins.arcs.actions import Move
    from plugins.blighted_reach.content import default_box as campaign_box

    state, box = env.state, env.box
    check_spend(box, state, u.seat, c)
    done: dict = {}
    if c.act and c.golem == "warrior":
        done["destroyed"] = warrior(state, u.seat, c.system)
    elif c.act and c.golem == "protector":
        done["repaired"] = protector(state, c.repair)
    elif c.act and c.golem == "seeker":
        move = Move(origin=c.origin, fresh=c.fresh, damaged=c.damaged, path=tuple(c.path),
                    drops=tuple(tuple(d) for d in c.drops))
        notes = move_notes(state, u.seat, move)
        do_move(state, u.seat, move)
        after_move(env.chance, u.seat, move, notes)  # a game's rules after a move (the Twisted Passage's)
        done["moved"] = [c.origin, *c.path]
    elif c.act:
        done["gained"] = c.resource if gain(state, u.seat, c.resource) else ""
    spend_golem(state, c.golem, c.to)
    advance(box, state, "golem_spent", 1)
    env.emit("golem_spent", seat=u.seat, golem=c.golem, recipient=c.to, acted=c.act, **done)


# -- Stone-Speakers (F504) ---------------------------------------------------------------------------
def speakers_usable(env, u) -> bool:
    """Offered on a lead card's declaration, before the turn begins (reading: a declaration
    made mid-turn by another card does not end the turn)."""
    return env.state.turn is None and env.state.lead_seat == u.seat


@op("stone_speakers", usable=speakers_usable)
def do_stone_speakers(env, u, choice) -> None:
    """F504, on declaring: end the turn at once (it opens with nothing to take), take every
    Golem Rivals hold (onto the Golem Hearth, as they are), then roll the event die: on its
    Crisis face the Crises resolve (never the Edicts). Reading: "any Golems" is all of them."""
    state = env.state
    taken = [g for g in in_play(state) if seat_of(state.golems[g].place) not in (-1, u.seat)]
    for g in taken:
        state.golems[g] = Golem(place=home_of(state, u.seat), awake=state.golems[g].awake)
    state.stone_speakers = u.seat
    env.emit("stone_speakers", seat=u.seat, golems_taken=len(taken))


@hookimpl
def arcs_turn_begun(ctx, seat):
    state = ctx.state
    if getattr(state, "stone_speakers", -1) != seat:
        return
    state.stone_speakers = -1
    state.turn.pips, state.turn.prelude = 0, False
    ctx.emit("turn_ended", seat=seat, why=SPEAKERS)
    ctx.push(speakers_roll, seat=seat)


@steps("stone_speakers_roll")
def speakers_roll(ctx, seat: int):
    """F504: the event die; on a Crisis face, the number die too (for the Court Crises), then
    the Crises as at a round's end."""
    from plugins.blighted_reach import event_flow
    from plugins.blighted_reach.content import default_box as campaign_box
    from plugins.blighted_reach.setup import chance_roll

    cbox = campaign_box()
    roll = chance_roll(ctx, "golems")
    kind, symbol = roll("event", [list(f) for f in cbox.box.event_die_faces])
    ctx.emit("event_rolled", seat=seat, face=kind, symbol=symbol, why=SPEAKERS)
    if kind == "crisis":
        number = int(roll("number", list(cbox.box.number_die)))
        ctx.push(event_flow.crises_begin, number=number, symbol=symbol)


# -- the objective (F501B) -----------------------------------------------------------------------
def advance(box, state: BlightedReachState, per: str, count: int, seat: int | None = None) -> dict[int, int]:
    """An `event` advance where it happens, once the objective markers are on the track."""
    from plugins.blighted_reach.content import default_box as campaign_box

    if len(state.objective_markers) != len(state.players):
        return {}
    return advance_on_event(box, campaign_box(), state, per, count, seat=seat)


COUNT_RULES["golem_held"] = lambda box, cbox, state, seat, score, ambition: len(golems_of(state, seat))


# -- Act I Resolution (F507) -------------------------------------------------------------------------
UNSTABLE = {"harvester": "F508", "seeker": "F509", "protector": "F510", "warrior": "F511"}


@fates.handler("map_golems_to_hearth")
def map_golems_to_hearth(ctx, seat: int, card_id: str, effect) -> None:
    """F507 completed: every Golem still on the map goes onto the Caretaker's Golem Hearth."""
    state: BlightedReachState = ctx.state
    moved = [g for g in in_play(state) if system_of(state.golems[g].place)]
    for g in moved:
        state.golems[g] = Golem(place=home_of(state, seat), awake=state.golems[g].awake)
    ctx.emit("golems_to_hearth", seat=seat, count=len(moved))


@fates.handler("lore_per_player_to_court")
def lore_per_player_to_court(ctx, seat: int, card_id: str, effect) -> None:
    """F507 completed: one lore card per player, drawn at random from the lore deck, joins
    the Court deck (shuffled in, as cards added to it are)."""
    state: BlightedReachState = ctx.state
    chance.shuffle(ctx, state.lore_deck, "lore deck")
    drawn, state.lore_deck = state.lore_deck[:len(state.players)], state.lore_deck[len(state.players):]
    state.court_deck.extend(drawn)
    chance.shuffle(ctx, state.court_deck, "court deck")
    ctx.emit("lore_to_court", seat=seat, count=len(drawn))


@fates.handler("scrap_map_golems")
def scrap_map_golems(ctx, seat: int, card_id: str, effect) -> None:
    """F507 failed: the Golems still on the map are scrapped."""
    state: BlightedReachState = ctx.state
    gone = [g for g in in_play(state) if system_of(state.golems[g].place)]
    for g in gone:
        state.golems[g] = Golem(place=SCRAPPED)
    ctx.emit("golems_scrapped", seat=seat, count=len(gone))


@fates.handler("unstable_of_golems_in_play_to_court")
def unstable_to_court(ctx, seat: int, card_id: str, effect) -> None:
    """F507 failed: the Unstable card of each Golem still in play joins the Court deck; the
    others are scrapped (the Fate Set's cards, not yet anywhere)."""
    from plugins.blighted_reach.fate_steps import lift

    state: BlightedReachState = ctx.state
    cards = list(effect.cards) if effect is not None and effect.cards else list(UNSTABLE.values())
    alive = {UNSTABLE[g] for g in in_play(state)}
    added = []
    for card in cards:
        if not lift(state, card):
            continue  # scrapped already
        if card in alive:
            state.court_deck.append(card)
            added.append(card)
        else:
            state.scrapped.append(card)
    chance.shuffle(ctx, state.court_deck, "court deck")
    ctx.emit("unstable_to_court", seat=seat, cards=added)


# -- Acts II and III setup (F512, F520) ------------------------------------------------------------
@fates.handler("wake_all_golems")
def wake_all_golems(ctx, seat: int, card_id: str, effect) -> None:
    """F512 / F520 (and F505): every Sleeping Golem in play turns Awake."""
    woken = wake(ctx.state, in_play(ctx.state))
    ctx.emit("golems_woken", seat=seat, card=card_id, golems=woken)


# -- Librarians (F513) ------------------------------------------------------------------------------
LIBRARIANS = "F513"


def attachable(state: BlightedReachState) -> list[str]:
    """Court cards with nothing attached (the Council included)."""
    return [c for c in state.court_row if c and c not in state.attached]


def _librarians_decisions(call) -> list:
    from plugins.blighted_reach.crises import Decision

    if LIBRARIANS not in call.state.players[call.holder].guild:
        return []
    return [Decision(call.holder, "attach_librarians", call.card, [{"card": c} for c in attachable(call.state)])]


def _librarians_check(call) -> None:
    for d in _librarians_decisions(call):
        if d.options and call.answers.get(d.seat) not in d.options:
            raise BadParameter(f"Librarians attach to one of {[o['card'] for o in d.options]}")


def _librarians_apply(call) -> dict | None:
    """F513's Crisis: its holder attaches it to a Court card with nothing attached (none:
    it stays with them)."""
    ds = _librarians_decisions(call)
    if not ds or not ds[0].options:
        return None
    host = call.answers[call.holder]["card"]
    call.state.players[call.holder].guild.remove(LIBRARIANS)
    call.state.attached[host] = LIBRARIANS
    return {"event": "card_attached", "card": LIBRARIANS, "host": host, "seat": call.holder}


FATE_CRISIS_HANDLERS["attach_self_to_court"] = CrisisHandler(
    apply=_librarians_apply, decisions=_librarians_decisions, check=_librarians_check)
standing("lore_on_refill_after_secure")


@hookimpl
def arcs_court_secured(ctx, seat, card, position):
    """After a secure: F512B advances 2 for a lore card secured; F513 offers its holder a
    lore card from the lore deck attached to the card that refilled the place."""
    state = ctx.state
    if getattr(state, "game", "") != "blighted-reach":
        return
    from plugins.arcs.content import box_for

    box = box_for(state)
    if card in box.court and box.court[card].kind == "lore":
        advance(box, state, "lore_secured", 1, seat=seat)
    refilled = state.court_row[position] if position < len(state.court_row) else ""
    if LIBRARIANS in state.players[seat].guild and state.lore_deck and refilled and refilled not in state.attached:
        choices = [Action("librarians", {"attach": True}), Action("librarians", {"attach": False})]
        ctx.prompt(seat, "librarians", choices, resume=librarians_done, host=refilled)


@steps("librarians_done")
def librarians_done(ctx, seat, params, host: str):
    state = ctx.state
    if not params.get("attach") or not state.lore_deck or host not in state.court_row or host in state.attached:
        return
    lore = state.lore_deck.pop(0)
    state.attached[host] = lore
    ctx.emit("card_attached", seat=seat, card=lore, host=host, why=LIBRARIANS)


# -- the Unstable cards (F508-F511) -------------------------------------------------------------------
GOLEM_OF = {card: golem for golem, card in UNSTABLE.items()}


def holder_of(state: BlightedReachState, golem: str) -> int:
    """The seat that has the Golem, -1 when it is on the map or scrapped."""
    return seat_of(state.golems[golem].place) if golem in state.golems else -1


def golem_in_play(state: BlightedReachState, golem: str) -> bool:
    return golem in in_play(state)


def _scrap_from_court(state: BlightedReachState, card: str) -> dict:
    """An Unstable card whose Golem is out of play is scrapped (its standing text)."""
    from plugins.blighted_reach.crises import remove_from_court

    remove_from_court(state, card, "discard")
    state.court_discard.remove(card)
    state.scrapped.append(card)
    return {"event": "card_scrapped", "card": card}


def _unstable(effect_fn):
    """A Court Crisis of an Unstable card: scrapped instead if its Golem is not in play
    (reading: that is checked when it would resolve); nobody has the Golem, nothing happens."""
    def apply(call):
        golem = GOLEM_OF[call.card]
        if not golem_in_play(call.state, golem):
            return _scrap_from_court(call.state, call.card)
        seat = holder_of(call.state, golem)
        if seat < 0:
            return None
        return {"event": "unstable_crisis", "card": call.card, "seat": seat, **effect_fn(call, seat)}
    return CrisisHandler(apply=apply)


def _discard_all_resources(call, seat: int) -> dict:
    player = call.state.players[seat]
    lost = [r for r in player.resources if r]
    for r in lost:
        call.state.supply[r] += 1
    player.resources = [None] * len(player.resources)
    return {"discarded": lost}


def _seek_gate(call, seat: int) -> dict:
    """F509: the Seeker's player's Loyal ships at planets of the rolled symbol move to the
    rolled cluster's gate."""
    from plugins.blighted_reach.crises import rolled_cluster, rolled_symbol_planets

    from plugins.arcs.setup import placed_at

    gate = placed_at(call.state, rolled_cluster(call.box, call.dice)[0])  # a Passaged gate: the Twisted Passage
    moved = 0
    for planet in rolled_symbol_planets(call.box, call.dice):
        here = call.state.systems.get(planet)
        if here is None:
            continue
        ships = here.ships[seat]
        if ships.total:
            there = call.state.systems[gate].ships[seat]
            call.state.systems[gate].ships[seat] = Ships(fresh=there.fresh + ships.fresh,
                                                         damaged=there.damaged + ships.damaged)
            here.ships[seat] = Ships()
            moved += ships.total
    return {"gate": gate, "moved": moved}


def _repair_others(call, seat: int) -> dict:
    """F510: every ship is repaired but the Protector's player's (the Empire's included)."""
    count = 0
    for system, here in call.state.systems.items():
        for owner, ships in enumerate(here.ships):
            if owner != seat and ships.damaged:
                count += ships.damaged
                here.ships[owner] = Ships(fresh=ships.total)
        imperial = board.imperial_ships(call.state, system)
        if imperial.damaged:
            count += imperial.damaged
            call.state.imperial[system] = Pieces(fresh=imperial.total)
    return {"repaired": count}


def _destroy_damaged(call, seat: int) -> dict:
    """F511: the Warrior's player's damaged Loyal ships are destroyed (back to its supply)."""
    count = 0
    for here in call.state.systems.values():
        ships = here.ships[seat]
        if ships.damaged:
            count += ships.damaged
            board.destroyed_ships_home(call.state, seat, ships.damaged)
            here.ships[seat] = Ships(fresh=ships.fresh)
    return {"destroyed": count}


FATE_CRISIS_HANDLERS["unstable_harvester"] = _unstable(_discard_all_resources)
FATE_CRISIS_HANDLERS["unstable_seeker"] = _unstable(_seek_gate)
FATE_CRISIS_HANDLERS["unstable_protector"] = _unstable(_repair_others)
FATE_CRISIS_HANDLERS["unstable_warrior"] = _unstable(_destroy_damaged)


@op("take_golem_awake")
def do_take_golem_awake(env, u, choice) -> None:
    """An Unstable card secured (F508-F511): its Golem, if still in play, turns Awake and
    goes to the securer (onto their Golem Hearth if they hold one)."""
    golem = u.ability.target
    if not golem_in_play(env.state, golem):
        return
    env.state.golems[golem] = Golem(place=home_of(env.state, u.seat), awake=True)
    env.emit("golem_taken", seat=u.seat, golem=golem, card=u.card)


# -- Act II Resolution (F516) ---------------------------------------------------------------------------
@fates.handler("unstable_from_discard_to_court")
def unstable_from_discard(ctx, seat: int, card_id: str, effect) -> None:
    """F516 failed: the Unstable cards in the Court discard go back into the Court deck
    (those whose Golem is out of play are scrapped, by their own text)."""
    state: BlightedReachState = ctx.state
    cards = list(effect.cards) if effect is not None and effect.cards else list(UNSTABLE.values())
    back = []
    for card in [c for c in cards if c in state.court_discard]:
        state.court_discard.remove(card)
        if golem_in_play(state, GOLEM_OF[card]):
            state.court_deck.append(card)
            back.append(card)
        else:
            state.scrapped.append(card)
    chance.shuffle(ctx, state.court_deck, "court deck")
    ctx.emit("unstable_to_court", seat=seat, cards=back)


# -- Golem Worship (F517-F519) ---------------------------------------------------------------------------
def _worship_decisions(call) -> list:
    """F517's Crisis: each player with a Golem, in turn order, names a Loyal city to return."""
    from plugins.blighted_reach.crises import Decision, turn_order

    out = []
    for seat in turn_order(call.state):
        if golems_of(call.state, seat):
            cities = [{"system": s, "building": i} for s, here in call.state.systems.items()
                      for i, b in enumerate(here.buildings) if b.owner == seat and b.kind == "city"]
            if cities:
                out.append(Decision(seat, "return_city", call.card, cities))
    return out


def _worship_check(call) -> None:
    for d in _worship_decisions(call):
        if call.answers.get(d.seat) not in d.options:
            raise BadParameter(f"{seat_name(d.seat)} returns one of its Loyal cities: {d.options}")


def _worship_apply(call) -> dict:
    from plugins.arcs.chapter import return_city

    returned = {}
    for d in _worship_decisions(call):
        a = call.answers[d.seat]
        here = call.state.systems[a["system"]]
        del here.buildings[a["building"]]
        return_city(call.box, call.state, d.seat)
        returned[str(d.seat)] = a["system"]
    return {"event": "cities_returned", "card": call.card, "cities": returned}


FATE_CRISIS_HANDLERS["golem_holders_return_city"] = CrisisHandler(
    apply=_worship_apply, decisions=_worship_decisions, check=_worship_check)


class AnyGolem(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    golem: Literal["warrior", "protector", "seeker", "harvester", "sleeping"]
    at: str = ""  # a Sleeping Golem's place (`blind_choices`)


@op("take_any_golem_awake", params=AnyGolem,
    candidates=lambda env, u: blind_choices(env.state, in_play(env.state)),
    usable=lambda env, u: bool(in_play(env.state)))
def do_take_any_golem(env, u, choice: AnyGolem) -> None:
    """F517 secured: any Golem in play (from the map or anyone) turns Awake and goes to the
    securer. Reading: an Awake Golem is chosen by its type, a Sleeping one by its place only
    (face down: drawn at random where several sleep together); it wakes as it is taken."""
    from plugins.arcs.court_ops import _chance

    golem = take_blind(env.state, _chance(env), {"golem": choice.golem, "at": choice.at}, in_play(env.state),
                       to=[u.seat])
    env.state.golems[golem] = Golem(place=home_of(env.state, u.seat), awake=True)
    env.emit("golem_taken", seat=u.seat, golem=golem, card=u.card)


# -- Knowledge Set Free (F514) -------------------------------------------------------------------------
GOLEM_RAID_COST = 2  # F503: a Golem's raid cost is two keys (forcing its gift: as many Favors)


def check_give_golem(state: BlightedReachState, giver: int, golem: str) -> None:
    if golem not in golems_of(state, giver):
        from plugins.blighted_reach.summits import NotHeld

        raise NotHeld(f"{seat_name(giver)} has no {golem} Golem to give")


def give_golem(state: BlightedReachState, giver: int, receiver: int, golem: str) -> None:
    """F514 Transfer Golem: the Golem goes to the receiver as it is (onto their Golem
    Hearth if they hold one, else among their resources)."""
    check_give_golem(state, giver, golem)
    state.golems[golem] = Golem(place=home_of(state, receiver), awake=state.golems[golem].awake)


def lore_given(box, state: BlightedReachState, giver: int, receiver: int, card: str) -> None:
    """F512B: a Rival's lore card given by Transfer Lore advances the receiver 1, unless the
    receiver gave the giver that card in the same Summit."""
    if (receiver, giver, card) not in state.summit_lore_given:
        advance(box, state, "lore_received", 1, seat=receiver)
    state.summit_lore_given.append((giver, receiver, card))


# -- Golems Sate Their Appetite (F521, an Edict) -----------------------------------------------------------
def awake_count(state: BlightedReachState, seat: int) -> int:
    return sum(state.golems[g].awake for g in golems_of(state, seat))


def court_guild_with_agents(box, state: BlightedReachState) -> str:
    """The leftmost Guild card in the Court with any agent on it, "" for none."""
    return next((c for c in state.court_row if c and c in box.court and box.court[c].kind == "guild"
                 and sum(state.court_agents.get(c, [])) > 0), "")


def scrap_court_guild(state: BlightedReachState, card: str) -> list[int]:
    """A Court Guild card and its agents are scrapped; its place is refilled (or a card
    attached above slides down)."""
    from plugins.blighted_reach.crises import remove_from_court

    agents = state.court_agents.get(card, [])
    owners = [seat for seat, n in enumerate(agents) for _ in range(n)]
    state.court_agents[card] = [0] * len(state.players)
    state.scrapped_agents.extend(owners)
    remove_from_court(state, card, "discard")
    state.court_discard.remove(card)
    state.scrapped.append(card)
    return owners


def options_consume(state: BlightedReachState, seat: int) -> list[dict]:
    """The Guild cards the seat may scrap for its Awake Golems (protected ones too): every
    choice of that many; none to choose when it must scrap them all."""
    from itertools import combinations

    k, guild = awake_count(state, seat), state.players[seat].guild
    if k == 0 or len(guild) <= k:
        return []
    return [{"scrap": list(c)} for c in dict.fromkeys(combinations(guild, k))]


def check_consume(state: BlightedReachState, seat: int, scrap: list[str]) -> None:
    options = options_consume(state, seat)
    if options and {"scrap": list(scrap)} not in options:
        raise BadParameter(f"{seat_name(seat)} scraps {awake_count(state, seat)} of its own Guild cards")


def consume(box, state: BlightedReachState, seat: int, scrap: list[str] | None = None) -> dict:
    """F521 for one player: a Guild card scrapped per Awake Golem (the chosen ones, or all
    when it has no more than that); for each one it lacks, the leftmost Court Guild card
    with agents is scrapped with them. Reading: "no Guild cards" is read per card owed."""
    check_consume(state, seat, list(scrap or []))
    owed = awake_count(state, seat)
    guild = state.players[seat].guild
    mine = list(scrap) if options_consume(state, seat) else list(guild)[:owed]
    for card in mine:
        guild.remove(card)
        state.scrapped.append(card)
    court = []
    for _ in range(owed - len(mine)):
        card = court_guild_with_agents(box, state)
        if not card:
            break
        scrap_court_guild(state, card)
        court.append(card)
    return {"seat": seat, "scrapped": mine, "court": court}


@fates.handler("golems_sate_their_appetite")
def golems_sate(ctx, seat: int, card_id: str, effect) -> None:
    """F521: in turn order each player consumes (its choice when it has a choice), then
    every Sleeping Golem wakes."""
    from plugins.blighted_reach.crises import turn_order

    ctx.push(sate_next, order=turn_order(ctx.state), card=card_id)


@steps("golems_sate_next")
def sate_next(ctx, order: list, card: str):
    from plugins.arcs.content import box_for

    state = ctx.state
    if not order:
        woken = wake(state, in_play(state))
        ctx.emit("golems_woken", card=card, golems=woken)
        return
    seat, rest = order[0], order[1:]
    options = options_consume(state, seat)
    if options:
        ctx.push(sate_next, order=rest, card=card)
        ctx.prompt(seat, "consume_sentience", [Action("consume_sentience", o) for o in options],
                   resume=sate_chosen, card=card)
        return
    if awake_count(state, seat):
        ctx.emit("sentience_consumed", card=card, **consume(box_for(state), state, seat))
    ctx.push(sate_next, order=rest, card=card)


@steps("golems_sate_chosen")
def sate_chosen(ctx, seat, params, card: str):
    from plugins.arcs.content import box_for

    ctx.emit("sentience_consumed", card=card, **consume(box_for(ctx.state), ctx.state, seat, list(params["scrap"])))


# -- Act III grand ambitions (F520B) ------------------------------------------------------------------------
def options_golem_goals(state: BlightedReachState, seat: int) -> list[dict]:
    """At a chapter's end the Caretaker may, once each: with a Golem, scrap a lore card it
    holds (not the Golem Hearth); scrap a Golem it has (after the lore, if both)."""
    mine = golems_of(state, seat)
    done = {g.split(":")[1] for g in state.golem_goals if g.split(":")[0] == str(state.chapter)}
    out = []
    if mine and "lore" not in done:
        out += [{"scrap_lore": c} for c in state.players[seat].lore if c != HEARTH]
    if mine and "golem" not in done:
        out += [{"scrap_golem": g} for g in mine]
    return out


def check_golem_goal(state: BlightedReachState, seat: int, choice: dict) -> None:
    if choice not in options_golem_goals(state, seat):
        raise BadParameter(f"not one of the Caretaker's chapter-end choices: {options_golem_goals(state, seat)}")


def choose_golem_goal(state: BlightedReachState, seat: int, choice: dict) -> None:
    """The Caretaker's chapter-end choice (the flow asks `seat`, offering
    `options_golem_goals`): the lore card or the Golem is scrapped and the goal is met
    for this chapter."""
    check_golem_goal(state, seat, choice)
    if "scrap_lore" in choice:
        state.players[seat].lore.remove(choice["scrap_lore"])
        state.scrapped.append(choice["scrap_lore"])
        state.golem_goals.append(f"{state.chapter}:lore")
    else:
        state.golems[choice["scrap_golem"]] = Golem(place=SCRAPPED)
        state.golem_goals.append(f"{state.chapter}:golem")


def _goal_met(goal: str):
    return lambda box, cbox, state, seat: f"{state.chapter}:{goal}" in state.golem_goals


GOAL_RULES["scrap_lore_while_holding_golem"] = _goal_met("lore")
GOAL_RULES["scrap_a_golem"] = _goal_met("golem")


# -- raiding Golems (F503) -------------------------------------------------------------------------------
def raidable(state: BlightedReachState, victim: int, keys: int) -> list[str]:
    """The victim's Golems a raid's keys can take, two keys each (F503). Reading: a Golem
    among a player's resources costs the same two keys as one on the Golem Hearth."""
    return [g for g in golems_of(state, victim) if keys >= GOLEM_RAID_COST] if state.golems else []


SLEEPING = "sleeping"  # a choice of a Sleeping Golem without its type: taken blind


def blind_choices(state: BlightedReachState, golems: list[str]) -> list[dict]:
    """How a seat names one of `golems` it cannot all see: an Awake one by its type, the
    Sleeping ones by their place only (`{"golem": "sleeping", "at": place}`), so no option
    tells a Sleeping Golem's type (the tokens lie face down)."""
    awake = [{"golem": g} for g in golems if state.golems[g].awake]
    places = sorted({state.golems[g].place for g in golems if not state.golems[g].awake})
    return awake + [{"golem": SLEEPING, "at": place} for place in places]


def take_blind(state: BlightedReachState, chance_ctx, params: dict, golems: list[str], to: list[int]) -> str:
    """The Golem a `blind_choices` answer names: an Awake one by type; a Sleeping one drawn
    at random (`chance_ctx`: the flow's, for the table's RNG) among the Sleeping ones at that
    place, shown only to the seats `to`. Refused (typed, nothing changed) when the answer
    names none of `golems`."""
    golem, at = params.get("golem", ""), params.get("at", "")
    if golem != SLEEPING:
        if golem not in golems or not state.golems[golem].awake:
            raise IllegalAction(f"name a Sleeping Golem by its place, an Awake one by its type ({golem!r})")
        return golem
    hidden = [g for g in golems if not state.golems[g].awake and state.golems[g].place == at]
    if not hidden:
        raise IllegalAction(f"no Sleeping Golem to take at {at!r}")
    return hidden[0] if len(hidden) == 1 else chance.pick(chance_ctx, hidden, "sleeping golem", to=to)


@hookimpl
def arcs_raid_options(state, thief, victim, keys):
    if getattr(state, "game", "") != "blighted-reach":
        return []
    return blind_choices(state, raidable(state, victim, keys))


@hookimpl
def arcs_raided(ctx, thief, victim, params, keys):
    state = ctx.state
    if getattr(state, "game", "") != "blighted-reach" or not params.get("golem", ""):
        return None
    candidates = raidable(state, victim, keys)
    if not candidates:
        raise IllegalAction(f"no Golem can be raided from {seat_name(victim)} with {keys} keys")
    golem = take_blind(state, ctx, params, candidates, to=[thief, victim])
    state.golems[golem] = Golem(place=home_of(state, thief), awake=state.golems[golem].awake)
    ctx.emit("golem_stolen", thief=thief, victim=victim, golem=golem if state.golems[golem].awake else "")
    if not state.golems[golem].awake:  # the thief now holds it: it alone (and the victim) learn its type
        ctx.emit("golem_stolen_type", to=[thief, victim], golem=golem)
    return keys - GOLEM_RAID_COST


def golem_goal_steps(state: BlightedReachState) -> list:
    """The chapter-end choices F520B gives, before the grand ambitions score: one step per
    seat playing the Caretaker's Act III."""
    from plugins.blighted_reach.content import default_box as campaign_box
    from plugins.blighted_reach.fates import objective_card

    out = []
    for seat, fate in enumerate(state.fates):
        if fate == CARETAKER and state.act == 3:
            card = objective_card(campaign_box(), fate, 3)
            if card.objective is not None and "scrap_a_golem" in card.objective.goals:
                out.append((golem_goal_offer, {"seat": seat}))
    return out


@steps("caretaker_golem_goal_offer")
def golem_goal_offer(ctx, seat: int):
    options = options_golem_goals(ctx.state, seat)
    if options:
        ctx.prompt(seat, "golem_goal", [Action("golem_goal", o) for o in options] + [Action("golem_goal", {})],
                   resume=golem_goal_chosen)


@steps("caretaker_golem_goal_chosen")
def golem_goal_chosen(ctx, seat, params):
    if not params:
        return
    choose_golem_goal(ctx.state, seat, dict(params))
    # A held Golem's type is its holder's alone (`golem_view`): the others learn that a Golem
    # was scrapped, not which.
    public = {"seat": seat, **({"scrap_lore": params["scrap_lore"]} if "scrap_lore" in params else {"scrap_golem": ""})}
    ctx.emit("golem_goal", to=[seat], public=public, seat=seat, **{k: v for k, v in params.items()})
    ctx.push(golem_goal_offer, seat=seat)  # the other goal may follow (the Golem after the lore)

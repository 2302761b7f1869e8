"""The Crises (rulebook "Crises", BR-212..BR-228) as steps the flow runs in order:

1. `blight.blight_crises(cbox, state)`: every system's Blight Crisis (no choices).
2. for `(seat, card)` in `fate_crisis_cards(cbox, state)` (turn order):
   `fate_crisis_decisions` -> prompt each `Decision` -> `resolve_fate_crisis(..., answers)`.
3. `dice = roll_court_dice(cbox, state, roll, event_roll)`: the Court Crises' dice, the
   Event card's roll reused when there was one (BR-220).
4. for `card` in `court_crisis_cards(box, cbox, state)` (left to right, attached first),
   skipping any no longer `in_court`: `court_crisis_decisions` -> prompt ->
   `court_crisis_steps` (read first) -> `resolve_court_crisis(..., answers)` -> those steps.

`resolve_crises` runs all four with a `choose(decision) -> answer` callback (the pure part
alone: a handler's `then` steps need the flow);
`missing_crisis_handlers` says beforehand which Fate rules the Crises would lack.

A `Decision` names the seat that decides and lists its options; `answers` maps that seat
to the option it picked. A decision with a single option needs no answer. Every resolve
checks all answers before it changes anything and raises a typed `ActionRejected`.

Crisis effects are the cards' data (`content/court.json`, `fates.json`): the campaign
Court's ops are here (CC15's Blight ops in `blight.py`); an effect `do: handler` (the Fate
Set cards) is dispatched by name through `FATE_CRISIS_HANDLERS`, which this module leaves
empty: the Fates' rules register there, and a Crisis whose handler is missing raises
`MissingCrisisHandler` before anything changes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Callable, Literal

from core.errors import BadParameter, IllegalAction
from core.rng import Rng
from core.seats import seat_name
from plugins.arcs.actions import refill_court
from plugins.arcs.chapter import return_city
from plugins.arcs.content import Box
from plugins.arcs.outrage import GUILD_GUARDS, agent_returns
from plugins.arcs.plays import marker_value
from plugins.arcs.state import Building
from plugins.blighted_reach import blight as bl
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.content import Effect
from plugins.blighted_reach.content import default_box as campaign_box
from plugins.blighted_reach.setup import SYMBOLS, cluster_systems
from plugins.blighted_reach.state import FREE, BlightedReachState

IN_SESSION, DECIDED = "AID01A", "AID01B"  # the Imperial Council's two sides


@dataclass(frozen=True)
class Dice:
    """The number die (a cluster) and the event die's planet ID symbol (campaign names:
    arrow/hex/moon); `face` is the event die's Crisis/Edict face when it was read."""

    number: int
    symbol: str
    face: str = ""


@dataclass(frozen=True)
class Decision:
    """A choice a Crisis asks of `seat`: answer with one of `options`."""

    seat: int
    op: str
    card: str
    options: list[dict]


@dataclass
class CrisisCall:
    """What a Crisis effect acts on: `holder` is the seat holding the card (Fate Crises)
    or -1 for a card in the Court; `dice` is None before any roll (Fate Crises after the
    Council)."""

    box: Box
    cbox: CampaignBox
    state: BlightedReachState
    card: str
    holder: int
    dice: Dice | None
    effect: Effect
    answers: dict[int, dict] = field(default_factory=dict)


@dataclass(frozen=True)
class CrisisHandler:
    """A named Crisis rule a Fate provides: `apply` changes the state (and may return
    event dicts); `decisions` lists the prompts it needs first; `check` refuses bad
    answers without changing anything; `then` names the flow steps (step, args) that carry
    out what the pure rules cannot, after the card's Crisis (a secure, whose When Secured
    effects may ask for choices): read before the Crisis resolves, for a Court card's
    Crisis (`court_crisis_steps`; Guild Fair, F416, is the one that needs it)."""

    apply: Callable[[CrisisCall], list[dict] | None]
    decisions: Callable[[CrisisCall], list[Decision]] = lambda call: []
    check: Callable[[CrisisCall], None] = lambda call: None
    then: Callable[[CrisisCall], list[tuple]] = lambda call: []


# Handler name (an effect's `handler`) -> its rule. Empty here: the Fates' rules fill it.
FATE_CRISIS_HANDLERS: dict[str, CrisisHandler] = {}


class MissingCrisisHandler(LookupError):
    """A card's Crisis names a handler nobody registered: a rule not written yet."""


def turn_order(state: BlightedReachState) -> list[int]:
    return bl.turn_order(state)


# -- the dice (BR-220, BR-223..BR-226) --------------------------------------------------


def roll_court_dice(cbox: CampaignBox, state: BlightedReachState, roll, event_roll: Dice | None = None) -> Dice:
    """BR-220: the Court Crises read the dice just rolled for an Event card; otherwise
    (the Council) both dice are rolled now through `roll(die, faces)`. Recorded in the
    public `crisis_roll`. Reading: only the event die's symbol matters here (BR-226), so
    a fresh roll reads its symbol and leaves `face` empty."""
    dice = event_roll or Dice(number=int(roll("number", list(cbox.box.number_die))),
                              symbol=str(roll("event", list(cbox.box.event_die_symbols))))
    state.crisis_roll = {"number": str(dice.number), "symbol": dice.symbol}
    return dice


def rolled_cluster(box: Box, dice: Dice) -> list[str]:
    """BR-223: the systems of the cluster the number die shows."""
    return cluster_systems(box, dice.number)


def rolled_symbol_planets(box: Box, dice: Dice) -> list[str]:
    """BR-224: every planet, in every cluster, with the symbol the event die shows."""
    return [p.id for c in box.map.clusters for p in c.planets if p.symbol == SYMBOLS[dice.symbol]]


def rolled_planet(box: Box, dice: Dice) -> str:
    """BR-225: the rolled cluster's planet with the rolled symbol."""
    cluster = next(c for c in box.map.clusters if c.id == dice.number)
    return next(p.id for p in cluster.planets if p.symbol == SYMBOLS[dice.symbol])


def symbol_rolled(dice: Dice, symbols: list[str]) -> bool:
    """BR-226: "if <symbol> was rolled" reads the symbol only, whatever the face."""
    return dice.symbol in symbols


# -- taking a card out of the Court (BR-227, BR-228, BR-317, BR-318) --------------------

Removal = Literal["bury", "discard", "shuffle"]


def in_court(state: BlightedReachState, card: str) -> bool:
    return card in state.court_row or card in state.attached.values()


def _send(state: BlightedReachState, card: str, to: Removal) -> None:
    if to == "discard":
        state.court_discard.append(card)
    else:
        state.court_deck.append(card)  # BR-228: bury = the bottom of the Court deck
        if to == "shuffle":
            Rng(state).shuffle(state.court_deck)


def _return_agents(state: BlightedReachState, agents: list[int]) -> None:
    for seat, n in enumerate(agents):
        agent_returns(state, seat, n)


def remove_from_court(state: BlightedReachState, card: str, to: Removal) -> None:
    """A card leaves the Court (buried, discarded or shuffled into the deck): its agents go
    home and the top of the Court deck refills its place (BR-227), unless a card is
    attached to it: that one slides down into the place and takes the agents (BR-317).
    An attached card leaving changes nothing else (BR-318). Reading: the card goes to its
    destination before the refill, as the base game disposes a Vox card then refills, so
    a card buried into an empty deck comes straight back."""
    if card in (IN_SESSION, DECIDED):
        raise IllegalAction("the Imperial Council cannot be buried, scrapped or discarded")
    host = next((h for h, a in state.attached.items() if a == card), None)
    if host is not None:
        del state.attached[host]
        _return_agents(state, state.court_agents.pop(card, []))
        _send(state, card, to)
        return
    if card not in state.court_row:
        raise BadParameter(f"{card} is not in the Court")
    position = state.court_row.index(card)
    agents = state.court_agents.pop(card, [])
    above = state.attached.pop(card, None)
    _send(state, card, to)
    if above is not None:
        state.court_row[position] = above
        state.court_agents[above] = agents or [0] * len(state.players)
        return
    _return_agents(state, agents)
    state.court_row[position] = ""
    refill_court(state, position)


def _remove_self(call: CrisisCall, to: Removal) -> dict:
    """A Crisis card sending itself away: from the Court, or from its holder's play area."""
    if call.holder >= 0:
        player = call.state.players[call.holder]
        for pile in (player.guild, player.lore):
            if call.card in pile:
                pile.remove(call.card)
        _send(call.state, call.card, to)
    else:
        remove_from_court(call.state, call.card, to)
    return {"event": "card_removed", "card": call.card, "to": to}


# -- the campaign Court's Crisis ops (CC11-CC14) ----------------------------------------


def return_top_declared_marker(box: Box, state: BlightedReachState) -> str | None:
    """Populist Demands (CC11, BR-024): the declared marker with the highest first-place
    Power goes back to Available; none declared, nothing. Returns the marker's id."""
    declared = [(marker_value(box, m), a, m) for a, ms in state.ambition_boxes.items() for m in ms]
    if not declared:
        return None
    _, ambition, marker = max(declared, key=lambda x: x[0])
    state.ambition_boxes[ambition].remove(marker)
    state.markers_available.append(marker)
    return marker.id


def flip_council_in_session(state: BlightedReachState) -> bool:
    """Council Intrigue (CC12): the Council turns In Session, keeping its place, agents
    and attachment. Returns whether it flipped."""
    if state.council == IN_SESSION:
        return False
    if DECIDED in state.court_row:
        state.court_row[state.court_row.index(DECIDED)] = IN_SESSION
        state.court_agents[IN_SESSION] = state.court_agents.pop(DECIDED, [0] * len(state.players))
    if DECIDED in state.attached:
        state.attached[IN_SESSION] = state.attached.pop(DECIDED)
    state.council = IN_SESSION
    return True


def move_agents_to_council(state: BlightedReachState, card: str) -> list[int]:
    """Council Intrigue (CC12): every agent on the card moves, owner kept, onto the
    Council. Reading: were the Council not in the Court row, they go home instead."""
    agents = state.court_agents.get(card, [])
    if not agents:
        return []
    state.court_agents[card] = [0] * len(agents)
    if state.council in state.court_row:
        on = state.court_agents.setdefault(state.council, [0] * len(agents))
        state.court_agents[state.council] = [a + b for a, b in zip(on, agents)]
    else:
        _return_agents(state, agents)
    return agents


def protected(cbox: CampaignBox, card: str) -> bool:
    """A protected Guild card (an X for raid cost, BR-308)."""
    found = cbox.court.get(card) or cbox.fate_cards.get(card)
    return bool(found and found.protected)


def protected_from_theft(box: Box, state, victim: int, card: str) -> bool:
    """`outrage.GUILD_GUARDS` (BR-309): no theft takes a protected Guild card from its holder,
    a raid's keys or a card's steal alike. The rules box gives such a card no raid cost (an X
    is printed in its place), so a raid would otherwise take it for 0 keys. Only the
    campaign's tables hold protected cards: a base Arcs table is never guarded here."""
    return isinstance(state, BlightedReachState) and protected(campaign_box(), card)


GUILD_GUARDS.append(protected_from_theft)


def fiasco_excess(state: BlightedReachState, seat: int) -> int:
    """Diplomatic Fiasco (CC13, BR-229): Guild cards (protected ones counted) beyond the
    agents in the seat's supply."""
    p = state.players[seat]
    return max(0, len(p.guild) - p.agents)


def fiasco_discards(cbox: CampaignBox, state: BlightedReachState, seat: int) -> int:
    """How many the seat must discard: the excess, but never a protected card."""
    free = [c for c in state.players[seat].guild if not protected(cbox, c)]
    return min(fiasco_excess(state, seat), len(free))


def options_fiasco(cbox: CampaignBox, state: BlightedReachState, seat: int) -> list[dict]:
    """The seat decides which of its unprotected Guild cards go."""
    k = fiasco_discards(cbox, state, seat)
    if k == 0:
        return []
    free = [c for c in state.players[seat].guild if not protected(cbox, c)]
    return [{"discard": list(combo)} for combo in dict.fromkeys(combinations(free, k))]


def check_fiasco(cbox: CampaignBox, state: BlightedReachState, seat: int, discard: list[str]) -> None:
    k = fiasco_discards(cbox, state, seat)
    guild = list(state.players[seat].guild)
    for c in discard:
        if c not in guild:
            raise BadParameter(f"{seat_name(seat)} holds no {c} to discard")
        if protected(cbox, c):
            raise IllegalAction(f"{c} is protected: it counts but is not discarded")
        guild.remove(c)
    if len(discard) != k:
        raise BadParameter(f"{seat_name(seat)} must discard {k} Guild card(s), not {len(discard)}")


def fiasco_discard(cbox: CampaignBox, state: BlightedReachState, seat: int, discard: list[str]) -> None:
    """The discarded Guild cards go to the Court discard pile."""
    check_fiasco(cbox, state, seat, discard)
    for c in discard:
        state.players[seat].guild.remove(c)
        state.court_discard.append(c)


def most_power(state: BlightedReachState) -> int:
    """The seat with the most Power; a tie goes to the first in turn order (ruling G-1)."""
    order = turn_order(state)
    return max(order, key=lambda s: (state.players[s].power, -order.index(s)))  # ruling G-1


def options_song_crisis(state: BlightedReachState, seat: int) -> list[dict]:
    """Song of Freedom (CC14, BR-029): the seat names one of its cities on the map. None
    when it has no city there or the Free cities have run out (ruling G-3)."""
    if state.free_city_supply <= 0:  # Reading: no Free city, no replacement (ruling G-3)
        return []
    return [{"system": s, "building": i} for s, here in state.systems.items()
            for i, b in enumerate(here.buildings) if b.owner == seat and b.kind == "city"]


def check_song_crisis(state: BlightedReachState, seat: int, system: str, building: int) -> None:
    if {"system": system, "building": building} not in options_song_crisis(state, seat):
        raise BadParameter(f"{seat_name(seat)} has no city {building} in {system!r} to free")


def song_crisis(box: Box, state: BlightedReachState, seat: int, system: str, building: int) -> None:
    """Replace the city with a Free city in the same slot, damaged if it was: the city goes
    back to its owner's board (not destroyed: no Outrage), which may open a resource
    placement (ARCS-250)."""
    check_song_crisis(state, seat, system, building)
    here = state.systems[system]
    old = here.buildings[building]
    here.buildings[building] = Building(kind="city", owner=FREE, damaged=old.damaged)
    state.free_city_supply -= 1
    return_city(box, state, seat)


# -- one effect ------------------------------------------------------------------------


def _decide_fiasco(call: CrisisCall) -> list[Decision]:
    return [Decision(s, "discard_guilds_to_agent_count", call.card, options_fiasco(call.cbox, call.state, s))
            for s in turn_order(call.state) if fiasco_discards(call.cbox, call.state, s)]


def _decide_song(call: CrisisCall) -> list[Decision]:
    seat = most_power(call.state)
    options = options_song_crisis(call.state, seat)
    return [Decision(seat, "most_power_frees_city", call.card, options)] if options else []


def _apply_fiasco(call: CrisisCall) -> dict:
    done = {}
    for d in _decide_fiasco(call):
        cards = call.answers[d.seat]["discard"]
        fiasco_discard(call.cbox, call.state, d.seat, cards)
        done[d.seat] = cards
    return {"event": "guilds_discarded", "card": call.card, "discards": done}


def _apply_song(call: CrisisCall) -> dict | None:
    ds = _decide_song(call)
    if not ds:
        return None
    a = call.answers[ds[0].seat]
    song_crisis(call.box, call.state, ds[0].seat, a["system"], a["building"])
    return {"event": "city_freed", "card": call.card, "seat": ds[0].seat, "system": a["system"]}


def _need_dice(call: CrisisCall) -> Dice:
    if call.dice is None:
        raise ValueError(f"{call.card}'s Crisis reads the dice, which are not rolled yet")
    return call.dice


BUILT_IN: dict[str, Callable[[CrisisCall], dict | None]] = {
    "return_top_declared_marker": lambda c: {"event": "marker_returned", "card": c.card,
                                             "marker": return_top_declared_marker(c.box, c.state)},
    "flip_council_in_session": lambda c: {"event": "council_in_session", "card": c.card,
                                          "flipped": flip_council_in_session(c.state)},
    "move_agents_to_council": lambda c: {"event": "agents_to_council", "card": c.card,
                                         "agents": move_agents_to_council(c.state, c.card)},
    "discard_guilds_to_agent_count": _apply_fiasco,
    "most_power_frees_city": _apply_song,
    "repair_blight_in_cluster": lambda c: {
        "event": "blight_repaired", "card": c.card,
        "systems": bl.repair_blight_in_cluster(c.box, c.state, _need_dice(c).number)},
    "blight_rolled_symbol_planets": lambda c: {
        "event": "blight_placed", "card": c.card,
        "systems": bl.blight_symbol_planets(c.box, c.state, _need_dice(c).symbol)},
    "bury_self": lambda c: _remove_self(c, "bury"),
    "discard_self": lambda c: _remove_self(c, "discard"),
    "shuffle_self_into_court": lambda c: _remove_self(c, "shuffle"),
}
DECISIONS: dict[str, Callable[[CrisisCall], list[Decision]]] = {
    "discard_guilds_to_agent_count": _decide_fiasco,
    "most_power_frees_city": _decide_song,
}
CHECKS: dict[str, Callable[[CrisisCall, Decision, dict], None]] = {
    "discard_guilds_to_agent_count":
        lambda c, d, a: check_fiasco(c.cbox, c.state, d.seat, list(a.get("discard", []))),
    "most_power_frees_city":
        lambda c, d, a: check_song_crisis(c.state, d.seat, a.get("system", ""), a.get("building", -1)),
}


def crisis_effects(cbox: CampaignBox, card: str, dice: Dice | None) -> list[Effect]:
    """The card's Crisis effects that act with these dice: one that names symbols acts
    only if one of them was rolled (BR-226)."""
    out = []
    for e in cbox.effects_of(card):
        if getattr(e, "when", "") != "crisis":
            continue
        if e.symbols:
            if dice is None:
                raise ValueError(f"{card}'s Crisis reads the event die, which is not rolled yet")
            if not symbol_rolled(dice, e.symbols):
                continue
        out.append(e)
    return out


def _calls(box, cbox, state, card, holder, dice, answers) -> list[CrisisCall]:
    return [CrisisCall(box, cbox, state, card, holder, dice, e, dict(answers or {}))
            for e in crisis_effects(cbox, card, dice)]


def _handler(call: CrisisCall) -> CrisisHandler:
    h = FATE_CRISIS_HANDLERS.get(call.effect.handler)
    if h is None:
        raise MissingCrisisHandler(f"{call.card}'s Crisis needs the rule {call.effect.handler!r}, not registered")
    return h


def _decisions(call: CrisisCall) -> list[Decision]:
    if call.effect.do == "handler":
        return _handler(call).decisions(call)
    if call.effect.do not in BUILT_IN:
        raise MissingCrisisHandler(f"{call.card}'s Crisis op {call.effect.do!r} has no rule")
    return DECISIONS.get(call.effect.do, lambda c: [])(call)


def _fill(decisions: list[Decision], answers: dict[int, dict]) -> dict[int, dict]:
    """A decision with one option answers itself."""
    out = dict(answers)
    for d in decisions:
        if d.seat not in out and len(d.options) == 1:
            out[d.seat] = d.options[0]
    return out


def _check(calls: list[CrisisCall]) -> None:
    """Refuse missing rules and bad answers before anything changes. Decisions are read
    from the state as it is before the card's effects: a card's choosing op comes first."""
    for call in calls:
        ds = _decisions(call)
        call.answers = _fill(ds, call.answers)
        for d in ds:
            if d.seat not in call.answers:
                raise BadParameter(f"{seat_name(d.seat)} must answer {d.op} for {d.card}")
            if call.effect.do != "handler":
                CHECKS[d.op](call, d, call.answers[d.seat])
        if call.effect.do == "handler":
            _handler(call).check(call)


def _run(calls: list[CrisisCall]) -> list[dict]:
    _check(calls)
    events: list[dict] = []
    for call in calls:
        out = _handler(call).apply(call) if call.effect.do == "handler" else BUILT_IN[call.effect.do](call)
        if isinstance(out, dict):
            events.append(out)
        elif out:
            events.extend(out)
    return events


# -- Fate Crises (BR-219) --------------------------------------------------------------


def fate_crisis_cards(cbox: CampaignBox, state: BlightedReachState) -> list[tuple[int, str]]:
    """Held cards with Crisis text, in turn order from the initiative holder (each seat's
    Guild cards then lore, as held)."""
    out = []
    for seat in turn_order(state):
        p = state.players[seat]
        # Reading: the rulebook orders players only; one player's cards go as held
        for card in (*p.guild, *p.lore):
            if (card in cbox.fate_cards or card in cbox.court) and any(
                    getattr(e, "when", "") == "crisis" for e in cbox.effects_of(card)):
                out.append((seat, card))
    return out


def fate_crisis_decisions(box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int, card: str,
                          dice: Dice | None) -> list[Decision]:
    return [d for c in _calls(box, cbox, state, card, seat, dice, None) for d in _decisions(c)]


def resolve_fate_crisis(box: Box, cbox: CampaignBox, state: BlightedReachState, seat: int, card: str,
                        dice: Dice | None, answers: dict[int, dict] | None = None) -> list[dict]:
    """One held card's Crisis. Raises MissingCrisisHandler (nothing changed) when its rule
    is not registered."""
    p = state.players[seat]
    if card not in p.guild and card not in p.lore:
        raise BadParameter(f"{seat_name(seat)} does not hold {card}")
    events = _run(_calls(box, cbox, state, card, seat, dice, answers))
    return [{"event": "fate_crisis", "seat": seat, "card": card}, *events]


# -- Court Crises (BR-220..BR-222) -----------------------------------------------------


def is_vox(cbox: CampaignBox, card: str) -> bool:
    found = cbox.court.get(card) or cbox.fate_cards.get(card)
    return bool(found and found.kind == "vox")


def court_crisis_cards(box: Box, cbox: CampaignBox, state: BlightedReachState) -> list[str]:
    """BR-221/BR-222: the Vox cards in the Court left to right, a Vox card attached to one
    coming before it. Reading: this list is taken when the Court Crises begin; a card
    drawn to refill the Court meanwhile has no Crisis this time (and a card buried into an
    empty deck that comes straight back is not resolved twice)."""
    out = []
    for c in state.court_row:
        above = state.attached.get(c)
        for card in ([above] if above else []) + [c]:
            if is_vox(cbox, card) and any(getattr(e, "when", "") == "crisis" for e in cbox.effects_of(card)):
                out.append(card)
    return out


def court_crisis_decisions(box: Box, cbox: CampaignBox, state: BlightedReachState, card: str,
                           dice: Dice) -> list[Decision]:
    return [d for c in _calls(box, cbox, state, card, -1, dice, None) for d in _decisions(c)]


def court_crisis_steps(box: Box, cbox: CampaignBox, state: BlightedReachState, card: str,
                       dice: Dice) -> list[tuple]:
    """The flow steps the card's Crisis leaves to run after it (its handlers' `then`), read
    from the state before it resolves."""
    return [step for c in _calls(box, cbox, state, card, -1, dice, None) if c.effect.do == "handler"
            for step in _handler(c).then(c)]


def resolve_court_crisis(box: Box, cbox: CampaignBox, state: BlightedReachState, card: str, dice: Dice,
                         answers: dict[int, dict] | None = None) -> list[dict]:
    if not in_court(state, card):
        raise BadParameter(f"{card} is not in the Court")
    return [{"event": "court_crisis", "card": card}, *_run(_calls(box, cbox, state, card, -1, dice, answers))]


# -- all of it -------------------------------------------------------------------------


def missing_crisis_handlers(box: Box, cbox: CampaignBox, state: BlightedReachState) -> list[str]:
    """The named rules the coming Crises would need and nobody registered (held cards and
    Court Vox cards, whatever the dice): the flow can refuse to start the Crises on them."""
    cards = [c for _, c in fate_crisis_cards(cbox, state)] + court_crisis_cards(box, cbox, state)
    names = [e.handler for c in cards for e in cbox.effects_of(c)
             if getattr(e, "when", "") == "crisis" and e.do == "handler"]
    return [n for n in dict.fromkeys(names) if n not in FATE_CRISIS_HANDLERS]



def _ask(choose, decisions: list[Decision]) -> dict[int, dict]:
    answers: dict[int, dict] = {}
    for d in decisions:
        if len(d.options) == 1:
            answers[d.seat] = d.options[0]
        elif choose is None:
            raise ValueError(f"{seat_name(d.seat)} must choose for {d.card} ({d.op}) and no chooser was given")
        else:
            answers[d.seat] = choose(d)
    return answers


def resolve_crises(box: Box, cbox: CampaignBox, state: BlightedReachState, roll,
                   event_roll: Dice | None = None, choose: Callable[[Decision], dict] | None = None) -> list[dict]:
    """The whole Crises: Blight, then Fate, then Court Crises (BR-212). `event_roll` is
    the Event card's roll when an Event triggered them (None after the Council); `choose`
    answers each Decision (its `seat` decides). Returns the events, in order."""
    events = [{"event": "blight_crisis", **r} for r in bl.blight_crises(cbox, state)]
    for seat, card in fate_crisis_cards(cbox, state):
        if card in state.players[seat].guild or card in state.players[seat].lore:
            asked = _ask(choose, fate_crisis_decisions(box, cbox, state, seat, card, event_roll))
            events += resolve_fate_crisis(box, cbox, state, seat, card, event_roll, asked)
    dice = roll_court_dice(cbox, state, roll, event_roll)
    for card in court_crisis_cards(box, cbox, state):
        if in_court(state, card):
            asked = _ask(choose, court_crisis_decisions(box, cbox, state, card, dice))
            events += resolve_court_crisis(box, cbox, state, card, dice, asked)
    return events

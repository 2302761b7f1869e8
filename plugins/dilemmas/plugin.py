"""Dilemmas: five face-down Dilemma cards between the six Crisis cards; in each Refresh
before the next Crisis, one is revealed, voted on with vote tokens and its winning outcome
applied (QNC-208/209, QNC-222..234). Cards: `dilemmas.json` in the content pack (demo)."""
from __future__ import annotations

import sys
from pathlib import Path
from functools import lru_cache

import msgspec

from core import chance
from core.flow import StepTable
from core.hookspecs import hookimpl
from core.plugins import ModuleSpec
from core.seats import seat_name
from core.turn_order import next_around, next_in
from plugins.new_capital.content import load_module_cards, Effect, Modifier
from plugins.new_capital.effects import A, push_effects
from plugins.new_capital.province import turn_order

MODULE_ID = "dilemmas"
TOKENS = 3        # QNC-209/228/232
IN_PLAY = 5       # QNC-208: one between each pair of the 6 Crisis cards
FOR, AGAINST = "in_favor", "against"
steps = StepTable("dil")


class Outcome(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    text: str
    all: list[Effect] = []             # every player gains these, in turn order
    lasting: Modifier | None = None    # in force until the next Dilemma is revealed


class Dilemma(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: str
    text: str
    in_favor: Outcome
    against: Outcome
    demo: bool = True


@lru_cache(maxsize=8)
def cards(pack: str = "") -> dict[str, Dilemma]:
    return load_module_cards(pack, "dilemmas.json", Dilemma, 18, "Dilemmas")  # QNC-013


SPEC = ModuleSpec(
    id=MODULE_ID, game="new-capital", name="Dilemmas", plugin=sys.modules[__name__],
    description="Before each new Crisis, players vote with tokens on a Dilemma; the winning outcome applies.",
    min_players=1, max_players=4,  # QNC-204
    discouraged_with=("guildmasters",),
    client_view=Path(__file__).resolve().parent / "client",  # its part of the table view
)
enabled, mine = SPEC.enabled, SPEC.data


@hookimpl
def conclave_register_modules():
    return [SPEC]


@hookimpl
def conclave_load_content(state):
    if enabled(state):
        cards(state.pack)


@hookimpl
def conclave_setup(ctx):
    state = ctx.state
    if not enabled(state):
        return
    ids = sorted(cards(state.pack))
    chance.shuffle(ctx, ids, "dilemmas")
    state.module_state[MODULE_ID] = {
        "zones": {"deck": ids[:IN_PLAY], "box": ids[IN_PLAY:], "current": [], "done": []},  # QNC-208
        "tokens": {str(p.seat): TOKENS for p in state.players},                            # QNC-209
        "vote": None,
        "lasting": None,   # {"card", "side"} of an outcome in force for the next round
        "results": [],
    }


@hookimpl
def conclave_step_handlers():
    return steps


@hookimpl
def new_capital_before_crisis_reveal(ctx):
    """QNC-222/271: reveal the next Dilemma and vote, before the next Crisis."""
    state = ctx.state
    if not enabled(state):
        return
    m = mine(state)
    zones = m["zones"]
    if zones["current"]:  # QNC-234: a lasting Dilemma goes when the next one is revealed
        zones["done"].extend(zones["current"])
        zones["current"] = []
        m["lasting"] = None
    if not zones["deck"]:
        return
    card = zones["deck"].pop(0)
    zones["current"] = [card]
    m["vote"] = {"card": card, "sides": {}, "committed": {}, "out": [], "queen": None}
    ctx.emit("dilemma", card=card, round=state.round)
    ctx.push(first_pass)


@steps("first_pass")
def first_pass(ctx, after=None):
    """QNC-225: in player order, In Favor, Against (one token) or Abstain (none)."""
    state = ctx.state
    order = turn_order(state)
    m = mine(state)
    seat = next_in(order, after)
    if seat is None:
        if len(order) <= 2:  # QNC-229: the Queen's token, once, after the first pass
            m["vote"]["queen"] = chance.pick(ctx, [FOR, AGAINST], "queen's vote")
            ctx.emit("queen_vote", side=m["vote"]["queen"])
        ctx.push(reinforce)
        return
    options = [A("dilemma_vote", side="abstain")]
    if m["tokens"][str(seat)] > 0:  # QNC-233: no token, only Abstain
        options = [A("dilemma_vote", side=FOR), A("dilemma_vote", side=AGAINST)] + options
    ctx.push(first_pass, after=seat)
    ctx.ask(seat, "dilemma_vote", options, vote, text=cards(state.pack)[m["vote"]["card"]].text)


@steps("vote")
def vote(ctx, seat, params):
    m = mine(ctx.state)
    key = str(seat)
    if params["side"] == "abstain":
        m["vote"]["out"].append(seat)  # QNC-227: an abstainer adds nothing later
        if m["tokens"][key] < TOKENS:  # QNC-232: recover one spent token, never above 3
            m["tokens"][key] += 1
        ctx.emit("dilemma_vote", seat=seat, side="abstain", tokens=m["tokens"][key])
        return
    m["tokens"][key] -= 1
    m["vote"]["sides"][key] = params["side"]
    m["vote"]["committed"][key] = 1
    ctx.emit("dilemma_vote", seat=seat, side=params["side"], tokens=m["tokens"][key])


@steps("reinforce")
def reinforce(ctx, after=None):
    """QNC-226/228: around the table, voters add a 2nd and 3rd token of their side or stop
    (and are out). Ends when nobody can add any more. `after` has just had its chance."""
    state = ctx.state
    m = mine(state)
    v = m["vote"]
    order = turn_order(state)
    able = [s for s in order if str(s) in v["sides"] and s not in v["out"]
            and v["committed"][str(s)] < TOKENS and m["tokens"][str(s)] > 0]
    seat = next_around(order, after, able)
    if seat is None:
        ctx.push(resolve)
        return
    ctx.push(reinforce, after=seat)
    ctx.prompt(seat, "dilemma_reinforce", [A("dilemma_reinforce", add=True), A("dilemma_reinforce", add=False)], add)


@steps("add")
def add(ctx, seat, params):
    m = mine(ctx.state)
    key = str(seat)
    if params["add"]:
        m["tokens"][key] -= 1
        m["vote"]["committed"][key] += 1
        ctx.emit("dilemma_reinforce", seat=seat, side=m["vote"]["sides"][key], committed=m["vote"]["committed"][key])
    else:
        m["vote"]["out"].append(seat)
        ctx.emit("dilemma_stop", seat=seat)


def tally(v: dict) -> dict[str, int]:
    counts = {FOR: 0, AGAINST: 0}
    for key, side in v["sides"].items():
        counts[side] += v["committed"][key]
    if v["queen"]:
        counts[v["queen"]] += 1
    return counts


@steps("resolve")
def resolve(ctx):
    """QNC-230/231: more tokens wins, a tie goes to Against; spent tokens go to the supply."""
    state = ctx.state
    m = mine(state)
    v = m["vote"]
    counts = tally(v)
    winner = FOR if counts[FOR] > counts[AGAINST] else AGAINST
    card = cards(state.pack)[v["card"]]
    won = getattr(card, winner)
    m["results"].append({"card": v["card"], "winner": winner, "counts": counts, "round": state.round})
    m["vote"] = None
    ctx.emit("dilemma_result", card=card.id, winner=winner, counts=counts, text=won.text)
    if won.lasting is not None:
        m["lasting"] = {"card": card.id, "side": winner}  # QNC-234: stays face up until the next one
    else:
        m["zones"]["done"].extend(m["zones"]["current"])
        m["zones"]["current"] = []
    ctx.push_all((outcome, {"seat": seat, "card": card.id, "side": winner}) for seat in turn_order(state))


@steps("outcome")
def outcome(ctx, seat, card, side):
    """Each player gains the outcome's effects (Hunger feeds the Hunger rules: QNC-198)."""
    push_effects(ctx, seat, getattr(cards(ctx.state.pack)[card], side).all, "dilemma")


@hookimpl
def new_capital_modifiers(state):
    if not enabled(state) or MODULE_ID not in state.module_state:
        return []
    lasting = mine(state)["lasting"]
    if not lasting:
        return []
    modifier = getattr(cards(state.pack)[lasting["card"]], lasting["side"]).lasting
    return [(f"dil:{lasting['card']}:r{state.round}", msgspec.to_builtins(modifier))]


@hookimpl
def conclave_view(state, viewer, view):
    """The five Dilemmas wait face down; the unused 13 are boxed."""
    if not enabled(state) or MODULE_ID not in view.get("module_state", {}):
        return
    zones = view["module_state"][MODULE_ID]["zones"]
    zones["deck"], zones["box"] = len(zones["deck"]), len(zones["box"])


@hookimpl
def conclave_glossary(state, viewer, view):
    """The revealed Dilemmas this view names, with both outcomes (the face-down ones are counts)."""
    if not enabled(state):
        return {}
    from core.glossary import strings_in

    known = cards(state.pack)
    return {s: {"name": known[s].name, "text": known[s].text, "kind": "dilemma",
                "in_favor": known[s].in_favor.text, "against": known[s].against.text}
            for s in strings_in(view) if s in known}


@hookimpl
def conclave_check_invariants(state):
    if not enabled(state):
        return []
    m = mine(state)
    z = m["zones"]
    errors = []
    if sorted(z["deck"] + z["box"] + z["current"] + z["done"]) != sorted(cards(state.pack)):
        errors.append("dilemmas: a card is missing or doubled")
    for seat, n in m["tokens"].items():
        if not 0 <= n <= TOKENS:
            errors.append(f"dilemmas: {seat_name(seat)} holds {n} vote tokens")
    return errors


@hookimpl
def conclave_graphql_module_types():
    from plugins.dilemmas.graphql import DilemmasState, from_view

    return [(MODULE_ID, DilemmasState, from_view)]

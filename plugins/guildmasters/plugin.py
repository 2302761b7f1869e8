"""Guildmasters: each round the first player is dealt two Guildmasters and must make one
active; its modifier is in force for every player until the next one (QNC-206..215).
Cards: `guildmasters.json` in the table's New Capital content pack (demo cards)."""
from __future__ import annotations

import sys
from pathlib import Path
from functools import lru_cache

import msgspec

from core import chance
from core.flow import StepTable
from core.hookspecs import hookimpl
from core.plugins import ModuleSpec
from plugins.new_capital.content import load_module_cards, Modifier
from plugins.new_capital.effects import A, push_effects
from plugins.new_capital.province import turn_order

MODULE_ID = "guildmasters"
steps = StepTable("gm")


class Guildmaster(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: str
    modifier: Modifier
    text: str = ""
    demo: bool = True


@lru_cache(maxsize=8)
def cards(pack: str = "") -> dict[str, Guildmaster]:
    return load_module_cards(pack, "guildmasters.json", Guildmaster, 12, "Guildmasters")  # QNC-011


SPEC = ModuleSpec(
    id=MODULE_ID, game="new-capital", name="Guildmasters", plugin=sys.modules[__name__],
    description="Each round the first player picks one of two Guildmasters; its buff or debuff "
                "applies to everyone that round.",
    min_players=2, max_players=4,  # QNC-202/243: multiplayer only
    discouraged_with=("dilemmas",),  # QNC-205: allowed, not recommended
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
    deck = sorted(cards(state.pack))
    chance.shuffle(ctx, deck, "guildmasters")  # QNC-206
    state.module_state[MODULE_ID] = {"zones": {"deck": deck, "discard": [], "dealt": []}, "chooser": None}


@hookimpl
def conclave_step_handlers():
    return steps


@hookimpl
def new_capital_after_development_draw(ctx):
    """QNC-210/256: after the draw, the round's first player is dealt two."""
    state = ctx.state
    if not enabled(state):
        return
    zones = mine(state)["zones"]
    for _ in range(2):
        if not zones["deck"]:  # QNC-215: the discard pile becomes the new deck
            zones["deck"], zones["discard"] = zones["discard"], []
            chance.shuffle(ctx, zones["deck"], "guildmasters")
            ctx.emit("guildmaster_reshuffle", cards=len(zones["deck"]))
        zones["dealt"].append(zones["deck"].pop())
    mine(state)["chooser"] = state.first
    ctx.emit("guildmasters_dealt", to=[state.first], public={"seat": state.first, "count": 2},
             seat=state.first, cards=list(zones["dealt"]))
    # QNC-211: no pass option: one of the two must become active
    ctx.prompt(state.first, "guildmaster", [A("guildmaster", card=c) for c in zones["dealt"]], choose,
               text="Choose the active Guildmaster")


@steps("choose")
def choose(ctx, seat, params):
    """QNC-212: both go face up on the discard pile, the chosen one on top (active)."""
    state = ctx.state
    zones = mine(state)["zones"]
    chosen = params["card"]
    other = [c for c in zones["dealt"] if c != chosen]
    zones["discard"].extend(other + [chosen])
    zones["dealt"] = []
    mine(state)["chooser"] = None
    ctx.emit("guildmaster", seat=seat, card=chosen, discarded=other)
    modifier = cards(state.pack)[chosen].modifier
    if modifier.kind == "on_active":  # QNC-213: it affects every player
        ctx.push_all((on_active, {"seat": s, "card": chosen}) for s in turn_order(state))


@steps("on_active")
def on_active(ctx, seat, card):
    push_effects(ctx, seat, cards(ctx.state.pack)[card].modifier.effects, "modifier")


def active(state) -> str | None:
    zones = mine(state)["zones"]
    return zones["discard"][-1] if zones["discard"] and mine(state)["chooser"] is None else None


@hookimpl
def new_capital_modifiers(state):
    if not enabled(state) or MODULE_ID not in state.module_state:
        return []
    card = active(state)
    if card is None:
        return []
    return [(f"gm:{card}:r{state.round}", msgspec.to_builtins(cards(state.pack)[card].modifier))]


@hookimpl
def conclave_view(state, viewer, view):
    if not enabled(state) or MODULE_ID not in view.get("module_state", {}):
        return
    m = view["module_state"][MODULE_ID]
    m["zones"]["deck"] = len(m["zones"]["deck"])  # face down
    if viewer != m["chooser"]:
        m["zones"]["dealt"] = len(m["zones"]["dealt"])
    m["active"] = active(state)


@hookimpl
def conclave_glossary(state, viewer, view):
    """Names and texts of the Guildmasters this view shows (the active one, the discard pile,
    the two dealt to the chooser only: another seat's view holds a count there)."""
    if not enabled(state):
        return {}
    from core.glossary import strings_in

    known = cards(state.pack)
    return {s: {"name": known[s].name, "text": known[s].text, "kind": "guildmaster"}
            for s in strings_in(view) if s in known}


@hookimpl
def conclave_check_invariants(state):
    if not enabled(state):
        return []
    z = mine(state)["zones"]
    everything = z["deck"] + z["discard"] + z["dealt"]
    if sorted(everything) != sorted(cards(state.pack)):
        return [f"guildmasters: {len(everything)} cards in play, not the 12"]
    return []


@hookimpl
def conclave_graphql_module_types():
    from plugins.guildmasters.graphql import GuildmastersState, from_view

    return [(MODULE_ID, GuildmastersState, from_view)]

"""Arcs (Leder Games) as a pluggy game plugin: the GameSpec, then the hook implementations.

The rules live in the flow modules (rounds.py, battle_flow.py, court_flow.py, turn.py) over
the pure rule functions (actions.py, battle.py, outrage.py, scoring.py, chapter.py).
"""
from __future__ import annotations

import sys
from pathlib import Path

from core.hookspecs import hookimpl
from core.plugins import GameSpec, OptionSpec
from plugins.arcs import battle_flow, court_flow, placing_flow, rounds, simultaneous  # noqa: F401 (register their steps)
from plugins.arcs.content import default_box
from plugins.arcs.invariants import problems
from plugins.arcs import hookspecs as arcs_hookspecs
from plugins.arcs.setup import place_starting_pieces, set_up
from plugins.arcs.state import ArcsState
from plugins.arcs.tables import decisions, steps
from plugins.arcs.views import redact, secrets

GAME_ID = "arcs"


def _game() -> GameSpec:
    cards = default_box().setups
    setups = tuple(["", *sorted(cards)])
    setup_names = tuple(["Drawn at random", *(f"{cards[c].name} ({cards[c].players} players)" for c in setups[1:])])
    return GameSpec(
        id=GAME_ID,
        name="Arcs",
        min_players=2,  # ARCS-001
        max_players=4,
        plugin=sys.modules[__name__],
        description="Space conflict in one session: lead and follow action cards, battle, secure the Court, "
                    "score ambitions over up to five chapters.",
        # ARCS-047 (setup card), ARCS-266 (two Lore), ARCS-283 (Split Discard)
        options={"setup_card": OptionSpec(default="", choices=setups, labels=setup_names,
                                          description="The setup card the table agreed on (it must match the "
                                                      "number of players)"),
                 "lore_per_player": OptionSpec(default=1, choices=(1, 2), labels=("One Lore card", "Two Lore cards"),
                                               description="With Leaders & Lore: the Lore cards each player drafts"),
                 "split_discard": OptionSpec(default=False, choices=(False, True), labels=("Off", "On"),
                                             description="Split Discard variant: face-up plays go to a public "
                                                         "discard pile of their own")},
        hookspecs=arcs_hookspecs,
        state_type=ArcsState,
        client_view=Path(__file__).resolve().parent / "client",  # the reference client's table view
    )


@hookimpl
def conclave_register_games():
    return [_game()]


@hookimpl
def conclave_initial_state(game, seats, seed, options, modules, content):
    if game != GAME_ID:
        return None
    return ArcsState(game=game, seats=seats, seed=seed, options=options, modules=modules)


@hookimpl(tryfirst=True)
def conclave_setup(ctx):
    state = ctx.state
    if state.game != GAME_ID:
        return
    card = state.options.get("setup_card", "")
    if card and default_box().setups[card].players != len(state.seats):
        from core.errors import BadOption

        raise BadOption(f"setup card {card} is for {default_box().setups[card].players} players")
    set_up(default_box(), state, card, pieces=False)
    ctx.emit("setup", setup_card=state.setup_card, initiative=state.initiative, court=list(state.court_row))
    ctx.push_all([(starting_pieces, {}), (rounds.chapter_start, {})])
    ctx.hook.arcs_setup_steps(ctx=ctx)  # the modules' setup steps (the Leaders & Lore draft) run first


@steps("starting_pieces")
def starting_pieces(ctx):
    """ARCS-052..057 in turn order, unless a module places a seat's own (a Leader's layout)."""
    state = ctx.state
    n = len(state.players)
    for seat in [(state.initiative + i) % n for i in range(n)]:
        if not ctx.hook.arcs_place_starting_pieces(ctx=ctx, seat=seat):
            place_starting_pieces(default_box(), state, seat)


@hookimpl
def conclave_step_handlers():
    return settled_handlers()


_SETTLED: dict = {}


def settled_handlers() -> dict:
    """Every Arcs step, each followed by the resource placement check (`placing_flow`)."""
    if not _SETTLED:
        _SETTLED.update(placing_flow.settled_steps(steps))
    return _SETTLED


@hookimpl
def conclave_decisions():
    return decisions


@hookimpl
def conclave_view(state, viewer, view):
    if state.game == GAME_ID:
        redact(state, viewer, view)


@hookimpl
def conclave_glossary(state, viewer, view):
    if state.game != GAME_ID:
        return None
    from plugins.arcs.glossary import glossary

    return glossary(default_box(), state, viewer, view)


@hookimpl
def conclave_secrets(state, viewer, events):
    if state.game == GAME_ID:
        return secrets(state, viewer, events)
    return None


@hookimpl
def conclave_check_invariants(state):
    if state.game != GAME_ID:
        return []
    return problems(default_box(), state)


@hookimpl
def conclave_graphql_types():
    from plugins.arcs.graphql import ArcsState as ArcsView, from_view

    return [(GAME_ID, ArcsView, from_view)]


@hookimpl
def conclave_score(state, seat):
    if state.game != GAME_ID:
        return None
    from plugins.arcs.bot import score

    return score(state, seat)


@hookimpl
def conclave_sample_hidden(state, seat, rng):
    if state.game != GAME_ID:
        return None
    from plugins.arcs.bot import sample_hidden

    return sample_hidden(state, seat, rng)

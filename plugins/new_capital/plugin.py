"""The Queen's New Capital as a pluggy plugin: declared facts, then hook implementations.

A table's plugin manager holds only its game and its enabled modules (`Registry.rules_for`),
so the table hooks here never ask which game a state belongs to."""
from __future__ import annotations

from pathlib import Path

from core.errors import BadParameter, CannotAfford
from core.hookspecs import hookimpl
from core.plugins import GameSpec, OptionSpec
from core.seats import seat_name
from plugins.new_capital import hookspecs as nc_hookspecs
from plugins.new_capital.content import DEFAULT_PACK, DEMO_PACK, pack_for
from plugins.new_capital.effects import steps as effect_steps
from plugins.new_capital.migrations import MIGRATIONS
from plugins.new_capital.rounds import PHASES, setup, steps as round_steps  # noqa: F401 (registers steps)
from plugins.new_capital.state import NewCapitalState
from plugins.new_capital.views import invariant_errors, redact

GAME_ID = "new-capital"
SCENARIOS = ("learning", "swift", "friendly", "uprising")
SCENARIO_NAMES = ("Learning the Game", "Swift Game", "Friendly Dispute", "Uprising")  # the cards' titles


def _game() -> GameSpec:
    import sys

    return GameSpec(
        id=GAME_ID,
        name="The Queen's New Capital",
        min_players=1,  # QNC-001: solo mode is a player count, not a module
        max_players=4,
        plugin=sys.modules[__name__],
        description="Card-driven province building: draft, develop, face the crises, score seals.",
        options={
            # QNC-023: the Scenario card (its victory condition, Honorary Seal and Alert Trigger).
            "scenario": OptionSpec(default="learning", choices=SCENARIOS, labels=SCENARIO_NAMES,
                                   description="The Scenario card: how many Seals win, the Honorary Seal and "
                                               "the Alert Trigger"),
            "pack": OptionSpec(default=DEMO_PACK, description="The cards to play with (the packs installed "
                                                              "plugins and the operator registered)"),
        },
        hookspecs=nc_hookspecs,
        state_type=NewCapitalState,
        state_format=1,  # 1: the round's loops carry the seat that last acted (migrations.format_0_to_1)
        migrations=MIGRATIONS,
        phases=(PHASES,),  # the Round Anatomy (rounds.PHASES)
        client_view=Path(__file__).resolve().parent / "client",  # the reference client's table view
    )


@hookimpl
def conclave_register_games():
    return [_game()]


@hookimpl
def conclave_content_packs():
    return {GAME_ID: {DEMO_PACK: DEFAULT_PACK}}


@hookimpl
def conclave_initial_state(game, seats, seed, options, modules, content):
    # the state keeps the folder its table started with ("" for the built-in pack, wherever
    # the server is installed); the view shows the pack's name only
    folder = "" if content is None or content == DEFAULT_PACK else str(content)
    pack_for(folder)  # validate the pack before anything is built
    return NewCapitalState(game=game, seats=seats, seed=seed, options=options, modules=modules,
                           scenario=options["scenario"], pack=folder)


@hookimpl
def conclave_load_content(state):
    pack_for(state.pack)


@hookimpl(tryfirst=True)
def conclave_setup(ctx):
    setup(ctx)


@hookimpl
def conclave_step_handlers():
    return effect_steps  # one table: effects.steps holds the round steps too


@hookimpl
def conclave_view(state, viewer, view):
    redact(state, viewer, view)


@hookimpl
def conclave_explain_rejection(state, seat, action):
    p = state.players[seat]
    if action.type == "bid_power" and isinstance(action.params.get("n"), int) and action.params["n"] > p.reserve_power:
        return CannotAfford(f"{seat_name(seat)} holds {p.reserve_power} power tokens, cannot bid {action.params['n']}")
    if action.type == "bid_control" and isinstance(action.params.get("n"), int) and action.params["n"] > p.reserve_control:
        return CannotAfford(f"{seat_name(seat)} holds {p.reserve_control} control tokens, cannot bid {action.params['n']}")
    if action.type == "play" and action.params.get("card") not in p.hand:
        return BadParameter(f"card {action.params.get('card')!r} is not in {seat_name(seat)}'s hand")
    return None


@hookimpl
def conclave_glossary(state, viewer, view):
    from plugins.new_capital.views import glossary

    return glossary(state, view, pack_for(state.pack))


@hookimpl
def conclave_check_invariants(state):
    return invariant_errors(state, pack_for(state.pack))


@hookimpl
def conclave_graphql_types():
    from plugins.new_capital.graphql import NewCapitalState as NewCapitalView, from_view

    return [(GAME_ID, NewCapitalView, from_view)]


@hookimpl
def conclave_score(state, seat):
    from plugins.new_capital.bot import score

    return score(state, seat)


@hookimpl
def conclave_sample_hidden(state, seat, rng):
    from plugins.new_capital.bot import sample_hidden

    return sample_hidden(state, seat, rng)

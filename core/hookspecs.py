"""Every core hook, grouped by lifecycle stage (after pytest's `hookspec.py`).

Hooks are called with keyword arguments only. Argument names are the same
everywhere: `ctx` is the running `core.flow.Ctx` (state, events, RNG, stack);
`state` is a `TableState` when no mutation is allowed. A game plugin may add its own
hookspecs for the extension points its modules need (`GameSpec.hookspecs`).

The protocol of one table:

1. `conclave_register_games` / `conclave_register_modules` / `conclave_content_packs`
   (once, on the registry)
2. `conclave_initial_state` (firstresult, the game) then `conclave_setup` (game first,
   then each enabled module)
3. the flow runs steps; `conclave_phase_enter` / `conclave_phase_exit` fire as the kernel
   enters and leaves a game's declared phases (`core.phases`), or as a game's own step says
4. for each accepted action: the resume step, the flow, then `conclave_action_applied`
5. `conclave_game_end` when the game sets its result
6. reading: `conclave_view` (game redacts, modules add), `conclave_explain_rejection`
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from pathlib import Path

    from core.flow import Ctx
    from core.plugins import GameSpec, ModuleSpec
    from core.state import Action, TableState

PROJECT = "conclave"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

# Hooks of a layer above the kernel that game plugins implement: the schema's GraphQL types
# (their specs: schema/hookspecs.py, which the schema gives the registry). A registry that
# was not given that layer's specs (the kernel alone: bots, simulate, rules tests) leaves
# these names unchecked instead of refusing every game plugin; any other hook without a spec
# is refused (`core.plugins.check_pending`). An implementation marked `optionalhook` needs
# no entry here.
UPPER_LAYER_HOOKS = frozenset({"conclave_graphql_types", "conclave_graphql_module_types"})


# -- registration -------------------------------------------------------------------
@hookspec
def conclave_register_games() -> list[GameSpec]:
    """Return the games this plugin provides."""


@hookspec
def conclave_register_modules() -> list[ModuleSpec]:
    """Return the optional modules this plugin provides."""


@hookspec
def conclave_content_packs() -> dict[str, dict[str, Path]]:
    """Return the content packs this plugin ships: {game id: {pack name: folder}}. A table
    chooses one by name with its `pack` option; the registered names are that option's
    choices. A name registered twice for a game stops the registry with `PluginError`."""


# -- table setup --------------------------------------------------------------------
@hookspec(firstresult=True)
def conclave_initial_state(game: str, seats: list, seed: int, options: dict, modules: list[str],
                           content: Path | None) -> TableState:
    """The game builds its empty state object (kernel fields filled in). `content` is the
    folder of the content pack the table's `pack` option names (None for a game without
    packs). First answer wins."""


@hookspec
def conclave_load_content(state: TableState) -> None:
    """Load the content this table plays with (loaders cache it), raising `ContentError` if
    it cannot be loaded. Called when a process first reads a stored table, so a broken pack
    fails that table's reads alone."""


@hookspec
def conclave_setup(ctx: Ctx) -> None:
    """Lay out the table. The game implements it `tryfirst`; modules then add their setup
    and may push steps that run before the first decision."""


@hookspec
def conclave_step_handlers() -> dict[str, Any]:
    """Return {step name: handler}. Handlers take `(ctx, **args)`; prompt resumes take
    `(ctx, seat=, params=, **args)`. Names are global per table: prefix them with the plugin id."""


@hookspec
def conclave_decisions() -> dict[str, Any]:
    """Return {decision name: `core.decisions.Decision`} (a `DecisionTable`): the typed
    decisions this plugin's prompts may name. Names are prefixed like step names."""


# -- flow -------------------------------------------------------------------------
@hookspec
def conclave_phase_enter(ctx: Ctx, phase: str) -> None:
    """A phase begins (state.phase is already set)."""


@hookspec
def conclave_phase_exit(ctx: Ctx, phase: str) -> None:
    """A phase ends."""


@hookspec
def conclave_action_applied(ctx: Ctx, seat: int, action: Action) -> None:
    """An action was accepted and the flow has run until the next decision."""


@hookspec
def conclave_game_end(ctx: Ctx, result: dict) -> None:
    """The game is over; `result` is already in `state.result`."""


@hookspec
def conclave_campaign_save(state: TableState, campaign: dict) -> None:
    """Write what the campaign keeps between sessions into `campaign` (in place)."""


# -- reading ------------------------------------------------------------------------
@hookspec
def conclave_view(state: TableState, viewer: int | None, view: dict) -> None:
    """Redact `view` (a plain-data copy of the state) for `viewer` (None = spectator), in place.
    Remove what the viewer may not see; add derived public facts if useful."""


@hookspec
def conclave_glossary(state: TableState, viewer: int | None, view: dict) -> dict:
    """{id: {"name": ..., "text": ..., "kind": ...}} for the ids in `view` (the viewer's
    redacted view): public faces only (core/glossary.py)."""


@hookspec
def conclave_table_warnings(game: str, players: int, options: dict, modules: list[str]) -> list[str]:
    """Advice about an allowed but discouraged table configuration (shown as `warnings`)."""


@hookspec(firstresult=True)
def conclave_explain_rejection(state: TableState, seat: int, action: Action) -> Exception | None:
    """An action of a legal type did not match any option: return the most specific typed
    error (e.g. `CannotAfford`), or None for the kernel's generic `BadParameter`."""


@hookspec
def conclave_secrets(state: TableState, viewer: int | None, events: list) -> list[str] | dict:
    """The ids `viewer` (None = spectator) may not see now (other hands, deck orders, secret
    choices...), given the last action's `events`: no string of the viewer's view or of
    those events may equal one (`core.secrets`; `simulate` checks it after every action).
    Or {"view": [...], "events": [...]} where the two differ."""


@hookspec
def conclave_check_invariants(state: TableState) -> list[str]:
    """Return descriptions of broken invariants (cards in two places, counts over the
    components...). Used by tests and `simulate` after every action."""


# -- campaigns (games that span sessions) ----------------------------------------------
@hookspec(firstresult=True)
def conclave_campaign_new(game: str, seats: list, options: dict) -> dict:
    """The game's starting campaign state (plain JSON data), for a new campaign."""


@hookspec
def conclave_campaign_begin(ctx: Ctx, campaign: dict) -> None:
    """A campaign's next game is being set up: read the campaign state into the table
    (runs after `conclave_setup`, before the first decision). Do not modify `campaign`."""


@hookspec(firstresult=True)
def conclave_campaign_standings(game: str, campaign: dict) -> list:
    """Standings of a campaign, one plain-data row per seat."""


@hookspec
def conclave_campaign_stats(game: str, campaign: dict) -> dict[str, dict[str, int]]:
    """Counts that describe one finished campaign, {name: {key: count}} (e.g. the Fates taken):
    `simulate` sums them over its campaigns and prints them."""


@hookspec(firstresult=True)
def conclave_campaign_over(game: str, campaign: dict) -> bool:
    """Whether the campaign has reached its end (no further game may start)."""


# -- absent seats (core/absence.py) -------------------------------------------------------
@hookspec(firstresult=True)
def conclave_skip_seat(ctx: Ctx, seat: int, skipped: bool) -> bool:
    """A table that skips away seats (its `absent_seats` setting is "skip"; offered only to a
    game whose `GameSpec.skips_absent_seats` is set): `seat` has just gone away (`skipped`)
    or come back. Going away, the game takes the seat out of play as its rules treat an
    absent player: each of its open prompts is closed, or handed to whoever the rules say
    chooses for it, and none opens for it while it is away. Coming back, it takes part
    again from its next decision. The kernel runs the flow on afterwards. Return False when
    the rules do not allow it now (too few players left, say): a bot plays the seat then."""


# -- bots (core/bot.py, core/search_bot.py) ---------------------------------------------
@hookspec(firstresult=True)
def conclave_bot_policy(game: str, strength: str, seed: int, budget_ms: int) -> Any:
    """A game's own bot for a table's bot `strength` (an object with
    `decide(rules, state, seat) -> Action`), or None for the kernel's generic one
    (`core.bot.make_bot`: "random" the random bot, "search" the search bot). First answer wins."""


@hookspec(firstresult=True)
def conclave_score(state: TableState, seat: int) -> float:
    """How well `seat` stands in a running game, as a heuristic the search bot compares
    between seats (higher is better; the scale is the game's, one unit ~ one victory point
    is a good habit). It may read the whole state: the search bot calls it only on a state
    it sampled itself (`conclave_sample_hidden`). None: the game has no heuristic and the
    search bot plays as the random bot. First answer wins."""


@hookspec
def conclave_sample_hidden(state: TableState, seat: int, rng: Any) -> bool:
    """Redeal, in place, everything `seat` may not see in `state` (a copy the kernel made
    and gave a new RNG state, `core.determinize.sample_hidden`): other hands, every deck's
    order, face-down cards, and pending steps or stored data naming them, each refilled
    from the pool of cards that place could hold, drawn with `rng` (a `random.Random`).
    The result must depend only on what the seat's view shows and on `rng`: the same view
    with other hidden contents gives the same sample (`core.determinize.redeal` sorts each
    pool first). The game redeals its own parts, each module that hides anything its own.
    Return True; when no plugin answers True the table cannot be sampled and the search
    bot plays as the random bot."""

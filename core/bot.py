"""Bots that play any game through legal actions alone, and headless games between them.

The random bot knows nothing of the rules: it picks a seat with an open prompt and one of
that seat's legal actions, from its own seeded `random.Random` (bot choices are not game
randomness). The search bot (`core.search_bot`) adds the game's score hook. Which bot
plays a seat is the table's `bot` setting (`BOT_OPTIONS`, `make_bot`); a game may supply
its own bot for a strength (`conclave_bot_policy`).
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

from core.engine import Table, create_table, legal_actions
from core.errors import BadOption, EngineError
from core.plugins import Rules, default_registry
from core.secrets import HiddenCheck
from core.state import Action, Seat, TableState
from core.table_settings import BOT_OPTIONS, STRENGTHS


class RandomBot:
    """Any legal action, uniformly: the baseline every other bot is measured against."""

    def __init__(self, seed: int = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, table: Table):
        """(seat, action) for one of the open prompts, blocking ones first."""
        state = table.state
        seat = next_seat(state, self.random)
        return seat, self.random.choice(legal_actions(state, seat, table.rules))

    def decide(self, rules: Rules, state: TableState, seat: int) -> Action:
        """One of this seat's legal actions."""
        return self.random.choice(legal_actions(state, seat, rules))


def make_bot(rules: Rules, options: dict, seed: int):
    """The bot a table's options ask for (`BOT_OPTIONS`): the game's own for that strength
    if it has one (`conclave_bot_policy`), else the kernel's."""
    from core.search_bot import Budget, SearchBot

    strength = options.get("bot", BOT_OPTIONS["bot"].default)
    budget_ms = options.get("bot_budget_ms", BOT_OPTIONS["bot_budget_ms"].default)
    if strength not in STRENGTHS:
        raise BadOption(f"option 'bot' must be one of {list(STRENGTHS)}, not {strength!r}")
    own = rules.hook.conclave_bot_policy(game=rules.game.id, strength=strength, seed=seed, budget_ms=budget_ms)
    if own is not None:
        return own
    if strength == "search":
        return SearchBot(seed, Budget(cpu_ms=budget_ms))
    return RandomBot(seed)


def next_seat(state: TableState, rng: random.Random) -> int:
    """Which seat acts next in a headless game: one holding a blocking prompt if any."""
    seats = sorted({p.seat for p in state.prompts if p.blocking}) or sorted({p.seat for p in state.prompts})
    return rng.choice(seats)


def play_match(game: str, bots: list, seed: int, options: dict | None = None, modules: list[str] | None = None,
               max_actions: int = 20_000, after_action=None) -> Table:
    """One whole game with one bot per seat (`bots[seat].decide`); the order in which seats
    holding prompts at once act is drawn from the game seed."""
    table = create_table(game, len(bots), seed=seed, modules=modules, options=options)
    order = random.Random(seed)
    actions = 0
    while not table.state.finished:
        if actions >= max_actions:
            raise EngineError(f"game did not end within {max_actions} actions")
        seat = next_seat(table.state, order)
        action = bots[seat].decide(table.rules, table.state, seat)
        table.act(seat, action)
        actions += 1
        if after_action is not None:
            after_action(table, seat, action)
    return table


@dataclass
class PlayedGame:
    table: Table
    actions: int
    invariant_errors: list[str] = field(default_factory=list)


def play_game(
    game: str,
    players: int,
    seed: int,
    modules: list[str] | None = None,
    options: dict | None = None,
    check_invariants: bool = False,
    max_actions: int = 20_000,
    after_action=None,
    campaign: dict | None = None,
    check_hidden: bool = False,
) -> PlayedGame:
    """Play one whole game with random bots (bot seed = game seed), or the bots the table's
    `bot` option names, one per seat; with `campaign`, as
    that campaign's next game. `check_hidden`: after every action, no seat nor a spectator
    sees what its game says it may not (`core.secrets`); a leak is reported as an error."""
    table = create_table(game, players, seed=seed, modules=modules, options=options, campaign=campaign)
    hidden = HiddenCheck(table) if check_hidden else None
    bot = RandomBot(seed)
    # a table that names its bots (`BOT_OPTIONS`) gets one of them per seat; otherwise the one
    # random bot picks the seat too, as it always has (the pinned bot games replay its choices)
    seated = [make_bot(table.rules, table.state.options, seed * 10 + s) for s in range(players)] \
        if "bot" in table.state.options else None
    order = random.Random(seed)
    errors: list[str] = []
    actions = 0
    while not table.state.finished:
        if actions >= max_actions:
            raise EngineError(f"game did not end within {max_actions} actions")
        if seated is None:
            seat, action = bot.choose(table)
        else:
            seat = next_seat(table.state, order)
            action = seated[seat].decide(table.rules, table.state, seat)
        table.act(seat, action)
        actions += 1
        if check_invariants:
            for found in table.rules.hook.conclave_check_invariants(state=table.state):
                errors.extend(f"after action {actions}: {e}" for e in found)
        if hidden is not None:
            errors.extend(f"after action {actions}: hidden information shown: {e}" for e in hidden(table))
        if after_action is not None:
            after_action(table, seat, action)
    return PlayedGame(table=table, actions=actions, invariant_errors=errors)


@dataclass
class PlayedCampaign:
    campaign: dict
    games: list[PlayedGame]
    standings: list


def play_campaign(
    game: str,
    players: int,
    seed: int,
    modules: list[str] | None = None,
    options: dict | None = None,
    check_invariants: bool = False,
    max_games: int = 50,
    check_hidden: bool = False,
) -> PlayedCampaign:
    """Play a whole campaign headless: game n uses seed `seed * 1000 + n`; the campaign is
    saved after each game exactly as the server saves it (`conclave_campaign_save`)."""
    rules = default_registry().rules_for(game, list(modules or []))
    campaign = rules.hook.conclave_campaign_new(game=game, seats=[Seat(index=i) for i in range(players)],
                                                options=dict(options or {}))
    if campaign is None:
        raise EngineError(f"{game} is not played as a campaign")
    played: list[PlayedGame] = []
    while not rules.hook.conclave_campaign_over(game=game, campaign=campaign):
        if len(played) == max_games:
            raise EngineError(f"campaign did not end within {max_games} games")
        one = play_game(game, players, seed * 1000 + len(played), modules=modules, options=options,
                        check_invariants=check_invariants, campaign=copy.deepcopy(campaign),
                        check_hidden=check_hidden)
        played.append(one)
        rules.hook.conclave_campaign_save(state=one.table.state, campaign=campaign)
    return PlayedCampaign(campaign=campaign, games=played,
                          standings=rules.hook.conclave_campaign_standings(game=game, campaign=campaign))

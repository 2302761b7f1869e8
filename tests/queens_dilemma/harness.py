"""Helpers for playing The Queen's Dilemma through the engine in tests.

A test builds a campaign (`campaign()`: the one-time setup already done, or not), changes
the fields it cares about (deck order, Diaries, unlocked Chronicles...), starts a game with
it (`start`) and plays decisions with `act` / `answer` / `play_until`, reading the state
and events. Nothing here pokes rule code directly: every step goes through `Table.act`.
"""
from __future__ import annotations

import copy
import random

import msgspec

from core import create_table
from core.bot import play_game
from core.engine import Table, legal_actions, prompt_answers
from core.state import Action
from plugins.queens_dilemma.content import default_box
from plugins.queens_dilemma.plugin import GAME_ID, new_campaign
from plugins.queens_dilemma.state import Campaign, HeldAgenda

BOX = default_box()
REGIONS = list(BOX.regions)


def campaign(players: int = 4, characters: list[str] | None = None, modules: list[str] | None = None,
             regions_chosen: bool = True, leader: int = 0, moderator: int | None = None) -> dict:
    """A campaign as the store keeps it. With `regions_chosen`, the one-time setup is taken
    as done: Regions dealt two (three with 3 players) per seat in seat order, the rest as
    Vassals, Envelope 00 opened (its Dilemmas are the deck), starting Agendas held."""
    options = {"characters": characters} if characters else {}
    c: Campaign = new_campaign(players, options, list(modules or []))
    if regions_chosen:
        mains = 3 if players == 3 else 2
        free = list(REGIONS)
        for d in c.diaries:
            d.regions = [free.pop(0) for _ in range(mains)]
        i = 0
        while free:
            c.diaries[i % players].vassals.append(free.pop(0))
            i += 1
        env = BOX.envelopes["00"]
        c.deck = list(env.dilemmas)
        c.stories = [env.story]
        c.opened = ["00"]
        c.regions_chosen = True
        c.leader = leader
        c.moderator = (leader - 1) % players if moderator is None else moderator
        for d in c.diaries:
            code = BOX.characters[d.character].starting_agenda
            d.agendas.append(HeldAgenda(code=code, deadline=BOX.agendas[code].deadline or 4))
            c.unlocked.append(code)
    return msgspec.to_builtins(c)


def start(camp: dict | None = None, players: int | None = None, seed: int = 0, modules: list[str] | None = None,
          options: dict | None = None) -> Table:
    """A table for the campaign's next game (a new campaign of its own when `camp` is None)."""
    if players is None:
        players = camp["players"] if camp else 4
    return create_table(GAME_ID, players, seed=seed, modules=modules, options=options,
                        campaign=copy.deepcopy(camp) if camp is not None else None)


def act(table: Table, seat: int, type_: str, **params) -> list:
    """Play exactly this action (it must be legal)."""
    return table.act(seat, Action(type_, params))


def options(table: Table, seat: int, type_: str | None = None) -> list[Action]:
    return [a for a in legal_actions(table.state, seat, table.rules) if type_ is None or a.type == type_]


def choices(table: Table, p) -> list[Action]:
    """One prompt's answers: its listed options, or its typed decision's candidates (in the
    order `legal_actions` lists them)."""
    return prompt_answers(table.rules, table.state, p)


def prompt_seats(table: Table, kind: str) -> list[int]:
    return [p.seat for p in table.state.prompts if p.kind == kind]


def bot_until(table: Table, done, seed: int = 0, max_actions: int = 5000, avoid: tuple = ("pay",)) -> None:
    """Random legal play (blocking prompts only, never bargaining payments) until `done(table)`."""
    rng = random.Random(seed)
    for _ in range(max_actions):
        if done(table) or table.state.finished:
            return
        blocking = [p for p in table.state.prompts if p.blocking]
        p = rng.choice(blocking)
        listed = choices(table, p)
        table.act(p.seat, rng.choice([o for o in listed if o.type not in avoid] or listed))
    raise AssertionError("the condition never came")


class Recorder:
    """A `done` condition for bot_until that also keeps every event raised on the way."""

    def __init__(self, table, until=lambda t: False):
        self.events = list(table.events)
        self._last = table.events
        self.until = until

    def __call__(self, table) -> bool:
        if table.events is not self._last:
            self.events += table.events
            self._last = table.events
        return self.until(table)

    def of(self, type_: str) -> list[dict]:
        return [e.data for e in self.events if e.type == type_]


def voting(table) -> bool:
    """A vote prompt is open."""
    return any(p.kind == "vote" and p.blocking for p in table.state.prompts)


def events(table: Table, type_: str) -> list[dict]:
    return [e.data for e in table.events if e.type == type_]


def played_campaign_game(camp: dict, seed: int = 0, modules: list[str] | None = None):
    """A whole game of a campaign by random bots; returns (table, saved campaign)."""
    from core import default_registry

    played = play_game(GAME_ID, camp["players"], seed, modules=modules, campaign=copy.deepcopy(camp))
    saved = copy.deepcopy(camp)
    default_registry().rules_for(GAME_ID, list(modules or [])).hook.conclave_campaign_save(
        state=played.table.state, campaign=saved)
    return played.table, saved

"""The Queen's Dilemma as a pluggy plugin (`queens-dilemma`): a legacy campaign game.

A table is one game of a campaign. Without a campaign (headless play, `simulate`) the table
starts a new campaign of its own; with one (`conclave_campaign_begin`) it reads the saved
campaign in, and at its end the whole campaign is written back (`conclave_campaign_save`).
"""
from __future__ import annotations

import sys
from pathlib import Path

import msgspec

from core.errors import BadOption, IncompatibleModules
from core.hookspecs import hookimpl
from core.plugins import GameSpec, OptionSpec
from plugins.queens_dilemma import absence, economy, ending, hookspecs as qd_hookspecs, rounds, voting
from plugins.queens_dilemma.content import CHARACTERS, default_box
from plugins.queens_dilemma.effects import steps as effect_steps
from plugins.queens_dilemma.migrations import MIGRATIONS
from plugins.queens_dilemma.rounds import card_actions
from plugins.queens_dilemma.state import Campaign, Diary, Player, QDState
from plugins.queens_dilemma.views import glossary, invariant_errors, redact

GAME_ID = "queens-dilemma"
AOD = "age-of-disorder"
RECOMMENDED = {  # QD-025, QD-026 (the first listed set is the default)
    3: [("Aesyas", "Jilian", "Syd"), ("Aesyas", "Elinor", "Syd"), ("Aesyas", "Syd", "Xanthe"), ("Jilian", "Lyrie", "Xanthe")],
    4: [("Aesyas", "Jilian", "Syd", "Xanthe"), ("Elinor", "Jilian", "Lyrie", "Syd"), ("Aesyas", "Elinor", "Lyrie", "Xanthe")],
}


def _game() -> GameSpec:
    characters = default_box().characters
    character_names = tuple(f"{characters[c].name}, {characters[c].title}" for c in CHARACTERS)
    return GameSpec(
        id=GAME_ID,
        name="The Queen's Dilemma",
        min_players=3,
        max_players=6,
        plugin=sys.modules[__name__],
        description="A legacy campaign of votes and dilemmas on the Queen's Council, over many sessions.",
        options={
            "characters": OptionSpec(default=None, kind=list[str] | None, shape="per-seat", items=CHARACTERS,
                                     item_labels=character_names,
                                     description="Each seat's Character (empty: a recommended set)"),
            # QD-116 (absences), QD-128 (defections)
            "absent": OptionSpec(default=None, kind=list[int] | None, shape="seats",
                                 description="Seats absent from this game"),
            "defected": OptionSpec(default=None, kind=list[int] | None, shape="seats",
                                   description="Seats that leave the campaign for good"),
        },
        hookspecs=qd_hookspecs,
        state_type=QDState,
        campaign_only=True,
        state_format=1,  # 1: payments, forced payments and voting turns are typed decisions (issue 14)
        migrations=MIGRATIONS,
        phases=(rounds.ROUND, ending.END),  # the round and the end of the game, as data
        client_view=Path(__file__).resolve().parent / "client",  # the reference client's table view
        skips_absent_seats=True,  # the rulebook's Absences: a game goes on without a player (absence.py)
    )


@hookimpl
def conclave_register_games():
    return [_game()]


def characters_for(players: int, asked) -> list[str]:
    if asked is None:
        return list(RECOMMENDED[players][0]) if players in RECOMMENDED else list(CHARACTERS[:players])
    if not (isinstance(asked, list) and all(isinstance(c, str) for c in asked)):
        raise BadOption(f"characters must be a list of Character names, one per seat ({players} seats)")
    unknown = [c for c in asked if c not in CHARACTERS]
    if unknown:
        raise BadOption(f"unknown Character {unknown[0][:40]!r}: the Characters are {', '.join(CHARACTERS)}")
    if len(asked) != players:
        raise BadOption(f"characters must name one Character per seat: {players} seats, {len(asked)} named")
    if len(set(asked)) != players:
        raise BadOption("two players cannot share a Character")  # QD-017
    return list(asked)


def check_seat_lists(players: int, options: dict) -> None:
    """`absent` and `defected` list seats of this table, and leave at least 3 players."""
    for name in ("absent", "defected"):
        listed = options.get(name) or []
        if not (isinstance(listed, list) and all(type(s) is int and 0 <= s < players for s in listed)):
            raise BadOption(f"{name} must list seat indexes (0-{players - 1}; 0 is Seat 1)")
    if players - len(set(options.get("absent") or []) | set(options.get("defected") or [])) < 3:
        raise BadOption("at least 3 players must be present")


def new_campaign(players: int, options: dict, modules: list[str]) -> Campaign:
    if not 3 <= players <= 6:
        raise BadOption("The Queen's Dilemma is played by 3 to 6 players")
    check_seat_lists(players, options)
    box = default_box()
    chars = characters_for(players, options.get("characters"))
    return Campaign(players=players, diaries=[Diary(seat=i, character=c) for i, c in enumerate(chars)],
                    ongoing_pool=sorted(a.code for a in box.agendas.values() if a.kind == "ongoing"),
                    modules=sorted(modules))


@hookimpl
def conclave_table_warnings(game, players, options, modules):
    """QD-027: with 3 or 4 players, a Character set off the recommended list is allowed but
    may leave the Ideologies unbalanced."""
    chars = options.get("characters")
    if game != GAME_ID or players not in RECOMMENDED or not isinstance(chars, list):
        return None
    if sorted(chars) not in [sorted(s) for s in RECOMMENDED[players]]:
        return [f"{', '.join(chars)} is not a recommended {players}-player set: the Ideologies may be unbalanced "
                f"(recommended: {'; '.join(', '.join(s) for s in RECOMMENDED[players])})"]
    return None


@hookimpl
def conclave_initial_state(game, seats, seed, options, modules):
    absent = options.get("absent") or []
    check_seat_lists(len(seats), options)
    return QDState(game=game, seats=seats, seed=seed, options=options, modules=modules,
                   campaign=new_campaign(len(seats), options, modules),
                   councilors=[Player(seat=i, absent=i in absent) for i in range(len(seats))])


# Each table's plugin manager holds its own game and enabled modules only
# (`core.plugins.Registry.rules_for`), so the hooks below need not ask which game a state is
# of; only `conclave_table_warnings` runs on the registry's manager of every game.
@hookimpl(tryfirst=True)
def conclave_setup(ctx):
    ctx.push(rounds.setup)


@hookimpl
def conclave_step_handlers():
    return {**effect_steps, **rounds.steps, **ending.steps, **voting.steps, **economy.steps}


@hookimpl
def conclave_decisions():
    return {**voting.decisions, **economy.decisions}


@hookimpl
def conclave_skip_seat(ctx, seat, skipped):
    """A table that skips away seats: the councilor leaves, or comes back (absence.py)."""
    if skipped:
        return absence.leave(ctx, seat)
    absence.back(ctx, seat)
    return True


@hookimpl
def qd_pass_options(state, seat, kind):
    return card_actions(state, seat, kind)


@hookimpl
def qd_passed(ctx, seat, params):
    steps = []
    player = ctx.state.councilors[seat]
    if params.get("action") == "gather" and player.heraldry:  # QD-151: a Heraldry token on Aontas
        player.heraldry -= 1
        ctx.state.aontas.append(seat)
    if params.get("action") == "card":
        steps.append((rounds.card_action, {"seat": seat, "source": params["source"]}))
    steps.append((rounds.offer_bonus, {"seat": seat}))
    ctx.push_all(steps)


@hookimpl
def qd_payment_made(ctx, seats):
    """A Pass Bonus offer follows the Treasury: offered again as it stands now (none, when no
    bonus is affordable any more). A forced payment is a typed decision and needs nothing."""
    for p in [p for p in ctx.state.prompts if p.seat in seats and p.kind == "pass_bonus"]:
        ctx.state.prompts.remove(p)
        ctx.push(rounds.offer_bonus, seat=p.seat)


# -- campaigns --------------------------------------------------------------------------------
@hookimpl
def conclave_campaign_new(game, seats, options):
    # modules are set by the first game's table (conclave_campaign_begin, QD-067)
    return msgspec.to_builtins(new_campaign(len(seats), options, []))


@hookimpl
def conclave_campaign_begin(ctx, campaign):
    state: QDState = ctx.state
    saved = msgspec.convert(campaign, Campaign)
    if saved.players != len(state.seats):
        raise BadOption(f"this campaign has {saved.players} players; a table of {len(state.seats)} cannot join it")  # QD-130
    if sorted(state.modules) != saved.modules:
        if saved.regions_chosen:  # QD-067: Age of Disorder only at the one-time setup
            raise IncompatibleModules(f"modules are chosen when a campaign starts: this campaign plays "
                                      f"{saved.modules or 'no modules'}, not {sorted(state.modules)}")
        saved.modules = sorted(state.modules)
    state.campaign = saved


@hookimpl
def conclave_campaign_save(state, campaign):
    campaign.clear()
    campaign.update(msgspec.to_builtins(state.campaign))


@hookimpl
def conclave_campaign_standings(game, campaign):
    c = msgspec.convert(campaign, Campaign)
    rows = ending.standings(c)
    for row, final in zip(rows, c.final or [None] * len(rows)):
        if final:
            row["final"] = final["total"]
            row["rank"] = final["rank"]
    return rows


@hookimpl
def conclave_campaign_over(game, campaign):
    return bool(campaign.get("finale_played"))


@hookimpl
def conclave_view(state, viewer, view):
    redact(state, viewer, view)


@hookimpl
def conclave_glossary(state, viewer, view):
    return glossary(state, viewer, view)


@hookimpl
def conclave_graphql_types():
    from plugins.queens_dilemma.graphql import QueensDilemmaState, from_view

    return [(GAME_ID, QueensDilemmaState, from_view)]


@hookimpl
def conclave_check_invariants(state):
    return invariant_errors(state)

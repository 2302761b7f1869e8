"""Saved mid-game Queen's Dilemma tables, recorded from an earlier release, and how a seeded
bot finishes each one. A live table saved before a state-format change must still load
(`GameSpec.load_snapshot` migrates it) and play on to the very same end.

    python -m tests.queens_dilemma.snapshots --record   # only ever from the release that saved them

Each snapshot is the store's msgpack bytes (`core.state.encode_msgpack`) of a bot game
stopped at a named point; `continue_bot` plays it to the end with `RandomBot(CONTINUE_SEED)`.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from core import default_registry
from core.bot import RandomBot
from core.engine import Table, create_table
from core.state import encode_msgpack

DATA = Path(__file__).parent / "data"
RESULTS = DATA / "snapshots.json"
CONTINUE_SEED = 777
GAME = "queens-dilemma"


def _voting_with_payments(state) -> bool:
    return any(p.kind == "vote" for p in state.prompts) and any(p.kind == "payment" for p in state.prompts)


def mid_vote(state, round_: int = 2, decided: int = 3) -> bool:
    """A vote prompt open, bargaining open, in round `round_` with `decided` tiles chosen."""
    return (_voting_with_payments(state) and state.round == round_ and state.vote is not None
            and sum(1 for t in state.vote.tiles if t.side) == decided)


def has_prompt(kind: str):
    return lambda state: any(p.kind == kind for p in state.prompts)


# name -> (players, seed, modules, stop condition)
POINTS = {
    "vote6": (6, 5003, [], mid_vote),
    "vote4_aod": (4, 5005, ["age-of-disorder"], lambda s: mid_vote(s, round_=3, decided=2)),
    "bonus5_aod": (5, 5011, ["age-of-disorder"], has_prompt("pass_bonus")),
    "forced3": (3, 5016, [], has_prompt("forced_payment")),
    "region3": (3, 5020, [], has_prompt("region")),
    "agenda6_aod": (6, 5027, ["age-of-disorder"], has_prompt("agenda")),
}


def play_to(players: int, seed: int, modules: list[str], stop, max_actions: int = 20_000) -> Table:
    """A seeded bot game (the fingerprint games' bot: `RandomBot(seed)`) stopped where `stop` holds."""
    table = create_table(GAME, players, seed=seed, modules=modules)
    bot = RandomBot(seed)
    for _ in range(max_actions):
        if stop(table.state):
            return table
        if table.state.finished:
            break
        table.act(*bot.choose(table))
    raise AssertionError(f"{players}p seed {seed}: the stop point never came")


def continue_bot(table: Table) -> dict:
    """Play on with `RandomBot(CONTINUE_SEED)` to the end: the result and the action count."""
    bot = RandomBot(CONTINUE_SEED)
    actions = 0
    while not table.state.finished:
        table.act(*bot.choose(table))
        actions += 1
    return {"actions": actions, "result": json.loads(json.dumps(table.state.result))}


def load(name: str) -> Table:
    """A recorded snapshot, loaded as the store loads a table (its game's `load_snapshot`)."""
    data = (DATA / f"{name}.msgpack").read_bytes()
    players, seed, modules, _ = POINTS[name]
    rules = default_registry().rules_for(GAME, modules)
    state, _migrated = rules.game.load_snapshot(data)
    return Table(rules=rules, state=state)


def record() -> None:
    results = {}
    for name, (players, seed, modules, stop) in POINTS.items():
        table = play_to(players, seed, modules, stop)
        (DATA / f"{name}.msgpack").write_bytes(encode_msgpack(table.state))
        results[name] = {"players": players, "seed": seed, "modules": modules, "version": table.state.version,
                         **continue_bot(table)}
        print(name, results[name]["version"], results[name]["actions"], len(encode_msgpack(table.state)))
    RESULTS.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true")
    if parser.parse_args().record:
        record()

"""Engine speed: full 4-player New Capital games and full 3-player Arcs games with random
bots, in the same run (a script, not a test).

Prints, per game, the median time of a whole game and actions per second, and a
same-process baseline: the cost of the state copy `apply` makes per action, so a reader can
see how much of an action is bookkeeping and how much is rules.

    python benchmarks/engine.py [--games 200] [--players 4] [--arcs-players 3]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.bot import RandomBot  # noqa: E402
from core.engine import create_table  # noqa: E402
from core.state import copy_state  # noqa: E402


def one_game(players: int, seed: int, game: str = "new-capital") -> tuple[float, int, list]:
    table = create_table(game, players, seed=seed)
    bot = RandomBot(seed)
    choices = []
    while not table.state.finished:  # bot choices are made outside the timed region
        seat, action = bot.choose(table)
        choices.append((seat, action))
        table.act(seat, action)
    # time the replay of the same actions: pure engine time, no bot
    t0 = time.perf_counter()
    table = create_table(game, players, seed=seed)
    for seat, action in choices:
        table.act(seat, action)
    return time.perf_counter() - t0, len(choices), [table.state]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--arcs-players", type=int, default=3)
    args = ap.parse_args()
    run("new-capital", args.players, args.games)
    run("arcs", args.arcs_players, args.games)


def run(game: str, players: int, games: int) -> None:
    times, actions, states = [], 0, []
    for seed in range(games):
        t, n, st = one_game(players, seed, game)
        times.append(t)
        actions += n
        states.extend(st)
    total = sum(times)
    # baseline: one state copy per action, on end-of-game states (the largest)
    t0 = time.perf_counter()
    for s in states:
        for _ in range(100):
            copy_state(s)
    copy_us = (time.perf_counter() - t0) / (100 * len(states)) * 1e6
    per_action_us = total / actions * 1e6
    print(f"{game}: {games} games x {players} players, {actions} actions")
    print(f"median game: {statistics.median(times) * 1000:.2f} ms "
          f"(p90 {sorted(times)[int(0.9 * len(times))] * 1000:.2f} ms)")
    print(f"actions per second: {actions / total:,.0f} ({per_action_us:.1f} us per action)")
    print(f"baseline state copy: {copy_us:.1f} us = {copy_us / per_action_us:.0%} of an action")



if __name__ == "__main__":
    main()

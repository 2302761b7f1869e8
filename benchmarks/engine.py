"""Engine speed: full 4-player New Capital games and full 3-player Arcs games with random
bots, in the same run (a script, not a test).

Prints the median time of a whole game, actions per second, and a same-process baseline:
the cost of the state copy `apply` makes per action, so a reader can see how much of an
action is bookkeeping and how much is rules.

With `--baseline DIR` (another checkout, e.g. `git worktree add /tmp/base <commit>`) the
same measurement runs on that code and on this one, each in its own process with its
checkout first on the path, alternating `--repeat` times so both see the same machine
load; it prints both and the ratio (this code's time over the baseline's).

    python benchmarks/engine.py [--games 200] [--players 4] [--arcs-players 3]
    python benchmarks/engine.py --baseline /tmp/base [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def one_game(players: int, seed: int, game: str = "new-capital") -> tuple[float, float, int, list]:
    from core.bot import RandomBot
    from core.engine import create_table

    table = create_table(game, players, seed=seed)
    bot = RandomBot(seed)
    choices = []
    while not table.state.finished:  # bot choices are made outside the timed region
        seat, action = bot.choose(table)
        choices.append((seat, action))
        table.act(seat, action)
    # time the replay of the same actions: pure engine time, no bot
    t0, c0 = time.perf_counter(), time.process_time()
    table = create_table(game, players, seed=seed)
    for seat, action in choices:
        table.act(seat, action)
    return time.perf_counter() - t0, time.process_time() - c0, len(choices), [table.state]


def measure(games: int, players: int, game: str = "new-capital") -> dict:
    import core
    from core.state import copy_state

    times, cpu, actions, states = [], 0.0, 0, []
    for seed in range(games):
        t, c, n, st = one_game(players, seed, game)
        times.append(t)
        cpu += c
        actions += n
        states.extend(st)
    total = sum(times)
    # baseline: one state copy per action, on end-of-game states (the largest)
    t0 = time.perf_counter()
    for s in states:
        for _ in range(100):
            copy_state(s)
    copy_us = (time.perf_counter() - t0) / (100 * len(states)) * 1e6
    return {"code": str(Path(core.__file__).resolve().parent.parent), "game": game, "games": games, "players": players,
            "actions": actions, "total_s": total, "cpu_s": cpu, "median_ms": statistics.median(times) * 1000,
            "p90_ms": sorted(times)[int(0.9 * len(times))] * 1000, "per_action_us": total / actions * 1e6,
            "copy_us": copy_us}


def report(m: dict) -> None:
    print(f"{m['game']}: {m['games']} games x {m['players']} players, {m['actions']} actions ({m['code']})")
    print(f"median game: {m['median_ms']:.2f} ms (p90 {m['p90_ms']:.2f} ms)")
    print(f"actions per second: {m['actions'] / m['total_s']:,.0f} ({m['per_action_us']:.1f} us per action)")
    print(f"baseline state copy: {m['copy_us']:.1f} us = {m['copy_us'] / m['per_action_us']:.0%} of an action")


def in_process(root: Path, games: int, players: int) -> dict:
    """One measurement in a fresh interpreter with `root`'s code first on the path."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--root", str(root), "--json",
                          "--games", str(games), "--players", str(players)],
                         cwd=root, env=env, check=True, capture_output=True, text=True).stdout
    m = json.loads(out)
    if Path(m["code"]) != root.resolve():
        raise SystemExit(f"measured the code in {m['code']}, not {root}")
    return m


def compare(baseline: Path, games: int, players: int, repeat: int) -> None:
    runs: dict[str, list[dict]] = {"baseline": [], "this": []}
    for _ in range(repeat):  # alternate, so both see the same machine load
        runs["baseline"].append(in_process(baseline, games, players))
        runs["this"].append(in_process(HERE, games, players))
    # CPU time of the engine (the machine may be shared: waiting for a core is not the engine's)
    med = {k: statistics.median(m["cpu_s"] for m in v) for k, v in runs.items()}
    low = {k: min(m["cpu_s"] for m in v) for k, v in runs.items()}
    for k in ("baseline", "this"):
        best = min(runs[k], key=lambda m: abs(m["cpu_s"] - med[k]))
        each = ", ".join(f"{m['cpu_s']:.3f}" for m in runs[k])
        print(f"-- {k}: engine CPU time, median of {repeat} runs {med[k]:.3f} s (runs: {each})")
        report(best)
    if runs["baseline"][0]["actions"] != runs["this"][0]["actions"]:
        print("note: the two codes played different numbers of actions")
    print(f"ratio this / baseline, engine CPU time: median {med['this'] / med['baseline']:.3f}, "
          f"best run {low['this'] / low['baseline']:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--arcs-players", type=int, default=3, help="without --baseline: Arcs games are measured too")
    ap.add_argument("--baseline", type=Path, help="another checkout to measure against, in a subprocess")
    ap.add_argument("--repeat", type=int, default=3, help="with --baseline: measurements of each, alternating")
    ap.add_argument("--root", type=Path, help=argparse.SUPPRESS)  # the checkout to import (subprocess use)
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.baseline is not None:
        compare(args.baseline.resolve(), args.games, args.players, args.repeat)
        return
    sys.path.insert(0, str(args.root or HERE))
    m = measure(args.games, args.players)
    if args.json:  # the subprocess of a --baseline comparison: New Capital only
        print(json.dumps(m))
        return
    report(m)
    print()
    report(measure(args.games, args.arcs_players, "arcs"))


if __name__ == "__main__":
    main()

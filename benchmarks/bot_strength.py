"""Bot strength: the search bot (core/search_bot.py) against random bots, in whole games
(a script, not a test; the issue's bar: issue 21).

One search bot and random bots at each table, the search bot's seat rotated game by game;
two-player New Capital and three-player Arcs. Prints per game set the search bot's win
rate (a shared win counts), New Capital's seal-victory rate (the game ended on the
scenario's seal target, not on the crisis deck), and the CPU milliseconds of the search
bot's decisions (mean, 95th percentile, max; a decision with one legal action is counted:
it costs nothing). Seeds are fixed: game i plays table seed `seed + i`.

    nice python benchmarks/bot_strength.py [--games 200] [--budget-ms 50] [--scenario learning]
    python benchmarks/bot_strength.py --games 20 --only arcs --json

On a busy machine one run may be split in parts: `--first 0 --games 50`, `--first 50
--games 50`, ... each with `--json` into its own file, then `--merge FILE...` prints the
whole run (the same games as one run: game i is game i wherever it is played).
"""
from __future__ import annotations

import argparse
import json
import statistics
import time


class Timed:
    """A bot whose decisions are timed in CPU seconds."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.cpu: list[float] = []

    def decide(self, rules, state, seat):
        t0 = time.process_time()
        action = self.bot.decide(rules, state, seat)
        self.cpu.append(time.process_time() - t0)
        return action


def run(game: str, players: int, games: int, seed: int, budget_ms: float, options: dict | None,
        progress: bool, first: int = 0) -> dict:
    from core.bot import RandomBot, play_match
    from core.search_bot import Budget, SearchBot

    wins = seal_wins = seal_games = 0
    cpu: list[float] = []
    actions = 0
    started = time.perf_counter()
    for i in range(first, first + games):
        me = i % players
        bots: list = [RandomBot(seed * 7919 + 10 * i + s) for s in range(players)]
        search = Timed(SearchBot(seed + i, Budget(cpu_ms=budget_ms)))
        bots[me] = search
        table = play_match(game, bots, seed=seed + i, options=options)
        result = table.state.result or {}
        won = me in result.get("winners", [])
        wins += won
        if game == "new-capital" and result.get("reason") == "seals":
            seal_games += 1
            seal_wins += won
        cpu.extend(search.cpu)
        actions += table.state.version
        if progress:
            print(f"  {game} game {i + 1}/{first + games}: seat {me + 1} {'won' if won else 'lost'} "
                  f"({result.get('reason') or 'power'})", flush=True)
    return summary({"game": game, "players": players, "games": games, "options": options or {},
                    "budget_ms": budget_ms, "wins": wins, "seal_games": seal_games, "seal_wins": seal_wins,
                    "actions": actions, "seconds": time.perf_counter() - started,
                    "cpu_ms": [round(1000 * c, 3) for c in cpu]})


def summary(raw: dict) -> dict:
    """The printed numbers of a run (or of its merged parts), with the raw counts kept for `--merge`."""
    cpu = sorted(raw["cpu_ms"])
    games = raw["games"]
    out = dict(raw)
    out.update({
        "search_win_rate": round(raw["wins"] / games, 3),
        "decisions": len(cpu),
        "cpu_ms_mean": round(statistics.fmean(cpu), 2),
        "cpu_ms_p95": round(cpu[int(0.95 * (len(cpu) - 1))], 2),
        "cpu_ms_max": round(cpu[-1], 2),
        "mean_actions_per_game": round(raw["actions"] / games, 1),
        "seconds": round(raw["seconds"], 1),
    })
    if raw["game"] == "new-capital":
        out["seal_victory_rate"] = round(raw["seal_games"] / games, 3)
        out["seal_victories_won_by_search"] = raw["seal_wins"]
    return out


def merged(paths: list[str]) -> list[dict]:
    """Parts of runs (one JSON object a line) summed per game set."""
    sums: dict[tuple, dict] = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                if not line.startswith("{"):
                    continue
                part = json.loads(line)
                key = (part["game"], part["players"], json.dumps(part["options"]), part["budget_ms"])
                whole = sums.setdefault(key, {k: part[k] for k in ("game", "players", "options", "budget_ms")}
                                        | {"games": 0, "wins": 0, "seal_games": 0, "seal_wins": 0, "actions": 0,
                                           "seconds": 0.0, "cpu_ms": []})
                for k in ("games", "wins", "seal_games", "seal_wins", "actions", "seconds", "cpu_ms"):
                    whole[k] += part[k]
    return [summary(raw) for raw in sums.values()]


def report(out: dict) -> None:
    print(f"{out['game']}, {out['players']} players {out['options'] or ''}: search bot won "
          f"{out['search_win_rate']:.1%} of {out['games']} games", flush=True)
    if "seal_victory_rate" in out:
        print(f"  seal victory in {out['seal_victory_rate']:.1%} of the games "
              f"({out['seal_victories_won_by_search']} won by the search bot)")
    print(f"  CPU per decision: mean {out['cpu_ms_mean']} ms, p95 {out['cpu_ms_p95']} ms, "
          f"max {out['cpu_ms_max']} ms over {out['decisions']} decisions (budget {out['budget_ms']:g} ms)")
    print(f"  {out['mean_actions_per_game']} actions a game, {out['seconds']} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="index of the first game (a part of a run)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=50.0, help="CPU ms per search decision")
    parser.add_argument("--scenario", default=None, help="New Capital scenario (default: the game's own)")
    parser.add_argument("--only", choices=("new-capital", "arcs"), default=None)
    parser.add_argument("--json", action="store_true", help="one JSON object per game set")
    parser.add_argument("--progress", action="store_true")
    parser.add_argument("--merge", nargs="+", metavar="FILE", help="print the parts these --json files hold")
    args = parser.parse_args()
    if args.merge:
        for out in merged(args.merge):
            report(out) if not args.json else print(json.dumps({k: v for k, v in out.items() if k != "cpu_ms"}))
        return
    sets = [("new-capital", 2, {"scenario": args.scenario} if args.scenario else None), ("arcs", 3, None)]
    for game, players, options in sets:
        if args.only and game != args.only:
            continue
        out = run(game, players, args.games, args.seed, args.budget_ms, options, args.progress, args.first)
        if args.json:
            print(json.dumps(out), flush=True)
        else:
            report(out)


if __name__ == "__main__":
    main()

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
        progress: bool) -> dict:
    from core.bot import RandomBot, play_match
    from core.search_bot import Budget, SearchBot

    wins = seal_wins = seal_games = 0
    cpu: list[float] = []
    actions = 0
    started = time.perf_counter()
    for i in range(games):
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
            print(f"  {game} game {i + 1}/{games}: seat {me + 1} {'won' if won else 'lost'} "
                  f"({result.get('reason') or 'power'})", flush=True)
    cpu.sort()
    out = {
        "game": game, "players": players, "games": games, "options": options or {},
        "budget_ms": budget_ms,
        "search_win_rate": round(wins / games, 3),
        "decisions": len(cpu),
        "cpu_ms_mean": round(1000 * statistics.fmean(cpu), 2),
        "cpu_ms_p95": round(1000 * cpu[int(0.95 * (len(cpu) - 1))], 2),
        "cpu_ms_max": round(1000 * cpu[-1], 2),
        "mean_actions_per_game": round(actions / games, 1),
        "seconds": round(time.perf_counter() - started, 1),
    }
    if game == "new-capital":
        out["seal_victory_rate"] = round(seal_games / games, 3)
        out["seal_victories_won_by_search"] = seal_wins
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=50.0, help="CPU ms per search decision")
    parser.add_argument("--scenario", default=None, help="New Capital scenario (default: the game's own)")
    parser.add_argument("--only", choices=("new-capital", "arcs"), default=None)
    parser.add_argument("--json", action="store_true", help="one JSON object per game set")
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args()
    sets = [("new-capital", 2, {"scenario": args.scenario} if args.scenario else None), ("arcs", 3, None)]
    for game, players, options in sets:
        if args.only and game != args.only:
            continue
        out = run(game, players, args.games, args.seed, args.budget_ms, options, args.progress)
        if args.json:
            print(json.dumps(out), flush=True)
            continue
        print(f"{game}, {players} players {options or ''}: search bot won {out['search_win_rate']:.1%} "
              f"of {args.games} games", flush=True)
        if "seal_victory_rate" in out:
            print(f"  seal victory in {out['seal_victory_rate']:.1%} of the games "
                  f"({out['seal_victories_won_by_search']} won by the search bot)")
        print(f"  CPU per decision: mean {out['cpu_ms_mean']} ms, p95 {out['cpu_ms_p95']} ms, "
              f"max {out['cpu_ms_max']} ms over {out['decisions']} decisions (budget {args.budget_ms:g} ms)")
        print(f"  {out['mean_actions_per_game']} actions a game, {out['seconds']} s", flush=True)


if __name__ == "__main__":
    main()

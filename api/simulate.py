"""Headless bot games in bulk: the engine behind `conclave simulate` and the benchmarks."""
from __future__ import annotations

import time
import traceback
from collections import Counter
from typing import Callable

from core.bot import play_campaign, play_game


def simulate(
    game: str,
    players: int,
    games: int,
    seed: int,
    modules: list[str] | None = None,
    options: dict | None = None,
    check_invariants: bool = True,
    progress: Callable[[], None] | None = None,
    campaigns: int = 0,
    check_hidden: bool = True,
) -> dict:
    """Play `games` bot games with seeds seed, seed+1, ...; return the summary `--json` prints.
    After every action the invariants hold and (`check_hidden`) no seat nor a spectator sees
    what its game hides (`core.secrets`); a breach is an error of its game. A bad configuration (unknown game, module, player count) raises before any game."""
    from core import default_registry

    default_registry().check_table(game, list(modules or []), players, dict(options or {}))
    winners: Counter[str] = Counter()
    errors: list[dict] = []
    actions = completed = 0
    durations: list[float] = []
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        t0 = time.perf_counter()
        try:
            played = play_game(game, players, game_seed, modules=modules, options=options,
                               check_invariants=check_invariants, check_hidden=check_hidden)
        except Exception as exc:  # a crash in one game is reported, not fatal to the run
            errors.append({"seed": game_seed, "error": f"{type(exc).__name__}: {exc}",
                           "where": traceback.format_exc(limit=-3)})
        else:
            durations.append(time.perf_counter() - t0)
            actions += played.actions
            if played.invariant_errors:
                errors.append({"seed": game_seed, "error": "invariant", "details": played.invariant_errors[:5]})
            else:
                completed += 1
                for seat in played.table.state.result.get("winners", []):
                    winners[str(seat)] += 1
        if progress:
            progress()
    whole = _campaigns(game, players, seed, modules, options, check_invariants, campaigns, errors, progress,
                       check_hidden)
    seconds = time.perf_counter() - started
    durations.sort()
    if not games and campaigns:  # a campaigns-only run: its headline numbers are the campaigns'
        completed, actions, winners = whole["campaigns_completed"], whole["campaign_actions"], \
            Counter(whole["campaign_winners"])
    return {
        "game": game,
        "players": players,
        "modules": sorted(modules or []),
        "seed": seed,
        "games": games,
        "completed": completed,
        "errors": len(errors),
        "error_details": errors[:10],
        "actions": actions,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds else None,
        "mean_actions_per_game": round(actions / max(1, len(durations)), 1),
        "median_game_ms": round(1000 * durations[len(durations) // 2], 2) if durations else None,
        "winners": dict(sorted(winners.items())),
        "invariants_checked": check_invariants,
        "hidden_checked": check_hidden,
        **whole,
    }


def _campaigns(game, players, seed, modules, options, check_invariants, count, errors, progress,
               check_hidden=True) -> dict:
    """Whole campaigns (seeds seed, seed+1, ...), each game saved and read back in turn."""
    if not count:
        return {}
    from core import default_registry

    hook = default_registry().rules_for(game, list(modules or [])).hook
    done, games, lengths, actions, winners = 0, 0, [], 0, Counter()
    stats: dict[str, Counter] = {}
    for k in range(count):
        try:
            played = play_campaign(game, players, seed + k, modules=modules, options=options,
                                   check_invariants=check_invariants, check_hidden=check_hidden)
        except Exception as exc:
            errors.append({"campaign_seed": seed + k, "error": f"{type(exc).__name__}: {exc}",
                           "where": traceback.format_exc(limit=-3)})
        else:
            bad = [e for g in played.games for e in g.invariant_errors]
            if bad:
                errors.append({"campaign_seed": seed + k, "error": "invariant", "details": bad[:5]})
            else:
                done += 1
                for seat in played.games[-1].table.state.result.get("winners", []):
                    winners[str(seat)] += 1
                for found in hook.conclave_campaign_stats(game=game, campaign=played.campaign):
                    for name, counts in (found or {}).items():
                        stats.setdefault(name, Counter()).update(counts)
            games += len(played.games)
            actions += sum(g.actions for g in played.games)
            lengths.append(len(played.games))
        if progress:
            progress()
    return {"campaigns": count, "campaigns_completed": done, "campaign_games": games,
            "acts": games, "campaign_actions": actions, "campaign_winners": dict(sorted(winners.items())),
            "games_per_campaign": sorted(lengths),  # their errors are in the run's `errors`
            **{name: dict(sorted(counts.items())) for name, counts in sorted(stats.items())}}

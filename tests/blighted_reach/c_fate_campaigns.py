"""Whole bot campaigns in which seats take the C Fates built so far (the Overlord, the
Redeemer, the Guardian) at Act II's Intermission: random bots play every Act through the
engine, the invariants and the hidden information are checked after every action, and Act II's Fate choice is arranged
(the box's offer, `later_fates: box`, with the draw rewritten so that the forced seats are
offered their C Fate and every other seat a Fate it can play: its own A Fate if it
completed its objective, else another built C Fate; the seats beyond what the built C
Fates can serve have their Act II objective completed, their marker put on 0 in the Act's
last chapter).

`python -m tests.blighted_reach.c_fate_campaigns P SEED COUNT [MODULES [FATES]]` (comma
lists, e.g. `flagships FATE24`) prints one JSON line per campaign and a summary."""
from __future__ import annotations

import copy
import json
import sys
import time

from core.bot import RandomBot
from core.engine import create_table
from core.state import Action
from plugins.blighted_reach import plugin  # noqa: F401 (the rules registered)
from tests.blighted_reach.flow_helpers import GAME, PlainFateBot

from plugins.blighted_reach.content import default_box

# The C Fates whose every card is built (their Fate's `effects_complete`).
C_FATES = tuple(f.id for f in default_box().fates_by_letter("C") if f.effects_complete)


class NotArranged(Exception):
    """More seats failed Act II than there are built C Fates to give them."""


def _invariants(t, actions: int) -> list[str]:
    return [f"act {t.state.act}, action {actions}: {p}"
            for found in t.rules.hook.conclave_check_invariants(state=t.state) for p in found]


def _force_c_fates(t, forced: dict[int, str]) -> bool:
    """At Act II's Fate choice: rewrite each open choice (offer and prompt) to the Fate the
    seat must take, then answer it. True when it answered one."""
    s = t.state
    prompt = next((p for p in s.prompts if p.kind == "choose_fate"), None)
    if prompt is None or s.act != 2:
        return False
    seat = prompt.seat
    fate = forced.get(seat)
    if fate is None:
        if s.fate_results[seat] == "completed":
            fate = s.fates[seat]
        else:
            taken = set(forced.values()) | {f for f in s.fate_picks if f}
            fate = next((f for f in C_FATES if f not in taken), None)
            if fate is None:
                raise NotArranged(f"seat {seat} failed its objective and no built C Fate is left for it")
            forced[seat] = fate
    spare = next(f for f in [*s.fate_offers[seat], *C_FATES] if f != fate)
    s.fate_offers[seat] = [fate, spare]  # two candidates still (the offer's shape)
    prompt.options = [Action("choose_fate", {"fate": fate})]
    t.act(seat, prompt.options[0])
    return True


def _others_complete(t, forced: dict[int, str], spare: int) -> None:
    """Act II's last chapter: the seats beyond what the built C Fates can serve have their
    objective completed (the marker put on 0), so they keep their A Fate."""
    s = t.state
    if s.act != 2 or s.chapter < 3 or len(s.objective_markers) != len(s.players):
        return
    others = [seat for seat in range(len(s.players)) if seat not in forced]
    for seat in others[spare:]:
        s.objective_markers[seat] = 0


def play_act(t, bot, forced: dict[int, str], errors: list[str], max_actions: int = 20_000) -> int:
    """One Act to its end; after every action the invariants and the hidden information (no
    viewer sees what the game hides from it, `core.secrets`) are checked into `errors`."""
    from core.secrets import HiddenCheck

    actions = 0
    spare = len([f for f in C_FATES if f not in forced.values()])
    hidden = HiddenCheck(t)
    while not t.state.finished:
        _others_complete(t, forced, spare)
        if not _force_c_fates(t, forced):
            seat, action = bot.choose(t)
            t.act(seat, action)
        actions += 1
        errors.extend(_invariants(t, actions))
        errors.extend(f"act {t.state.act}, action {actions}: {leak}" for leak in hidden(t))
        assert actions < max_actions, "the Act did not end"
    return actions


def play_c_campaign(players: int, seed: int, forced: dict[int, str], modules: tuple[str, ...] = ()) -> dict:
    """One campaign: Act I with A Fates, Act II's Intermission offering the box's C Fates
    (the forced seats taking theirs), Act III to the campaign's winner; `modules` on every Act
    (e.g. the flagships)."""
    from core.plugins import default_registry
    from core.state import Seat

    forced = dict(forced)
    errors: list[str] = []
    rules = default_registry().rules_for(GAME, list(modules))
    campaign = rules.hook.conclave_campaign_new(game=GAME, seats=[Seat(index=i) for i in range(players)], options={})
    acts, fates = [], []
    started = time.perf_counter()
    for act in (1, 2, 3):
        table_seed = seed * 1000 + act
        options = {"later_fates": "box"} if act == 2 else None
        t = create_table(GAME, players, seed=table_seed, modules=list(modules), options=options,
                         campaign=copy.deepcopy(campaign))
        bot = PlainFateBot(table_seed) if act == 1 else RandomBot(table_seed)
        acts.append(play_act(t, bot, forced, errors))
        fates.append(list(t.state.fates))
        rules.hook.conclave_campaign_save(state=t.state, campaign=campaign)
    s = t.state
    winner = (s.result or {}).get("campaign_winner")
    by_objective = winner is not None and s.fates[winner] in C_FATES and s.objective_markers[winner] == 0
    return {"players": players, "seed": seed, "actions": acts, "errors": errors, "act_three_fates": fates[-1],
            "winner": winner, "final_objective_win": by_objective, "chapter": s.chapter,
            "markers": list(s.objective_markers), "seconds": round(time.perf_counter() - started, 1)}


def arranged_campaign(players: int, seed: int, forced: dict[int, str], tries: int = 60,
                      modules: tuple[str, ...] = ()) -> dict:
    """`play_c_campaign` from the first seed (from `seed`) whose Act II can be arranged."""
    for attempt in range(seed, seed + tries):
        try:
            return play_c_campaign(players, attempt, forced, modules)
        except NotArranged:
            continue
    raise NotArranged(f"no seed in {seed}..{seed + tries - 1} could be arranged")


def main(argv: list[str]) -> None:
    players, seed, count = (int(a) for a in argv[:3])
    modules = tuple(argv[3].split(",")) if len(argv) > 3 else ()
    only = [f for f in C_FATES if f in argv[4].split(",")] if len(argv) > 4 else list(C_FATES)
    runs, skipped, i = [], 0, 0
    while len(runs) < count:
        fate = only[len(runs) % len(only)]
        try:
            run = play_c_campaign(players, seed + i, {len(runs) % players: fate}, modules)
        except NotArranged:
            skipped += 1
        else:
            runs.append(run)
            print(json.dumps(run))
        i += 1
    taken = {f: sum(f in r["act_three_fates"] for r in runs) for f in C_FATES}
    print(json.dumps({"players": players, "campaigns": count, "seeds_skipped": skipped, "completed": sum(r["winner"] is not None for r in runs),
                      "errors": sum(len(r["errors"]) for r in runs), "taken": taken,
                      "final_objective_wins": sum(bool(r["final_objective_win"]) for r in runs),
                      "actions": sum(sum(r["actions"]) for r in runs)}))


if __name__ == "__main__":
    main(sys.argv[1:])

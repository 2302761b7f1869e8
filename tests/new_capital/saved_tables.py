"""Live New Capital tables saved by an earlier release, and where a bot takes them.

Each fixture is a mid-game snapshot, the msgpack bytes exactly as `core.state.encode_msgpack`
wrote them, taken where the pending steps hold the round's loops (a turn, the Extra Action
round, the burn, the bids, the bribes, a Dilemma vote...). With it is stored what a seeded
`RandomBot` reached when it played on from there with the code that saved it: the result
and the number of actions. tests/new_capital/test_saved_tables.py loads each one through
`GameSpec.load_snapshot` and checks the same bot reaches the same end.

    python -m tests.new_capital.saved_tables --record   # only with the release that saves them
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from core.bot import RandomBot
from core.engine import Table, create_table
from core.plugins import default_registry
from core.state import copy_state, encode_msgpack

DATA = Path(__file__).parent / "data" / "saved_tables"
EXPECTED = DATA / "expected.json"
GAME = "new-capital"
ALL_MODULES = ["dilemmas", "faction-heroes", "guildmasters"]

# (players, seed, modules, probes): the games walked to find the snapshots, and the points
# saved from each (None: every probe)
GAMES = [
    (4, 11, [], None),
    (3, 31, [], ("reveal_effect",)),
    (4, 30, [], ("reoffer",)),
    (3, 12, ALL_MODULES, ("guildmaster", "turn", "extra", "extra_turn", "burn", "bid", "bribe",
                          "dilemma_vote", "dilemma_reinforce", "reset")),
    (2, 13, ["dilemmas"], ("dilemma_vote", "dilemma_reinforce", "bid", "extra_turn")),
    (2, 14, ["guildmasters", "faction-heroes"], ("guildmaster", "turn", "burn")),
    (1, 15, ["dilemmas", "faction-heroes"], ("dilemma_vote", "dilemma_reinforce", "solo_scout", "turn", "bribe")),
    (1, 16, [], ("draft", "turn", "burn", "crisis_check", "solo_scout")),
]


def _names(state) -> list[str]:
    return [s.name for s in state.stack]


def _kinds(state) -> set[str]:
    return {p.kind for p in state.prompts}


def _arg(state, name: str, key: str) -> int:
    return max((s.args.get(key, -1) for s in state.stack if s.name == name), default=-1)


# what the stack and the open prompts show at a point worth saving (old step names)
PROBES = {
    "draft": lambda st: "draft_leader" in _kinds(st),
    "turn": lambda st: "turn" in _kinds(st) and _arg(st, "nc.turn", "k") < 0 and st.round >= 2 and any(
        p.kind == "turn" and p.args["next_step"][1].get("k", 0) >= 3 for p in st.prompts),
    "reoffer": lambda st: "nc.reoffer" in _names(st),
    "extra": lambda st: "extra_action" in _kinds(st),
    "extra_turn": lambda st: any(p.kind == "turn" and p.args["next_step"][0] == "nc.extra" for p in st.prompts),
    "burn": lambda st: "end_burn" in _kinds(st) and _arg(st, "nc.burn_step", "i") >= 2,
    "burn_effect": lambda st: "burn" in _kinds(st),
    "reveal_effect": lambda st: _arg(st, "nc.bid", "i") == 0 and st.prompts != [],
    "bid": lambda st: bool({"bid_power", "bid_control"} & _kinds(st)) and _arg(st, "nc.bid", "i") >= 2,
    "bribe": lambda st: "bribe" in _kinds(st),
    "crisis_check": lambda st: "nc.check" in _names(st) and st.prompts != [],
    "penalty": lambda st: "nc.penalty" in _names(st) or "nc.reward" in _names(st),
    "reset": lambda st: "nc.reset" in _names(st) and st.prompts != [],
    "guildmaster": lambda st: "guildmaster" in _kinds(st),
    "dilemma_vote": lambda st: "dil.first_pass" in _names(st) and _arg(st, "dil.first_pass", "i") >= 1,
    "dilemma_reinforce": lambda st: "dilemma_reinforce" in _kinds(st),
    "solo_scout": lambda st: len(st.players) == 1 and "scout" in _kinds(st) and "nc.pass_die" in _names(st),
}


def table_from(rules, state) -> Table:
    return Table(rules=rules, state=state)


def play_on(table: Table, bot_seed: int, max_actions: int = 20_000) -> dict:
    """Where a `RandomBot(bot_seed)` takes the table: its result and the actions it took."""
    bot = RandomBot(bot_seed)
    actions = 0
    while not table.state.finished:
        if actions >= max_actions:
            raise AssertionError("a continued game did not end")
        table.act(*bot.choose(table))
        actions += 1
    return {"actions": actions, "result": json.loads(json.dumps(table.state.result))}


def find_snapshots() -> list[tuple[str, dict, bytes]]:
    """(name, spec, snapshot bytes): the first point of each probe in each game walked."""
    found = []
    for players, seed, modules, probes in GAMES:
        table = create_table(GAME, players, seed=seed, modules=modules)
        bot = RandomBot(seed)
        seen = set()
        while not table.state.finished:
            for probe, test in PROBES.items():
                if probe not in seen and (probes is None or probe in probes) and test(table.state):
                    seen.add(probe)
                    name = f"{players}p-{seed}-{probe}"
                    spec = {"players": players, "seed": seed, "modules": modules, "probe": probe,
                            "round": table.state.round, "stack": _names(table.state)}
                    found.append((name, spec, encode_msgpack(table.state)))
            table.act(*bot.choose(table))
    return found


def record() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    registry = default_registry()
    expected = {}
    for name, spec, data in find_snapshots():
        (DATA / f"{name}.msgpack").write_bytes(data)
        rules = registry.rules_for(GAME, spec["modules"])
        from core.state import decode_msgpack

        state = decode_msgpack(data, rules.game.state_type)
        expected[name] = {**spec, "bot_seed": spec["seed"] + 1,
                          **play_on(table_from(rules, copy_state(state)), spec["seed"] + 1)}
    EXPECTED.write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    print(f"recorded {len(expected)} snapshots in {DATA}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true", help="write the snapshots and their ends from this code")
    args = parser.parse_args()
    if args.record:
        record()
    else:
        for name, spec, _ in find_snapshots():
            print(name, spec["stack"][-4:])


if __name__ == "__main__":
    main()

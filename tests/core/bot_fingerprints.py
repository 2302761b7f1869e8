"""A fixed set of seeded bot games and what each one ended with: its result (winners,
scores) and its number of actions. Recorded before a kernel change and checked after it
(tests/core/test_bot_fingerprints.py), it shows the change left every rule as it was:
the bots choose from the legal actions in order, so a changed option list, order or rule
changes the games.

    python -m tests.core.bot_fingerprints --record   # rewrite the stored file from this code
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from core.bot import play_game

STORED = Path(__file__).parent / "data" / "bot_fingerprints.json"
QNC_MODULES = ([], ["guildmasters"], ["faction-heroes"], ["dilemmas"], ["guildmasters", "faction-heroes", "dilemmas"])


def game_set() -> list[dict]:
    """200 New Capital games (1-4 players, module sets rotated; guildmasters needs 2+) and
    200 Queen's Dilemma games (3-6 players, Age of Disorder every other game)."""
    out = []
    for i in range(200):
        players = 1 + i % 4
        modules = [m for m in QNC_MODULES[i % len(QNC_MODULES)] if players > 1 or m != "guildmasters"]
        out.append({"game": "new-capital", "players": players, "seed": 1000 + i, "modules": modules})
    for i in range(200):
        out.append({"game": "queens-dilemma", "players": 3 + i % 4, "seed": 5000 + i,
                    "modules": ["age-of-disorder"] if i % 2 else []})
    return out


def fingerprint(spec: dict) -> dict:
    played = play_game(spec["game"], spec["players"], spec["seed"], modules=spec["modules"])
    return json.loads(json.dumps({**spec, "actions": played.actions, "result": played.table.state.result}))


def stored() -> list[dict]:
    return json.loads(STORED.read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true", help=f"write {STORED.name} from this code")
    args = parser.parse_args()
    prints = [fingerprint(spec) for spec in game_set()]
    if args.record:
        STORED.parent.mkdir(exist_ok=True)
        STORED.write_text(json.dumps(prints, indent=0, sort_keys=True) + "\n")
        print(f"recorded {len(prints)} games in {STORED}")
    else:
        old = {(p["game"], p["seed"]): p for p in stored()}
        changed = [p for p in prints if old.get((p["game"], p["seed"])) != p]
        print(f"{len(prints) - len(changed)} of {len(prints)} games as recorded")


if __name__ == "__main__":
    main()

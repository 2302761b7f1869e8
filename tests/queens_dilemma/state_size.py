"""How big a 6-player Queen's Dilemma state is mid-vote (JSON, `core.state.encode_state`):
the point of typed decisions is that open choices no longer fill the state with options.

    python -m tests.queens_dilemma.state_size

The point measured is snapshot "vote6" (tests/queens_dilemma/snapshots.py): 6 players,
seed 5003, the bot game's round 2 with three tiles chosen, bargaining open to every seat.
"""
from __future__ import annotations

from core.engine import legal_actions
from core.state import encode_state
from tests.queens_dilemma.snapshots import POINTS, play_to

# Measured on commit d61e7cf (before typed decisions) with this module: 20,505 bytes of
# JSON, 198 stored options in 7 open prompts (every one listed complete in the state).
# After (state format 1, voting turns as two prompts): 7,318 bytes, 2 stored options in 8 prompts.
# After (a voting turn one typed prompt, qdv.turn): 7,050 bytes, no stored option in 7 prompts;
# the same 198 answers listed all along.
BEFORE_BYTES = 20_505
BEFORE_OPTIONS = 198


def measure() -> dict:
    players, seed, modules, stop = POINTS["vote6"]
    table = play_to(players, seed, modules, stop)
    state = table.state
    listed = sum(len(legal_actions(state, s, table.rules)) for s in range(players))
    return {"bytes": len(encode_state(state)), "stored_options": sum(len(p.options) for p in state.prompts),
            "prompts": len(state.prompts), "listed_answers": listed}


if __name__ == "__main__":
    print(measure(), "before:", BEFORE_BYTES, "bytes,", BEFORE_OPTIONS, "stored options")

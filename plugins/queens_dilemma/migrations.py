"""Saved Queen's Dilemma states from earlier releases, brought to the current format.

A live table is stored as plain data; when the state's shape or its pending steps change,
`plugin._game()` raises `state_format` and a function here turns the old plain data into
the new (`core.state.migrate_snapshot` runs them in order on load)."""
from __future__ import annotations

# Format 0 listed every answer of these prompts in the state; format 1 names a typed decision.
DECIDED_KINDS = {"payment": "qdv.payment", "forced_payment": "qde.forced_payment", "vote": "qdv.turn"}
RENAMED_STEPS = {"qd.run_effects": "qdx.run_effects"}  # moved next to the effects it runs
# Format 0's steps that ended a phase by entering the next; format 1 declares the phases
# (rounds.ROUND, ending.END), so what is pending in their place is the kernel's leaving the
# phase and starting the next (the vote's last work first), bottom of the stack first.
PHASE_ENDS = {
    ("voting", "qd.resolution"): [["core.start_phase", {"name": "resolution"}], ["core.exit_phase", {"name": "voting"}],
                                  ["qd.vote_done", {}]],
    ("resolution", "qd.round"): [["qd.round", {}], ["core.exit_phase", {"name": "resolution"}]],
    ("end", "qdend.cleanup"): [["core.start_phase", {"name": "cleanup"}], ["core.exit_phase", {"name": "end"}]],
}


def from_format_0(raw: dict) -> dict:
    """Format 0 -> 1: open payments, forced payments and voting turns become typed decisions
    (their stored options dropped: the validators read the state instead), renamed steps
    renamed, and the round's and the end's phases as the kernel schedules them (`PHASE_ENDS`).
    A voting turn stays one prompt with its id, as it was."""
    for prompt in raw.get("prompts", []):
        decision = DECIDED_KINDS.get(prompt.get("kind"))
        if decision and not prompt.get("decision"):
            prompt["options"] = []
            prompt["free_text"] = []
            prompt["decision"] = decision
    for step in raw.get("stack", []):  # a Step is stored as [name, args]
        if step and step[0] in RENAMED_STEPS:
            step[0] = RENAMED_STEPS[step[0]]
    stack = raw.get("stack", [])
    for i, step in enumerate(stack):
        now = PHASE_ENDS.get((raw.get("phase"), step[0]))
        if now is not None:  # each is pending once, under all of its phase's other work
            stack[i:i + 1] = [[name, dict(args)] for name, args in now]
            break
    return raw


MIGRATIONS = {0: from_format_0}

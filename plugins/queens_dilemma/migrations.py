"""Saved Queen's Dilemma states from earlier releases, brought to the current format.

A live table is stored as plain data; when the state's shape or its pending steps change,
`plugin._game()` raises `state_format` and a function here turns the old plain data into
the new (`core.state.migrate_snapshot` runs them in order on load)."""
from __future__ import annotations

# Format 0 listed every answer of these prompts in the state; format 1 names a typed decision.
DECIDED_KINDS = {"payment": "qdv.payment", "forced_payment": "qde.forced_payment"}
RENAMED_STEPS = {"qd.run_effects": "qdx.run_effects"}  # moved next to the effects it runs


POWER_ANSWERS = {"vote": "qdv.vote", "raise": "qdv.raise"}  # a voting turn's typed part


def from_format_0(raw: dict) -> dict:
    """Format 0 -> 1: open payments and forced payments become typed decisions (their stored
    options dropped: the validator reads the Treasury instead); a voting turn's one prompt
    becomes two in its place, the Power choices (typed) and the rest (listed); renamed steps
    renamed."""
    prompts = []
    for prompt in raw.get("prompts", []):
        decision = DECIDED_KINDS.get(prompt.get("kind"))
        if decision and not prompt.get("decision"):
            prompt["options"] = []
            prompt["free_text"] = []
            prompt["decision"] = decision
        elif prompt.get("kind") == "vote" and not prompt.get("decision"):
            prompts += _power_prompt(raw, prompt)
            prompt["options"] = [o for o in prompt["options"] if o["type"] not in POWER_ANSWERS]
        prompts.append(prompt)
    raw["prompts"] = prompts
    for step in raw.get("stack", []):  # a Step is stored as [name, args]
        if step and step[0] in RENAMED_STEPS:
            step[0] = RENAMED_STEPS[step[0]]
    return raw


def _power_prompt(raw: dict, prompt: dict) -> list[dict]:
    """The typed prompt for the Power choices an old voting prompt listed (none: none)."""
    kinds = [POWER_ANSWERS[o["type"]] for o in prompt["options"] if o["type"] in POWER_ANSWERS]
    if not kinds:
        return []
    new = {**prompt, "id": raw.get("next_prompt_id", 1), "options": [], "free_text": [], "decision": kinds[0]}
    raw["next_prompt_id"] = new["id"] + 1
    return [new]


MIGRATIONS = {0: from_format_0}

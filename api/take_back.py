"""What an undo needs from the live store: the state before the table's last action.

The kernel's rules for taking back an action are in `core.undo`; the service keeps no copy
of earlier states, so the one before the last action is rebuilt when a seat asks: from the
stored snapshot and the log when the snapshot is older than that action (seven times in
eight), else from the table's creation and its whole log. An undo's commit always stores a
snapshot, so an ordinary load never has to replay through an undo.
"""
from __future__ import annotations

import core
from core.undo import LastAction
from core.state import TableState


def last_action(entries: list[dict], version: int) -> LastAction | None:
    """The log's entry at `version` as the kernel's `LastAction` (None: the log has none)."""
    entry = next((e for e in entries if e["version"] == version), None)
    if entry is None:
        return None
    return LastAction(entry["seat"], core.to_action(entry["action"]), entry["version"], entry["events"],
                      by_bot=bool(entry.get("bot")), chance=bool(entry.get("chance")))


def from_creation(meta: dict, registry, entries: list[dict]) -> TableState:
    """The table rebuilt from its creation arguments and these log entries (undos included:
    `core.engine.Table` replays them)."""
    log = [(e["seat"], core.to_action(e["action"]), e.get("at")) for e in entries]
    table = core.replay(meta["game"], meta["players"], meta["seed"], log, modules=meta["modules"],
                        options=meta["options"], registry=registry, campaign=meta.get("campaign_at_start"))
    return table.state

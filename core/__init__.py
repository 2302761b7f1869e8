"""The turn-and-phase kernel: pure, synchronous, no I/O."""
from core.engine import Table, active_seats, apply, create_table, legal_actions, replay, to_action, view, view_events
from core.errors import *  # noqa: F401,F403  (the typed errors are part of the public API)
from core.hookspecs import hookimpl
from core.plugins import GameSpec, ModuleSpec, OptionSpec, Registry, default_registry
from core.state import Action, Event, Prompt, Step, TableState

__all__ = [
    "Action", "Event", "GameSpec", "ModuleSpec", "OptionSpec", "Prompt", "Registry", "Step",
    "Table", "TableState", "active_seats", "apply", "create_table", "default_registry",
    "hookimpl", "legal_actions", "replay", "to_action", "view", "view_events",
]

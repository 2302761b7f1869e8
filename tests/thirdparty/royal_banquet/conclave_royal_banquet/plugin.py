"""Royal Banquet: every player adds 1 to their total in every crisis, and the table counts
the banquets held (one per Crisis phase). Uses only the game's public extension points."""
import sys

from core.hookspecs import hookimpl
from core.plugins import ModuleSpec

MODULE_ID = "royal-banquet"


@hookimpl
def conclave_register_modules():
    return [ModuleSpec(id=MODULE_ID, game="new-capital", name="Royal Banquet", plugin=sys.modules[__name__],
                       description="Feasts steady the realm: +1 to every crisis total.")]


@hookimpl
def conclave_setup(ctx):
    if MODULE_ID in ctx.state.modules:
        ctx.state.module_state[MODULE_ID] = {"banquets": 0}


@hookimpl
def conclave_phase_enter(ctx, phase):
    if MODULE_ID in ctx.state.modules and phase == "crisis":
        ctx.state.module_state[MODULE_ID]["banquets"] += 1


@hookimpl
def new_capital_modifiers(state):
    if MODULE_ID not in state.modules:
        return []
    return [("banquet", {"kind": "crisis_add", "crisis": "any", "add": 1})]

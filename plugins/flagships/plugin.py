"""Flagships: the Blighted Reach's optional module (issue 19), switched on per campaign when
it starts: the campaign plugin refuses a later Act whose modules differ from the first
Act's (`blighted_reach.plugin.conclave_campaign_begin`), as The Queen's Dilemma does for
Age of Disorder.

The rules themselves (`rules.py`) belong to every campaign table, module on or off, since
some Fates grant a Flagship: Intermission D's duty (BR-341) is registered for all of them
and does nothing where nobody has a Flagship.
"""
from __future__ import annotations

import sys

from core.hookspecs import hookimpl
from core.plugins import ModuleSpec
from plugins.arcs.content import box_for
from plugins.blighted_reach.intermission import INTERMISSION_HOOKS
from plugins.flagships import rules

MODULE_ID = "flagships"
GAME_ID = "blighted-reach"
SPEC = ModuleSpec(
    id=MODULE_ID, game=GAME_ID, name="Flagships", plugin=sys.modules[__name__],
    description="Every player may play a Flagship: a board of Upgrades and Armor built at planets, "
                "taking hits in battle and in Crises. Chosen when a campaign starts, never later.",
    min_players=2, max_players=4,
)


@hookimpl
def conclave_register_modules():
    return [SPEC]


def _destroy_damaged(state) -> None:
    """BR-341 at the end of Intermission D."""
    rules.destroy_damaged(box_for(state), state)


if _destroy_damaged not in INTERMISSION_HOOKS["repair_and_destroy"]:
    INTERMISSION_HOOKS["repair_and_destroy"].append(_destroy_damaged)

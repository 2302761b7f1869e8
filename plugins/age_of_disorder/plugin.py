"""Age of Disorder (QD-067..075): the three purple envelopes, opened once, at the campaign's
one-time setup and never later. DAOD's Dilemmas join the starting deck, CAOD's Chronicles
become the starting unlocked Chronicle deck (no Branding), and AAOD gives each Character in
play their card; the cards of absent Characters go to the Trash."""
from __future__ import annotations

import sys

from core.flow import StepTable
from core.hookspecs import hookimpl
from core.plugins import ModuleSpec
from plugins.queens_dilemma.effects import box_of, unlock_agenda
from plugins.queens_dilemma.rounds import open_envelope

MODULE_ID = "age-of-disorder"
steps = StepTable("aod")
SPEC = ModuleSpec(
    id=MODULE_ID, game="queens-dilemma", name="Age of Disorder", plugin=sys.modules[__name__],
    description="The aftermath of the era before Queen Serena: 4 Dilemmas, 4 Chronicles and one Agenda per "
                "Character, added when a campaign starts (never later).",
    min_players=3, max_players=6,
)


@hookimpl
def conclave_register_modules():
    return [SPEC]


@hookimpl
def conclave_step_handlers():
    return steps


@hookimpl
def qd_campaign_setup(ctx):
    if SPEC.enabled(ctx.state):
        ctx.push_all([(open_envelope, {"code": "DAOD"}), (open_envelope, {"code": "CAOD"}), (agendas, {})])


@steps("agendas")
def agendas(ctx) -> None:
    """QD-072..074, QD-356: AAOD1-6 by Character; a blank time limit counts game 1 as current."""
    state = ctx.state
    campaign = state.campaign
    campaign.opened.append("AAOD")
    playing = {d.character: d.seat for d in campaign.diaries}
    for code in box_of(state).envelopes["AAOD"].agendas:
        character = box_of(state).agendas[code].character
        if character in playing:
            unlock_agenda(ctx, playing[character], code, "Age of Disorder")
        else:
            campaign.trashed.append(code)
            ctx.emit("trashed", code=code, reason=f"{character} is not in this campaign")

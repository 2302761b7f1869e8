"""Hidden information in The Queen's Dilemma, checked after every action of whole bot games
(a campaign's first game and a later one), for every seat and for a spectator, in the state
view and in the events: another player's Ideology card, Investment card and held Agenda
cards; the back of the Dilemma being voted on (both sides) and the back of the side that
lost; the Dilemma deck's order and contents; what unopened Envelopes and Mystery boxes hold;
and the glossary of names and texts each viewer gets with its view.
QD-008, QD-038, QD-066, QD-087, QD-090, QD-111, QD-136, QD-138, QD-343."""
from __future__ import annotations

import copy
import json
import random

import pytest

from core import default_registry
from core.engine import view, view_events
from tests.queens_dilemma.harness import BOX, GAME_ID, campaign, choices, start


def _texts_of_envelope(code: str) -> list[str]:
    env = BOX.envelopes[code]
    out = [BOX.stories[env.story].text] if env.story else []
    for d in env.dilemmas:
        out += [BOX.dilemmas[d].aye.text, BOX.dilemmas[d].nay.text]
    return [t for t in out if t]


def secrets_for(state, viewer) -> list[str]:
    """Strings `viewer` must not see in the view or events at this moment."""
    secret = []
    revealed = state.phase in ("end", "cleanup") or state.finished
    for p in state.councilors:
        if p.seat == viewer:
            continue
        if not revealed:
            secret += [x for x in (p.ideology_card, p.investment) if x]
        secret += list(p.drawn_ideology)
        secret += [a.code for a in state.campaign.diaries[p.seat].agendas]
    if state.dilemma:
        card = BOX.dilemmas[state.dilemma]
        if state.phase == "resolution":  # the winning side was turned over (QD-200); the other never is
            won = state.votes[-1]["winner"]
            secret += [t for t in (card.nay.text if won == "aye" else card.aye.text,) if t]
        else:
            secret += [t for t in (card.aye.text, card.nay.text) if t]
    for code in BOX.envelopes:
        if code not in state.campaign.opened:
            secret += _texts_of_envelope(code)
    return secret


def _walk_game(table, rng, check_every=1):
    rules = table.rules
    n = len(table.state.seats)
    lost_backs: list[str] = []
    steps = 0
    while not table.state.finished:
        blocking = [p for p in table.state.prompts if p.blocking]
        p = rng.choice(blocking)
        before = table.state.dilemma
        table.act(p.seat, rng.choice(choices(table, p)))
        steps += 1
        if before and not table.state.dilemma:  # a Dilemma was resolved: its losing side stays secret
            side = table.state.votes[-1]["winner"]
            loser = getattr(BOX.dilemmas[before], "nay" if side == "aye" else "aye")
            if loser.text:
                lost_backs.append(loser.text)
        if steps % check_every:
            continue
        for viewer in [*range(n), None]:
            shown = view(rules, table.state, viewer)
            glossary = rules.hook.conclave_glossary(state=table.state, viewer=viewer, view=shown)
            seen = json.dumps(shown) + json.dumps(view_events(table.events, viewer)) + json.dumps(glossary)
            for s in secrets_for(table.state, viewer) + lost_backs:
                assert s not in seen, (viewer, s, table.state.phase)
            v = view(rules, table.state, viewer)
            assert isinstance(v["campaign"]["deck"], int)  # never the order, never the cards


@pytest.mark.parametrize("players", [3, 5])
def test_no_secret_reaches_another_viewer_in_a_first_game(players):
    table = start(None, players=players, seed=11)
    _walk_game(table, random.Random(players))


def test_no_secret_reaches_another_viewer_in_a_later_game():
    from core.bot import play_game

    camp = campaign(4)
    first = play_game(GAME_ID, 4, 21, campaign=copy.deepcopy(camp))
    default_registry().rules_for(GAME_ID, []).hook.conclave_campaign_save(state=first.table.state, campaign=camp)
    table = start(camp, seed=22)
    _walk_game(table, random.Random(5))

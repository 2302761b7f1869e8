"""Bot play of The Queen's Dilemma: whole campaigns headless (invariants after every
action), determinism by replay, and `conclave simulate --campaigns` (a small smoke of the
200-game runs reported in the issue notes)."""
from __future__ import annotations

import copy
import json

import pytest

from core import default_registry, replay
from core.bot import play_campaign, play_game
from core.state import encode_state
from tests.queens_dilemma.harness import GAME_ID, campaign


@pytest.mark.parametrize("players,modules", [(3, []), (4, ["age-of-disorder"]), (6, [])])
def test_a_whole_campaign_reaches_its_grand_finale_with_invariants_after_every_action(players, modules):
    played = play_campaign(GAME_ID, players, 7, modules=modules, check_invariants=True)
    assert [e for g in played.games for e in g.invariant_errors] == []
    c = played.campaign
    assert c["finale_played"] and len(c["endings"]) == 7 and c["final"]
    assert played.games[-1].table.state.finale and not played.games[0].table.state.finale
    assert sorted(r["rank"] for r in c["final"]) == list(range(1, players + 1))


def test_a_campaign_game_replays_byte_identically_from_its_log():
    camp = campaign(4)
    log = []
    played = play_game(GAME_ID, 4, 33, campaign=copy.deepcopy(camp),
                       after_action=lambda table, seat, action: log.append((seat, action)))
    again = replay(GAME_ID, 4, 33, log, campaign=copy.deepcopy(camp))
    assert encode_state(again.state) == encode_state(played.table.state)


def test_simulate_cli_plays_games_and_whole_campaigns():
    from typer.testing import CliRunner

    from api.cli import app

    result = CliRunner().invoke(app, ["simulate", "--game", GAME_ID, "--players", "5", "--games", "4", "--seed", "5",
                                      "--campaigns", "1", "--modules", "age-of-disorder", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["completed"] == 4 and summary["errors"] == 0
    assert summary["campaigns_completed"] == 1 and summary["campaign_games"] >= 3


def test_standings_carry_every_diary_track_and_the_infamy_tier():
    played = play_campaign(GAME_ID, 3, 2)
    rows = default_registry().rules_for(GAME_ID, []).hook.conclave_campaign_standings(game=GAME_ID,
                                                                                     campaign=played.campaign)
    for row, diary in zip(rows, played.campaign["diaries"]):
        assert (row["hegemony"], row["independence"], row["infamy"]) == (diary["hegemony"], diary["independence"],
                                                                         diary["infamy"])
        assert row["tier"] == diary["infamy"] // 5

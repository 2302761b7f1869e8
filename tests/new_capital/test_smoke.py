"""A first sanity pass: a game can be set up and played to the end by the harness."""
from tests.new_capital.harness import auto, check, new_game


def test_whole_game_with_default_policy_ends_after_six_rounds_QNC_055_062():
    """QNC-062 rounds run Development, Crisis, Score, Refresh; QNC-055 the game ends with the
    Crisis deck after round 6 when nobody reaches the target."""
    table = new_game(players=3, seed=5, draft=False)
    events = auto(table)
    phases = [(e.data["round"], e.data["phase"]) for e in events if e.type == "phase"]
    check(table)
    assert table.state.finished
    assert table.state.result["round"] <= 6
    rounds = table.state.result["round"]
    expected = [(r, ph) for r in range(1, rounds + 1) for ph in ("development", "crisis", "score", "refresh")]
    assert phases == expected

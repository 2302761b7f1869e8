"""The Queen's Dilemma (`queens-dilemma`): work in progress, not registered as a built-in
game yet. `voting.py` holds the Voting Phase and Vote Resolution rules, tested through a
test council game (tests/queens_dilemma/council.py)."""

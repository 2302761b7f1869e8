"""Every game of the fixed bot-game set ends as recorded (tests/core/bot_fingerprints.py):
a kernel change that alters a rule, an option list or its order shows here."""
from __future__ import annotations

import pytest

from tests.core.bot_fingerprints import fingerprint, stored

CHUNKS = 8


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_bot_games_end_as_recorded(chunk):
    recorded = stored()
    for expected in recorded[chunk::CHUNKS]:
        spec = {k: expected[k] for k in ("game", "players", "seed", "modules")}
        assert fingerprint(spec) == expected, f"{spec} no longer ends as recorded"

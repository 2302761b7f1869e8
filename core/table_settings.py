"""Table settings of the kernel: options every game's tables take, beside the game's own
(`GameSpec.options`). They are checked like a game's options (`Registry.check_table`) and
listed with them, but kept in a table's options only when given, so the stored bytes of a
table that does not use them stay what they were."""
from __future__ import annotations

from core import clock
from core.plugins import OptionSpec

STRENGTHS = ("random", "search")
# Table settings of the kernel, for every game: which bot plays a seat a bot takes over,
# and how much CPU the search bot may spend on one decision. Kept in a table's options only
# when given, so tables without them keep their stored bytes.
BOT_OPTIONS = {
    "bot": OptionSpec(default="random", choices=STRENGTHS, labels=("Random", "Search"),
                      description="How bots play at this table: random legal actions, or a search "
                                  "over them judged by the game's score (random where a game has none)"),
    "bot_budget_ms": OptionSpec(default=50, choices=(10, 25, 50, 100, 200),
                                labels=("10 ms", "25 ms", "50 ms", "100 ms", "200 ms"),
                                description="CPU milliseconds the search bot may spend on one decision"),
}

# The clock's (core/clock.py) are listed with them; they never reach the game's options at all:
# `create_table` takes them apart first and keeps them in the clock's own account.
KERNEL_OPTIONS: dict[str, OptionSpec] = {**BOT_OPTIONS, **clock.OPTIONS}

# What becomes of an away seat (core/absence.py): a bot plays it, or, only where the game's
# rules say how a game goes on without a player (`GameSpec.skips_absent_seats`), it is
# skipped. Offered only to such games, so no other table can ask for it.
ABSENCE_OPTIONS = {
    "absent_seats": OptionSpec(default="bot", choices=("bot", "skip"),
                               labels=("A bot plays for an away seat", "An away seat is skipped"),
                               description="When a seat's time runs out or the host marks it absent: a "
                                           "server-side bot plays for it, or the game goes on without it as "
                                           "its rules treat an absent player, until its player returns"),
}


def kernel_options(game) -> dict[str, OptionSpec]:
    """The kernel's table settings a table of `game` (a `GameSpec`) may take."""
    return {**KERNEL_OPTIONS, **ABSENCE_OPTIONS} if game.skips_absent_seats else KERNEL_OPTIONS

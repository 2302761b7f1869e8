"""The Dead Live (F2204, the Gate Wraith's reminder by the map): while the Twisted Passage is
in play, destroyed ships that would go back to a supply wait on the card instead
(`board.DESTROYED_SHIPS`; a Blight Crisis's, once its report is made, `blight.AFTER_CRISIS`);
after all scoring each ship destroyed this chapter, on the card or among Trophies, comes
back fresh in the Twisted Passage (`arcs_chapter_clean_up`, before the base clean-up returns
Trophies).

Readings:
- Every owner's ships: the players' and the Empire's (Imperial ships to the Passage as
  Imperial ships). Ships another card holds (Blight Hunger) stay where that card keeps
  them; The Dead Live takes only what would reach a supply.
- "Destroyed this chapter" among Trophies: the ship Trophies each player took since the
  chapter began (`state.dead_trophies`: how many Trophies it held then; Trophies only
  grow within a chapter, so those beyond the count are this chapter's).
"""
from __future__ import annotations

from core.hookspecs import hookimpl
from plugins.blighted_reach import blight as bl
from plugins.blighted_reach import board
from plugins.blighted_reach import twisted_passage as tp
from plugins.blighted_reach.rules_box import TWISTED_PASSAGE
from plugins.blighted_reach.state import BlightedReachState, Pieces

DEAD_LIVE = "F2204"


def on_the_card(state, owner: int, count: int) -> bool:
    """`board.DESTROYED_SHIPS`: onto The Dead Live while the Passage is in play."""
    if not tp.in_play(state):
        return False
    state.dead_live.extend([owner] * count)
    return True


def after_blight_crisis(state, result: dict) -> None:
    """`blight.AFTER_CRISIS`: a Blight Crisis's destroyed ships, in their supplies by now and
    not fed to Blight Hunger, move onto The Dead Live."""
    if not tp.in_play(state) or result.get("hunger"):
        return
    imperial = (result.get("imperial") or {}).get("destroyed", 0)
    if imperial:
        state.imperial_supply -= imperial
        state.dead_live.extend([board.EMPIRE] * imperial)
    for seat, hit in result.get("players", {}).items():
        gone = hit.get("destroyed", 0)
        if gone:
            state.players[seat].ships -= gone
            state.dead_live.extend([seat] * gone)


def mark_chapter(state: BlightedReachState) -> None:
    """Each player's Trophies as a chapter begins (the Fate's setup, then each clean-up)."""
    state.dead_trophies = [len(p.trophies) for p in state.players]


def chapter_dead(state: BlightedReachState) -> list[int]:
    """Take this chapter's destroyed ships: off the card and out of the Trophies taken since
    the chapter began. Returns their owners."""
    owners = list(state.dead_live)
    state.dead_live = []
    marks = state.dead_trophies or [0] * len(state.players)
    for seat, player in enumerate(state.players):
        start = min(marks[seat] if seat < len(marks) else 0, len(player.trophies))
        new = player.trophies[start:]
        owners += [t.owner for t in new if t.kind == "ship"]
        player.trophies = player.trophies[:start] + [t for t in new if t.kind != "ship"]
    return owners


def place_dead(state: BlightedReachState, owners: list[int]) -> dict[str, int]:
    """The ships, fresh, in the Twisted Passage. Returns how many per owner."""
    here = state.systems[TWISTED_PASSAGE]
    placed: dict[str, int] = {}
    for owner in owners:
        if owner == board.EMPIRE:
            now = state.imperial.get(TWISTED_PASSAGE, Pieces())
            state.imperial[TWISTED_PASSAGE] = Pieces(fresh=now.fresh + 1, damaged=now.damaged)
        else:
            here.ships[owner].fresh += 1
        placed[str(owner)] = placed.get(str(owner), 0) + 1
    return placed


@hookimpl(specname="arcs_chapter_clean_up", tryfirst=True)
def the_dead_live(ctx, scored):
    """After all scoring, before any Trophy goes home: the chapter's dead to the Passage."""
    state = ctx.state
    if not tp.in_play(state):
        return
    placed = place_dead(state, chapter_dead(state))
    ctx.emit("the_dead_live", card=DEAD_LIVE, ships=placed)
    mark_chapter(state)
    if "warlord" in scored:  # the base clean-up returns every Trophy left: none is this chapter's
        state.dead_trophies = [0] * len(state.players)


def dead_live_ships(state: BlightedReachState) -> list[tuple[int, str]]:
    """(owner, "ship") for each Loyal ship on The Dead Live, for the piece count."""
    return [(owner, "ship") for owner in state.dead_live if owner >= 0]


board.DESTROYED_SHIPS.append(on_the_card)
bl.AFTER_CRISIS.append(after_blight_crisis)

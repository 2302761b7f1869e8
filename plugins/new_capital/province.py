"""Pure questions about a player's province and the common rows (no mutation, no I/O)."""
from __future__ import annotations

from core.turn_order import clockwise
from plugins.new_capital.content import Cond, Pack
from plugins.new_capital.state import NewCapitalState, Player

TIER_ROWS = {1: "t1", 2: "t2", 3: "t3"}


def top_structure(pack: Pack, column) -> object:
    return pack.structures[column.structures[-1]]


def province_leaders(player: Player, face_up_only: bool = True) -> list[str]:
    """Leaders in placement order: column nearest the board first, top slot first."""
    out = []
    for col in player.columns:
        for slot in col.slots:
            if slot.leader:
                out.append(slot.leader)
            if not face_up_only:
                out.extend(slot.flipped)
    return out


def card_count(player: Player) -> int:
    """Structure and leader cards in the province, flipped leaders included (QNC-058 reading)."""
    return sum(len(c.structures) for c in player.columns) + len(province_leaders(player, face_up_only=False))


def upgrade_targets(state: NewCapitalState, pack: Pack, player: Player) -> list[int]:
    """Columns that may take an Upgrade token now.

    A first token may go on any column below Tier 3 (QNC-095); a second token only where
    the next tier's pool holds a card of the column's type (QNC-092); Tier 3 never (QNC-094).
    Rebellion does not matter (QNC-128).
    """
    out = []
    for i, col in enumerate(player.columns):
        top = pack.structures[col.structures[-1]]
        if top.tier >= 3:
            continue
        if col.upgrades >= 1 and not upgrade_matches(state, pack, top):
            continue
        out.append(i)
    return out


def upgrade_matches(state: NewCapitalState, pack: Pack, top) -> list[str]:
    """Cards in the next tier's pool of the same type as `top`."""
    row = state.rows[TIER_ROWS[top.tier + 1]]
    return [c for c in row.pool if pack.structures[c].type == top.type]


def holds(cond: Cond | None, state: NewCapitalState, pack: Pack, player: Player) -> bool:
    """Whether every field set in `cond` holds for `player`."""
    if cond is None:
        return True
    if cond.columns_at_least is not None and len(player.columns) < cond.columns_at_least:
        return False
    if cond.leaders_at_least is not None and len(province_leaders(player)) < cond.leaders_at_least:
        return False
    if cond.has_structure_type is not None and not any(
        pack.structures[s].type == cond.has_structure_type for c in player.columns for s in c.structures
    ):
        return False
    if cond.faction_cards_at_least is not None:
        for faction, n in cond.faction_cards_at_least.items():
            count = sum(pack.structures[s].faction == faction for c in player.columns for s in c.structures)
            count += sum(pack.leaders[l].faction == faction for l in province_leaders(player))
            if count < n:
                return False
    if cond.favored_any is not None and cond.favored_any != bool(favored_factions(pack, player)):
        return False
    if cond.in_diplomacy is not None and cond.in_diplomacy != in_diplomacy(player):
        return False
    if cond.no_rebellion is not None and cond.no_rebellion != all(c.rebellion == 0 for c in player.columns):
        return False
    if cond.reserve_at_least is not None and player.reserve_power + player.reserve_control < cond.reserve_at_least:
        return False
    if cond.tier3_owned is not None and cond.tier3_owned != owns_tier3(pack, player):
        return False
    return True


def owns_tier3(pack: Pack, player: Player) -> bool:
    return any(pack.structures[s].tier == 3 for c in player.columns for s in c.structures)


def favored_factions(pack: Pack, player: Player) -> list[str]:
    """Factions whose Favored space holds this player's cube (at most one per track, QNC-168)."""
    at = pack.board.favored_at
    return [f.id for f in pack.board.factions if player.diplomacy[f.track] == f.end * at]


def in_diplomacy(player: Player) -> bool:
    """Both cubes on the centre slot (QNC-170)."""
    return player.diplomacy == [0, 0]


def locked(pack: Pack, player: Player, track: int) -> bool:
    """A cube on a Favored space never moves again (QNC-166)."""
    return abs(player.diplomacy[track]) >= pack.board.favored_at


def turn_order(state: NewCapitalState) -> list[int]:
    """Seats clockwise from the first player (QNC-029/274: the first player token moves each round)."""
    return clockwise(state.first, len(state.players))


def playable(pack: Pack, player: Player) -> list[str]:
    """Hand cards that can be played: everything but Hunger cards (QNC-201)."""
    return [c for c in player.hand if c not in pack.hunger]


def burnable(pack: Pack, player: Player) -> list[tuple[str, str]]:
    """(zone, card) pairs a Burn may target: a hand card or the top discard, never Hunger (QNC-194)."""
    out = [("hand", c) for c in player.hand if c not in pack.hunger]
    if player.discard and player.discard[-1] not in pack.hunger:
        out.append(("discard", player.discard[-1]))
    return out


def honorary_met(state: NewCapitalState, pack: Pack, player: Player) -> bool:
    """The scenario's Honorary Seal objective (ruling QNC-R2, data)."""
    obj = pack.scenario(state.scenario).honorary
    if obj.kind == "tier3":
        return owns_tier3(pack, player)
    if obj.kind == "rewards":
        return player.rewards >= obj.n
    if obj.kind == "leaders":
        return len(province_leaders(player)) >= obj.n
    if obj.kind == "reserves":
        return player.reserve_power > obj.power and player.reserve_control > obj.control
    return False

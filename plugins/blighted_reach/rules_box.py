"""The box the campaign's tables play the Arcs rules with (`plugins.arcs.content.box_for`):
the base map, action cards, dice and board, with the campaign's Court in place of the base
one (the CC cards, the Imperial Council and every Fate Set card that can be held or sit in
the Court) and the Fate Sets' Lore beside the base Lore.

A reprinted card (`reprint_of`) plays with the abilities of the card it reprints; the
others carry the campaign's own effects (`plugins.blighted_reach.content.Effect`, a
superset of the base `Ability` fields), run by the ops the campaign registers.
"""
from __future__ import annotations

from functools import lru_cache

import msgspec

from plugins.arcs.content import Box, CourtCard, LoreCard
from plugins.arcs.content import default_box as arcs_box
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.content import default_box as campaign_box

# How a secured Vox card leaves once resolved, from its own effects (default: discarded).
_AFTER = {"bury_self": "bury", "discard_self": "discard", "shuffle_self_into_court": "shuffle_into_court"}


# The map center, a gate of no cluster, while the Gate Wraith's Twisted Passage is in play
# (F2205). Its id reads as a gate ("...G") of cluster 0, which no map has.
TWISTED_PASSAGE = "0G"


class CampaignRulesBox(Box):
    """The base box's rules over the campaign's cards; the action deck is the Act's own.
    Its systems include the Twisted Passage (a gate): a table holds pieces there only while
    the Gate Wraith's law is in play, and its map reaches it only then (`twisted_passage`)."""

    @property
    def systems(self):
        out = Box.systems.fget(self)
        out[TWISTED_PASSAGE] = None
        return out

    def action_deck(self, players: int) -> list[str]:
        from plugins.blighted_reach.setup import action_deck

        return action_deck(arcs_box(), campaign_box(), players)  # the Faithful sides are not dealt


# A base op a campaign card uses with a campaign-only target becomes the campaign's own op.
_VARIANTS = {("place_ships", "free_city"): "place_ships_at_free_cities"}
_BASE_WHERE = ("", "gate", "each_gate", "controlled_system", "any")


def _ability(effect):
    """The effect as the base rules run it: a named handler is the op of that name (the
    base rules' op registry runs Fate abilities like any card's)."""
    if effect.do == "handler":
        return msgspec.structs.replace(effect, do=effect.handler)
    if effect.where not in _BASE_WHERE:
        return msgspec.structs.replace(effect, do=_VARIANTS[(effect.do, effect.where)])
    return effect


def _after_secured(card) -> str:
    ends = [_AFTER[e.do] for e in card.abilities if e.when == "secured" and e.do in _AFTER]
    return ends[-1] if ends else "discard"


def _court_card(card, base: Box, known: dict[str, CourtCard]) -> CourtCard:
    """A campaign Guild or Vox card as the base rules read it."""
    source = base.court.get(card.reprint_of) or known.get(card.reprint_of)
    abilities = list(source.abilities) if source is not None else [_ability(e) for e in card.abilities]
    kind = source.kind if source is not None else card.kind
    return CourtCard(id=card.id, name=card.name, kind=kind, abilities=abilities,
                     suit=card.suit if kind == "guild" else None,
                     raid_cost=card.raid_cost if kind == "guild" else 0,
                     after_secured=(source.after_secured if source is not None and kind == "vox"
                                    else _after_secured(card) if kind == "vox" else ""))


def compose(base: Box, cbox: CampaignBox) -> CampaignRulesBox:
    from plugins.blighted_reach.fate_believer import with_faithful_sides  # the Faithful cards' two sides (F813)

    court: dict[str, CourtCard] = {}
    for card in cbox.court.values():
        court[card.id] = _court_card(card, base, court)
    for council in (c for c in cbox.empire.cards if c.kind == "council"):
        # The Council sits in the row like a Vox card; securing it is the campaign's own rule
        # (`arcs_court_taken`), so the base rules never resolve or dispose of it.
        court[council.id] = CourtCard(id=council.id, name=council.name, kind="vox", abilities=[])
    lore = dict(base.lore)
    others: dict[str, list] = {}
    fate_cards = [c for fate in sorted(cbox.fates.values(), key=lambda f: f.number) for c in fate.cards]
    for card in fate_cards:  # reprints may name a Fate Set card listed before them
        if card.kind in ("guild", "vox"):
            court[card.id] = _court_card(card, base, court)
        elif card.kind == "action":  # the Faithful cards may sit in the Court (F813): secured into the hand
            court[card.id] = CourtCard(id=card.id, name=card.name, kind="action", abilities=[])
        elif card.kind == "lore":
            lore[card.id] = LoreCard(id=card.id, name=card.name, abilities=[_ability(e) for e in card.abilities])
            # a Fate's Lore can be buried into (or added to) the Court deck and come up in the row
            court[card.id] = CourtCard(id=card.id, name=card.name, kind="lore", abilities=list(lore[card.id].abilities))
        else:
            others[card.id] = [_ability(e) for e in card.abilities]
    for card in base.lore.values():  # BR-034: Lore is shuffled into the campaign's Court deck
        court[card.id] = CourtCard(id=card.id, name=card.name, kind="lore", abilities=list(card.abilities))
    return CampaignRulesBox(map=base.map, setups={}, actions=with_faithful_sides(base.actions), dice=base.dice,
                            board=base.board,
                            court=court, lore=lore, leaders={}, other_cards=others)


@lru_cache(maxsize=1)
def rules_box() -> CampaignRulesBox:
    return compose(arcs_box(), campaign_box())

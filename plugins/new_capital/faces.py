"""Card faces in words: what a player reads on a public card, built from the pack's data.

The demo pack gives texts for action and leader cards only; structures, crises and Hunger
cards are numbers and effect lists. A client (and the log) shows every card by name and
effect text, so the glossary writes those texts here from the same data the rules read,
and adds the few facts a table view lays out (a structure's tier and type, a crisis's
two challenges, the board's factions and seal slots)."""
from __future__ import annotations

import msgspec

from plugins.new_capital.content import (
    ActionCard, Board, Crisis, Effect, Faction, HungerCard, Leader, Pack, Scenario, Structure,
)

ACTION_WORDS = {
    "research": "Research", "recruit": "Recruit", "build": "Build", "administrate": "Administrate",
    "scout": "Scout", "resupply": "Resupply",
}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def effect_text(e: Effect) -> str:
    """One effect of the vocabulary (content.EffectOp) as a short phrase."""
    op = e.op
    if op == "attr":
        where = "a track of your choice" if e.track == "any" else e.track.title()
        return f"+{e.n} {where}" if e.track != "any" else f"+{e.n} on {where}"
    if op == "reserve":
        parts = []
        if e.power:
            parts.append(_plural(e.power, "power token"))
        if e.control:
            parts.append(_plural(e.control, "control token"))
        return f"{' and '.join(parts) or 'nothing'} to your reserve"
    if op == "upgrade":
        return "an Upgrade token"
    if op == "extra_action":
        return _plural(e.n, "Extra Action token")
    if op == "hunger":
        return "take a Hunger card"
    if op == "rebellion":
        return "take a Rebellion token"
    if op == "remove_rebellion":
        return "remove a Rebellion token"
    if op == "draw":
        return f"draw {_plural(e.n, 'card')}"
    if op == "burn":
        return "burn a card"
    if op == "feather":
        return "one more free board action this round"
    if op == "diplomacy":
        return "move a diplomacy cube one space"
    if op == "choice":
        return "either " + " or ".join(effects_text(branch) for branch in e.options)
    return ACTION_WORDS.get(op, op)


def effects_text(effects: list[Effect]) -> str:
    return ", ".join(effect_text(e) for e in effects) or "nothing"


def structure_face(s: Structure, factions: dict[str, str]) -> dict:
    attributes = ", ".join(f"+{n} {t.title()}" for t, n in s.attributes.items() if n) or "no attribute"
    return {"name": s.name, "kind": "structures",
            "text": f"Tier {s.tier} {s.type.title()} of {factions.get(s.faction, s.faction)}: {attributes}.",
            "tier": s.tier, "type": s.type, "faction": s.faction, "attributes": dict(s.attributes)}


def action_face(a: ActionCard) -> dict:
    return {"name": a.name, "kind": "actions", "text": a.text, "card_kind": a.kind,
            "power": a.power, "control": a.control, "bribe": a.bribe}


def leader_face(ld: Leader, factions: dict[str, str]) -> dict:
    text = ld.text
    if ld.alignment:
        text = (f"{text} First placed under a top structure of {factions.get(ld.faction, ld.faction)}:"
                f" {effects_text(ld.alignment)}.")
    if ld.hero:
        text = f"{text} Hero (no alignment bonus)."
    return {"name": ld.name, "kind": "leaders", "text": text.strip(), "faction": ld.faction, "type": ld.type,
            "hero": ld.hero}


def challenge_face(kind: str, ch) -> dict:
    return {"mode": ch.mode, "penalty": ch.penalty, "reward": effects_text(ch.reward),
            "value": ch.value, "values": dict(ch.values)}


def challenge_text(kind: str, ch) -> str:
    unit = "power" if kind == "warfare" else "control"
    if ch.mode == "individual":
        need = f"each player needs {ch.value} {unit}"
    else:
        counts = sorted(ch.values.items())
        need = (f"the players together need {' / '.join(str(v) for _, v in counts)} {unit}"
                f" with {' / '.join(n for n, _ in counts)} players")
    return f"{kind.title()} ({ch.mode}): {need}; failing it: a {ch.penalty.title()}; the best: {effects_text(ch.reward)}."


def crisis_face(c: Crisis) -> dict:
    return {"name": c.name, "kind": "crises", "level": c.level,
            "text": f"Level {c.level}. {challenge_text('warfare', c.warfare)} {challenge_text('political', c.political)}",
            "warfare": challenge_face("warfare", c.warfare), "political": challenge_face("political", c.political)}


def hunger_face(card: HungerCard) -> dict:
    return {"name": card.name, "kind": "hunger",
            "text": f"Hunger: cannot be played or burned. Support (a board action): {effects_text(card.support)}."}


def faction_face(f: Faction) -> dict:
    return {"name": f.name, "kind": "faction", "text": f"Favored action: {effects_text(f.action)}.",
            "track": f.track, "end": f.end, "public": True}  # printed on the board (core/glossary.py)


def honorary_text(s: Scenario) -> str:
    h = s.honorary
    return {
        "tier3": "own a Tier 3 structure",
        "rewards": f"win {h.n} crisis rewards",
        "leaders": f"have {h.n} leaders face up in your province",
        "reserves": f"hold more than {h.power} power and more than {h.control} control tokens",
    }[h.kind]


def scenario_face(s: Scenario) -> dict:
    return {"name": s.name, "kind": "scenario",
            "text": f"Win with {s.seals} Seals. Honorary Seal: {honorary_text(s)}. Alert: {effects_text(s.alert)}."
                    f" Solo: the game ends after round {s.solo_end_round}.",
            "seals": s.seals, "honorary": honorary_text(s), "alert": effects_text(s.alert),
            "solo_end_round": s.solo_end_round, "public": True}


def track_face(track: str, board: Board) -> dict:
    return {"name": track.title(), "kind": "track", "public": True,
            "text": f"Full at {board.track_max}: in the Score phase, {effects_text(board.track_bonus.get(track, []))} and a"
                    f" Seal, then back to 0."}


def board_face(name: str, board: Board) -> dict:
    """The board's public layout: factions on the two diplomacy tracks, seal slots (which
    show an Alert), the tracks' top and the solo die's faces."""
    return {"name": f"{name} pack board", "kind": "board", "public": True,
            "text": f"Diplomacy: {effects_text(board.diplomacy_action)} when both cubes are centred.",
            "factions": [msgspec.to_builtins(f) | {"action_text": effects_text(f.action)} for f in board.factions],
            "seal_alerts": list(board.seal_slots), "track_max": board.track_max, "favored_at": board.favored_at,
            "solo_die": list(board.solo_die)}


def card_face(pack: Pack, kind: str, card_id: str) -> dict:
    """The glossary entry of one card of the game's own catalogues (content.Pack.card_kind)."""
    from plugins.new_capital.content import base_id

    factions = {f.id: f.name for f in pack.board.factions}
    base = base_id(card_id)
    if kind == "structures":
        return structure_face(pack.structures[base], factions)
    if kind == "actions":
        return action_face(pack.actions[base])
    if kind == "leaders":
        return leader_face(pack.leaders[base], factions)
    if kind == "crises":
        return crisis_face(pack.crises[base])
    return hunger_face(pack.hunger[base])

"""What each viewer of a Queen's Dilemma table may see, and the state's invariants.

Secret (QD-008, QD-038, QD-066, QD-090, QD-111): another player's kept and drawn Ideology
cards and Investment card (until the end of the game reveals them), the Agenda cards they
hold, the Investment cards being drafted, the Dilemma deck's order and contents, the Legacy
tray (Ongoing Agendas left) and which Agendas have been taken out of it.
"""
from __future__ import annotations

from core.seats import seat_name
from plugins.queens_dilemma.content import default_box
from plugins.queens_dilemma.state import QDState

REVEALED_PHASES = ("end", "cleanup")


def redact(state: QDState, viewer: int | None, view: dict) -> None:
    revealed = state.finished or state.phase in REVEALED_PHASES
    for p in view["councilors"]:
        if p["seat"] != viewer:
            p["drawn_ideology"] = len(p["drawn_ideology"])
            if not revealed:
                p["ideology_card"] = bool(p["ideology_card"])
                p["investment"] = bool(p["investment"])
    campaign = view["campaign"]
    for d in campaign["diaries"]:
        if d["seat"] != viewer:
            d["agendas"] = len(d["agendas"])  # how many, never which
    campaign["deck"] = len(campaign["deck"])
    campaign["ongoing_pool"] = len(campaign["ongoing_pool"])
    agendas = default_box().agendas
    campaign["unlocked"] = [c for c in campaign["unlocked"] if c not in agendas]
    campaign["trashed"] = [c for c in campaign["trashed"] if c not in agendas]
    view["investments_left"] = len(view["investments_left"])


def invariant_errors(state: QDState) -> list[str]:
    """Things that can never happen in a correct game."""
    errors = []
    box = default_box()
    c = state.campaign
    for p in state.councilors:
        if p.power < 0 or any(v < 0 for v in p.resources.values()):
            errors.append(f"{seat_name(p.seat)} holds a negative amount: power {p.power}, {p.resources}")
        if min(p.hegemony, p.independence, p.infamy) < 0:
            errors.append(f"{seat_name(p.seat)} has negative points")
        if not 0 <= p.heraldry <= box.board.heraldry_tokens:
            errors.append(f"{seat_name(p.seat)} has {p.heraldry} Heraldry tokens")
    if state.power_pool < 0:
        errors.append("the Power Pool is negative")
    for axis, pos in state.board.sliders.items():
        if abs(pos) > box.board.track_half:
            errors.append(f"the {axis} Slider is off its track ({pos})")
    owned = [r for d in c.diaries for r in d.regions + d.vassals]
    if len(owned) != len(set(owned)):
        errors.append("a Region has two owners (QD-052)")
    if c.regions_chosen and sorted(owned) != sorted(box.regions):
        errors.append("after the Region choice every Region has exactly one owner (QD-058)")
    in_play = [d for d, _ in state.round_counter] + ([state.dilemma] if state.dilemma else [])
    if set(in_play) & set(c.deck) or len(c.deck) != len(set(c.deck)):
        errors.append("a Dilemma card is in two places")
    if set(c.deck) & set(c.trashed):
        errors.append("a trashed Dilemma is back in the deck (QD-011)")
    held = [a.code for d in c.diaries for a in d.agendas]
    if len(held) != len(set(held)):
        errors.append("an Agenda card is held twice")
    if set(held) & set(c.ongoing_pool):
        errors.append("a held Ongoing Agenda is also in the pool")
    if len(state.round_counter) > box.board.round_slots:
        errors.append("more Dilemmas than Round Counter slots")
    brown = [ch for ch in state.chronicles if not ch.instant]
    if len(brown) > box.board.brown_slots:
        errors.append("more Chronicles than brown slots (QD-099)")
    return errors


def glossary(state: QDState, viewer: int | None, view: dict) -> dict:
    """Public faces of what this view names: a Dilemma's front (never its back), Stories
    read, Chronicles, Skills, Keywords, Buildings, Regions, Characters, Ideology and
    Investment cards (public, QD-008), Endings attached, Events, Mystery boxes opened, and
    the viewer's own Agendas (the view holds no one else's). Every Region is named, owned or
    not: a table view draws the whole map before the Regions are chosen."""
    from core.glossary import strings_in

    box = default_box()
    out: dict[str, dict] = {}
    for s in strings_in(view):
        if s in box.dilemmas:
            d = box.dilemmas[s]
            out[s] = {"kind": "dilemma", "name": d.title, "text": d.text}
        elif s in box.stories:
            out[s] = {"kind": "story", "name": box.stories[s].title, "text": box.stories[s].text}
        elif s in box.chronicles:
            out[s] = {"kind": "chronicle", "name": box.chronicles[s].title, "text": box.chronicles[s].text}
        elif s in box.skills:
            out[s] = {"kind": "skill", "name": box.skills[s].title, "text": box.skills[s].text}
        elif s in box.keywords:
            out[s] = {"kind": "keyword", "name": box.keywords[s].name, "text": box.keywords[s].text}
        elif s in box.buildings:
            b = box.buildings[s]
            out[s] = {"kind": "building", "name": f"{b.type} building ({b.colour})",
                      "text": f"produces {' or '.join(b.produces)} x{b.n}"}
        elif s in box.characters:
            c = box.characters[s]
            out[s] = {"kind": "character", "name": f"{c.name}, {c.title}", "text": ", ".join(c.ideologies)}
        elif s in box.ideology_cards:
            card = box.ideology_cards[s]
            parts = [f"{f.ideology} +{f.bonus}" for f in card.favored] + \
                    [f"{'/'.join(b.pair)} balanced +{b.bonus}" for b in card.balanced]
            out[s] = {"kind": "ideology", "name": f"{card.character} {card.number}", "text": "; ".join(parts)}
        elif s in box.investments:
            inv = box.investments[s]
            out[s] = {"kind": "investment", "name": f"{inv.resource} investment",
                      "text": f"pay the Bag value in {inv.resource}: success {effects_text(inv.success)}; "
                              f"failure {effects_text(inv.failure)}"}
        elif s in box.endings and s in view["campaign"]["endings"].values():
            out[s] = {"kind": "ending", "name": box.endings[s].title, "text": box.endings[s].text}
        elif s in box.events:
            out[s] = {"kind": "event", "name": box.events[s].title, "text": box.events[s].text}
        elif s in box.mysteries and s in view["campaign"]["opened"]:
            out[s] = {"kind": "mystery", "name": box.mysteries[s].title, "text": box.mysteries[s].warning}
        elif s in box.agendas and viewer is not None and any(
                a["code"] == s for a in view["campaign"]["diaries"][viewer]["agendas"]):
            a = box.agendas[s]
            out[s] = {"kind": "agenda", "name": a.title, "text": a.goal or a.text}
    for name in box.regions:  # the map of Ankist is printed on the board: every Region, always
        out[name] = region_entry(box.regions[name])
    return out


def region_entry(r) -> dict:
    return {"kind": "region", "public": True, "name": r.name, "text": f"{r.type} base building ({r.colour}): "
                                                     f"{' or '.join(r.produces)} x{r.n}"}


def effects_text(effects) -> str:
    """A short reading of public effects, e.g. "+2 hegemony, -1 army"."""
    parts = []
    for e in effects:
        amount = "Bag" if e.bag else str(e.n)
        if e.op in ("gain", "lose"):
            parts.append(f"{'+' if e.op == 'gain' else '-'}{amount} {e.what}")
        elif e.op == "push":
            parts.append(f"push {e.ideology} {e.n}")
        else:
            parts.append(f"{e.op} {e.code or e.fate}".strip())
    return ", ".join(parts) or "nothing"

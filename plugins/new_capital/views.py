"""What each viewer may see, and where every card is (for invariants and leak tests)."""
from __future__ import annotations

from core.seats import seat_name
from plugins.new_capital.content import Pack
from plugins.new_capital.state import NewCapitalState


def zones(state: NewCapitalState) -> dict[str, list[str]]:
    """Every place a card can be, by name; each card id must appear in exactly one."""
    out: dict[str, list[str]] = {}
    for key, row in state.rows.items():
        out[f"{key}.deck"], out[f"{key}.pool"], out[f"{key}.discard"] = row.deck, row.pool, row.discard
    out["crisis_deck"] = state.crisis_deck
    out["crisis"] = [state.crisis] if state.crisis else []
    out["crises_done"] = state.crises_done
    out["hunger_deck"] = state.hunger_deck
    out["box"] = state.box
    for p in state.players:
        s = p.seat
        out[f"p{s}.deck"], out[f"p{s}.hand"], out[f"p{s}.discard"] = p.deck, p.hand, p.discard
        out[f"p{s}.burned"], out[f"p{s}.face_down"], out[f"p{s}.draft_offer"] = p.burned, p.face_down, p.draft_offer
        out[f"p{s}.resolving"] = p.resolving
        out[f"p{s}.province"] = [c for col in p.columns for c in col.structures] + [
            c for col in p.columns for slot in col.slots for c in ([slot.leader] if slot.leader else []) + slot.flipped
        ]
    for mid, mstate in state.module_state.items():  # modules keep their cards under "zones"
        for name, cards in (mstate.get("zones") or {}).items():
            out[f"{mid}.{name}"] = cards
    return out


def hidden_from(state: NewCapitalState, viewer: int | None) -> set[str]:
    """Card ids `viewer` must never see: other hands, every deck, face-down cards, the box."""
    hidden = set(state.crisis_deck) | set(state.hunger_deck) | set(state.box)
    for row in state.rows.values():
        hidden.update(row.deck)
    for p in state.players:
        hidden.update(p.deck)
        if p.seat != viewer:
            hidden.update(p.hand)
            hidden.update(p.draft_offer)
            if not state.revealed:
                hidden.update(p.face_down)
    return hidden


def supply_report(state: NewCapitalState, pk: Pack) -> dict[str, dict[str, int]]:
    """Tokens in play against the box count: the supply is unlimited (ruling G-2, QNC-005),
    but a frontend can warn when a physical table would have run out."""
    ps = state.players
    in_play = {
        "rebellion": sum(c.rebellion for p in ps for c in p.columns),
        "extra_action": sum(p.extra_actions for p in ps),
        "upgrade": sum(c.upgrades for p in ps for c in p.columns),
        "reserve": sum(p.reserve_power + p.reserve_control + p.bid_power + p.bid_control for p in ps),
    }
    return {k: {"box": pk.board.supply[k], "in_play": n} for k, n in in_play.items()}


def event_secrets(state: NewCapitalState, viewer: int | None) -> set[str]:
    """Card ids an event may never name for `viewer`: other hands and draft offers, others'
    unrevealed face-down cards, the box and the crisis deck. (Common decks are left out: a
    Scout shows pool cards that are then shuffled back, publicly.)"""
    secret = set(state.crisis_deck) | set(state.box)
    for p in state.players:
        if p.seat != viewer:
            secret.update(p.hand)
            secret.update(p.draft_offer)
            if not state.revealed:
                secret.update(p.face_down)
    return secret


def redact(state: NewCapitalState, viewer: int | None, view: dict) -> None:
    """Counts instead of hidden lists; the viewer's own hand and face-down cards stay."""
    from plugins.new_capital.content import pack_for

    view["supply"] = supply_report(state, pack_for(state.pack))
    view["pack"] = state.options.get("pack")  # its name: the folder is the server's business
    for key, row in view["rows"].items():
        row["deck"] = len(row["deck"])
    for key in ("crisis_deck", "hunger_deck", "box"):
        view[key] = len(view[key])
    for p in view["players"]:
        p["deck"] = len(p["deck"])  # nobody sees a deck's order, the owner included
        p["seals"] = state.players[p["seat"]].seals
        if p["seat"] != viewer:
            p["hand"] = len(p["hand"])
            p["draft_offer"] = len(p["draft_offer"])
            if not state.revealed:
                p["face_down"] = len(p["face_down"])


def pk_has(pk: Pack, card: str) -> bool:
    return card in pk.structures or card in pk.leaders or card in pk.actions or card in pk.crises or card in pk.hunger


def invariant_errors(state: NewCapitalState, pk: Pack) -> list[str]:
    """Broken rules of the physical game: a card in two places, counts over the components."""
    errors = []
    seen: dict[str, str] = {}
    for zone, cards in zones(state).items():
        for c in cards:
            if c in seen:
                errors.append(f"card {c} is in {seen[c]} and {zone}")
            seen[c] = zone
    n = len(state.players)
    expected = (len(pk.structures) + len(pk.leaders)
                + (len(pk.actions) - 10) + len(pk.crises) + len(pk.hunger) + 10 * n)
    counted = sum(1 for c in seen if ":" in c or pk_has(pk, c))
    if counted != expected:
        errors.append(f"{counted} cards of the game's pack on the table, expected {expected}")
    for p in state.players:
        if p.seals_reserve < 0 or sum(p.seal_slots) + p.honorary + p.seals_reserve != 9:
            errors.append(f"{seat_name(p.seat)}: seals do not add up to 9")
        if len(p.columns) > 4:
            errors.append(f"{seat_name(p.seat)}: {len(p.columns)} columns")
        for t, v in p.tracks.items():
            if not 0 <= v <= pk.board.track_max:
                errors.append(f"{seat_name(p.seat)}: track {t} at {v}")
        for d in p.diplomacy:
            if abs(d) > pk.board.favored_at:
                errors.append(f"{seat_name(p.seat)}: diplomacy cube at {d}")
        if min(p.reserve_power, p.reserve_control, p.extra_actions) < 0:
            errors.append(f"{seat_name(p.seat)}: negative tokens")
        for i, col in enumerate(p.columns):
            if col.upgrades not in (0, 1) and not state.prompts:
                errors.append(f"{seat_name(p.seat)}: column {i} holds {col.upgrades} upgrade tokens at rest")
            tiers = [pk.structures[c].tier for c in col.structures]
            if tiers != list(range(1, len(tiers) + 1)):
                errors.append(f"{seat_name(p.seat)}: column {i} tiers {tiers}")
            if col.rebellion < 0:
                errors.append(f"{seat_name(p.seat)}: column {i} negative rebellion")
        if len(p.hand) + len(p.deck) + len(p.discard) + len(p.face_down) + len(p.burned) < 0:
            errors.append("impossible")
    for key, row in state.rows.items():
        if len(row.pool) > 3:
            errors.append(f"row {key} shows {len(row.pool)} cards")
    return errors


def glossary(state: NewCapitalState, view: dict, pack: Pack) -> dict:
    """Names and effect texts of what this view names (card faces are public; a hidden card
    is only a count in the view, so it is never named), and the board's public facts:
    factions, tracks, the Scenario card and, under the pack's name, the board's layout."""
    from core.glossary import strings_in
    from plugins.new_capital import faces

    out = {}
    factions = {f.id: f for f in pack.board.factions}
    board_name = view.get("pack") or ""
    for s in strings_in(view):
        try:
            out[s] = faces.card_face(pack, pack.card_kind(s), s)
            continue
        except KeyError:
            pass
        if s in factions:
            out[s] = faces.faction_face(factions[s])
        elif s in pack.board.track_bonus:
            out[s] = faces.track_face(s, pack.board)
        elif s == view.get("scenario"):
            out[s] = faces.scenario_face(pack.scenario(s))
        elif s == board_name:
            out[s] = faces.board_face(s, pack.board)
    return out

"""What must hold on a campaign table after every step: the Empire's ships, the Blight and
the Free buildings within the box's numbers (on the map, in supply, as Trophies, Free
proxies while that supply is empty), every player's pieces, tokens and agents in one
place each as in the base game (with the Imperial Trust and the Favors), every card in one
place. Returns the problems found (empty when sound)."""
from __future__ import annotations

from collections import Counter

from plugins.arcs.content import Box
from plugins.arcs.content import default_box as arcs_box
from plugins.arcs.invariants import problems as arcs_problems
from plugins.blighted_reach.board import EMPIRE
from plugins.blighted_reach.content import Box as CampaignBox
from plugins.blighted_reach.council import DECIDED, is_council, is_tucked
from plugins.blighted_reach.fate_believer import faithful_problems
from plugins.blighted_reach.fate_blight_speaker import ships_elsewhere
from plugins.blighted_reach.fate_conspirator import conspiracy_problems
from plugins.blighted_reach.fate_caretaker import golem_problems
from plugins.blighted_reach.fate_pirate_rumors import rumor_agent_owners, rumor_problems
from plugins.blighted_reach.fate_pacifist import witness_problems
from plugins.blighted_reach.fate_pathfinder import pathfinder_problems
from plugins.blighted_reach.fate_peacekeeper import ceasefire_problems
from plugins.blighted_reach.fate_warden import warden_problems
from plugins.blighted_reach.fate_warden_courts import court_token_problems
from plugins.blighted_reach.fate_warden_levy import levy_problems, levy_ships
from plugins.blighted_reach.fate_planet_breaker import planet_breaker_problems, worlds_buildings_of, worlds_free_buildings
from plugins.blighted_reach.fate_hegemon import hegemon_problems, imperial_captives
from plugins.blighted_reach.fate_hegemon import ships_elsewhere as captive_ships
from plugins.blighted_reach.fate_survivalist import bunker_problems
from plugins.blighted_reach.fate_gate_wraith import gate_wraith_problems
from plugins.blighted_reach.fate_gate_wraith_dead import dead_live_ships
from plugins.blighted_reach.favors import favor_problems
from plugins.blighted_reach.setup import EVENT, FATE_EVENTS
from plugins.blighted_reach.state import FREE, BlightedReachState
from plugins.flagships.invariants import flagship_problems
from plugins.flagships.rules import board_buildings

BLIGHT_TROPHY = "blight"


def problems(box: Box, cbox: CampaignBox, state: BlightedReachState) -> list[str]:
    """`box`: the map the table uses (any Arcs box; the cards are read from the rules box)."""
    from plugins.blighted_reach.rules_box import rules_box

    out: list[str] = []
    out += _campaign_pieces(box, cbox, state)
    favors = [owner for row in state.favors for owner in row] + list(state.scrapped_agents)  # F521
    favors += rumor_agent_owners(state)  # agents on the Pirate's Rumors (F1208)
    sown = [sower for sower, _, _ in state.sown]  # agents on a Rival's Outrage slot (Sower of Division)
    on_cards = [r for resources in state.card_resources.values() for r in resources]  # Merchant League's
    out += arcs_problems(rules_box(), state, court=False,
                         resources_elsewhere=[*state.trust, *on_cards, *state.scrapped_resources],
                         agents_elsewhere=favors + sown, action_cards=action_cards_now(cbox, state),
                         buildings_elsewhere=[*board_buildings(state),  # Flagship boards (issue 19)
                                              *ships_elsewhere(state),  # the Blight Speaker's
                                              *worlds_buildings_of(state),  # on Breaking Worlds (F1103)
                                              *captive_ships(state),  # captured by Pacify (F1012)
                                              *levy_ships(state),  # on Warden's Levy (F1612)
                                              *dead_live_ships(state)],  # on The Dead Live (F2204)
                         resources_added={"psionic": state.witness_psionic})  # the Pacifist's Witnesses
    out += favor_problems(state)
    if state.trust and state.first_regent < 0:
        out.append("the Imperial Trust holds resources but nobody holds the First Regent tile")
    if state.first_regent >= 0 and (state.first_regent >= len(state.titles) or state.titles[state.first_regent] != "regent"):
        out.append("the First Regent is not a Regent")  # BR-115
    out += _cards(cbox, state)
    out += golem_problems(box, state)
    out += rumor_problems(box, state)
    out += faithful_problems(state)
    out += _battle(state)
    out += flagship_problems(box, state)
    out += witness_problems(state)
    out += pathfinder_problems(box, state)
    out += hegemon_problems(box, state)
    out += bunker_problems(state)  # the Survivalist's Bunker tokens
    out += planet_breaker_problems(state)  # the Planet Breaker's Hammer tokens
    out += conspiracy_problems(state)  # the Conspirator's 8 tokens
    out += ceasefire_problems(state)  # the Peacekeeper's Ceasefire tokens (F1507)
    out += warden_problems(state)  # the Warden's Seats and Lord titles (F1602, F1609)
    out += court_token_problems(state) + levy_problems(state)  # its Court tokens (F1618), Levy (F1612)
    out += gate_wraith_problems(box, state)  # the Passage tokens and the Twisted Passage (F2205)
    return out


def action_cards_now(cbox: CampaignBox, state: BlightedReachState) -> list[str]:
    """The action cards the act plays with: the deck the count deals (less any scrapped,
    Spreading the Faith's) and the Fate Set action cards among the action cards now (the
    Faithful cards drawn from the Court, an added Event card). A Fate card lost or doubled
    there is the Fate's own invariant's to find."""
    from plugins.arcs.plays import hand_id
    from plugins.blighted_reach.rules_box import rules_box

    base = list(rules_box().action_deck(len(state.players)))
    for card in state.scrapped:
        if card in base:
            base.remove(card)
    fate_cards = {c.id for c in cbox.fate_cards.values() if c.kind in ("action", "event")}
    here = [*state.action_deck, *state.action_discard, *state.action_discard_up, *(c for h in state.hands for c in h),
            *(p.card for p in state.plays if p.card), *state.facedown]
    return base + [hand_id(c) for c in here if hand_id(c) in fate_cards]


def _battle(state: BlightedReachState) -> list[str]:
    """The Imperial ships attacking with a Regent stand in the battle system, and only while
    a battle is resolved (BR-135)."""
    attacking = state.battle_imperial
    if state.battle is None:
        return ["Imperial ships attack in no battle"] if attacking.total else []
    here = state.imperial.get(state.battle.system)
    if attacking.total and (here is None or attacking.fresh > here.fresh or attacking.damaged > here.damaged):
        return ["more Imperial ships attack than stand in the battle system"]
    return []


def _campaign_pieces(box: Box, cbox: CampaignBox, state: BlightedReachState) -> list[str]:
    out = []
    counts = cbox.box.counts
    # Imperial ships, Blight and Free buildings destroyed wait in Trophies (BR-139, BR-179, BR-237)
    trophies = Counter((t.owner, t.kind) for p in state.players for t in p.trophies if t.owner < 0)
    blight_taken = sum(k for (owner, kind), k in trophies.items() if kind == BLIGHT_TROPHY)
    pieces = {
        "Imperial ships": (state.imperial, state.imperial_supply, counts["imperial_ships"],
                           trophies[EMPIRE, "ship"] + state.hunger.count(EMPIRE)  # on Blight Hunger (F1313)
                           + state.scrapped_ships.count(EMPIRE)  # scrapped at the Portal (F909)
                           + imperial_captives(state)  # captured by Pacify (F1012)
                           + state.dead_live.count(EMPIRE)),  # on The Dead Live (F2204)
        "Blight": (state.blight, state.blight_supply, counts["blight"], blight_taken),
    }
    for name, (where, supply, total, taken) in pieces.items():
        if supply < 0 or any(p.fresh < 0 or p.damaged < 0 for p in where.values()):
            out.append(f"negative {name}")
        if supply + sum(p.total for p in where.values()) + taken != total:
            out.append(f"{name} on the map, in Trophies and in supply are not {total}")
        if set(where) - set(state.systems):
            out.append(f"{name} in a system not on the map")
    free = Counter(b.kind for s in state.systems.values() for b in s.buildings if b.owner == FREE)
    for kind, name, supply, total in (("city", "cities", state.free_city_supply, counts["free_cities"]),
                                      ("starport", "starports", state.free_starport_supply, counts["free_starports"])):
        proxies = state.free_proxies.get(kind, 0)  # BR-182: proxies only while that supply is empty
        if (supply < 0 or proxies < 0 or (proxies and supply)
                or free[kind] + trophies[FREE, kind] + worlds_free_buildings(state, kind) + supply - proxies != total):
            out.append(f"Free {name} are not {total}")
    for system, s in state.systems.items():
        planet = box.systems[system]
        # The base Lore lifts the slots (the campaign's Court deals it too, BR-034): Cloud Cities
        # one city beyond a planet's slots, Gate Ports and Gate Stations a starport and a city
        # in a gate; the card may have changed hands since, so those are always allowed.
        if planet is not None:
            beyond = len(s.buildings) - planet.slots
            if beyond > 1 or (beyond == 1 and not any(b.kind == "city" and b.owner >= 0 for b in s.buildings)):
                out.append(f"{system} holds more buildings than slots")
        elif sorted(b.kind for b in s.buildings) not in ([], ["city"], ["starport"], ["city", "starport"]) \
                or any(b.owner < 0 for b in s.buildings):
            out.append(f"{system} holds more buildings than slots")
    return out


def _cards(cbox: CampaignBox, state: BlightedReachState) -> list[str]:
    """Every Court, Lore and Fate Set card in play is in one place; the campaign Court, the
    Council (either side) and the base Lore are always somewhere (Fate Set cards come and go)."""
    out = []
    row = [c for c in state.court_row if c and not is_council(c)]
    places = [*state.court_deck, *row, *state.court_discard, *state.resolving,
              *state.lore_deck, *state.scrapped, *(c for slot in state.booklet for c in slot),
              *(c for p in state.players for c in (*p.guild, *p.lore)), *(u.card for u in state.unions),
              *(c for area in state.play_area for c in area), *state.attached.values(), *state.monopoly_supply,
              *state.reminders, *state.pilgrim_tucked, *state.hammer_tucked, *state.worlds_supply]
    seen = Counter(places)
    twice = sorted(c for c, k in seen.items() if k > 1)
    if twice:
        out.append(f"cards in two places: {', '.join(twice)}")
    missing = sorted(c for c in [*cbox.court, *arcs_box().lore] if c not in seen)  # the base Lore; Fates' come and go
    if missing:
        out.append(f"cards missing from play: {', '.join(missing)}")
    sides = [c for c in state.court_row if is_council(c)]
    if is_tucked(state):  # secured this round: out of the row until the round's end (BR-164)
        if state.council != DECIDED or sides:
            out.append("a secured Imperial Council is not Decided and tucked")
    elif sides != [state.council] or state.court_row[:1] != [state.council]:
        out.append("the Imperial Council is not the leftmost Court card, showing its side")
    court = {*state.court_deck, *row, *state.court_discard, *state.resolving, *state.attached.values()}
    if EVENT in places or FATE_EVENTS & court:  # a Fate's Event card may be scrapped with its Fate Set
        out.append("an Event card is among the Court cards")
    return out

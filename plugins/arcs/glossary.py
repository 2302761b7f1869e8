"""Names and short effect readings for the ids an Arcs viewer's view names (core/glossary.py).

The content files give names and a structured effect per card (`Ability`: when + op), not
printed text, so each entry's text is read out of that structure in this project's words.
Only ids the viewer may know get an entry: the view is already redacted, and an action card
in another seat's hand is dropped from it all the same (ARCS-281); a log entry's own events
(`__events__`, redacted for this viewer) may name a card the viewer was shown.
"""
from __future__ import annotations

import re

from core.glossary import strings_in
from plugins.arcs.content import Ability, Box

RESOURCE_NAMES = {"material": "Material", "fuel": "Fuel", "weapon": "Weapon", "relic": "Relic", "psionic": "Psionic"}

# What each ambition counts (ARCS-230): the most wins first place.
AMBITION_TEXT = {
    "tycoon": "most Material and Fuel (resources and Guild cards)",
    "tyrant": "most Captives",
    "warlord": "most Trophies",
    "keeper": "most Relics (resources and Guild cards)",
    "empath": "most Psionics (resources and Guild cards)",
}

WHERE = {"gate": "in a gate", "each_gate": "in each gate", "controlled_system": "in a system you control",
         "any": "anywhere", "": ""}

WHEN = {
    "always": "Always", "prelude": "Prelude", "prelude_discard": "Prelude, discard this",
    "prelude_first_discard": "First in the Prelude, discard this", "new_action": "New action",
    "secured": "When secured", "declare": "When you declare", "surpass_or_pivot": "When you Surpass or Pivot",
    "battle": "When you battle", "battle_roll": "After your attack roll", "defend": "When you defend",
    "after_attack": "After you attack", "after_defend": "After you defend", "after_scoring": "After scoring",
    "scoring": "While scoring", "outrage": "When you are Outraged", "stolen": "When stolen",
    "move": "When you move", "rival_moves_in": "When a Rival moves in", "setup": "At setup",
    "copy_or_pivot_tax": "Copy or Pivot to tax", "copy_or_pivot_battle": "Copy or Pivot to battle",
    "copy_or_pivot_secure": "Copy or Pivot to secure",
}

# op -> a reading with the ability's fields ({count}, {resource}, ...) filled in.
DOES = {
    "keep_card": "keep this card", "spend_any_as": "spend any resource as {resource}",
    "prelude_despite_outrage": "use {resource}'s Prelude action even when Outraged",
    "place_ships": "place {count} ships {where}", "attach_union": "attach to a played {suit} card; take it at round end",
    "hold_supply": "the {resource} supply sits on this card", "rivals_discard_all": "each Rival discards all {resource}",
    "steal": "steal {count} {resource}", "gain": "gain {count} {resource}",
    "gain_to_fill_slots": "gain {resource} to fill your empty slots", "gain_each": "gain one each of {resources}",
    "gain_any": "gain {count} resources of your choice", "extra_dice": "{count} more dice {where}",
    "return_captives_for_resources": "return Captives for a resource each",
    "captives_to_trophies": "turn Captives into Trophies", "reroll": "reroll {die} dice",
    "abduct": "capture Rival agents from a thin Court card", "seize_initiative": "seize the initiative",
    "inspect_and_swap": "look at a Rival's hand, maybe swap a card",
    "redraw_from_discard_bottom": "swap hand cards for the discard's bottom cards",
    "no_zero_marker": "declaring {ambitions} places no zero marker",
    "steal_guild_or_resource": "steal a Guild card or a resource",
    "steal_protection": "Rivals cannot steal from you", "bury_self": "put this card under the Court deck",
    "trade": "swap a resource with a controlled Rival city's owner", "convert": "trade a resource for {resource}",
    "declare_played": "declare the played card's ambition", "place_ship_each_system_of_cluster":
        "place a ship in each system of a cluster", "declare_any": "declare any ambition",
    "everyone_provokes_outrage": "everyone is Outraged in a type you name",
    "return_city_then_seize": "return a controlled city, then you may seize",
    "steal_guild": "steal a Guild card", "reshuffle_court_discard_guilds": "Guild cards in the Court discard go back",
    "draw_discard_bottom": "draw from the discard's bottom", "build_ship_at_controlled_city":
        "build a ship at a controlled city", "fire_rifles": "roll {die} dice for fresh ships at a neighbour",
    "extra_move_fresh": "fresh moved ships may move again", "add_intercept_if_assault": "assault dice add an intercept",
    "build_ships_fresh": "your ships are built fresh", "no_raid_dice_with_fresh_starport":
        "no raid dice against a fresh starport of yours", "ignore_intercept_if_all_fresh":
        "ignore {count} intercept when all attackers are fresh", "repair_attacking_ship": "repair {count} attacking ship",
    "build_in_gates": "build a {building} in a gate", "capture_agent_at_fresh_starport_gate":
        "capture an agent at a gate with your fresh starport", "build_city_off_slots":
        "build a city beyond a planet's slots, paying its type", "tax_loyal_city": "tax a Loyal city",
    "swap_starport_city": "swap a starport for a city", "attacker_takes_hit_if_fresh_defender":
        "attackers take {count} hit if you defend fresh", "extra_resource_slot": "one more resource slot",
    "influence_if_trophies_taken": "influence when Rivals took Trophies from you",
    "rivals_cannot_ransack_you": "Rivals cannot ransack your cities",
    "second_place_only": "first place in {ambitions} earns the second-place Power",
    "start_outraged": "start Outraged in {resources}", "discard_all_if_scored":
        "discard all {resource} when {ambitions} is scored", "tax_loyal_only_if_controlled":
        "tax your cities only where you control", "move_at_most": "move at most {count} ships at a time",
    "move_before_or_after": "move before or after", "influence_before_or_after": "influence before or after",
    "give_guild_to_lowest_power": "give a Guild card to the lowest Power",
    "agent_on_each_court_card": "an agent on each of any Court cards",
    "cannot_secure_guild_with_one_agent": "cannot secure a Guild card with one agent",
}


def _words(value) -> str:
    if isinstance(value, list):
        words = [_words(v) for v in value]
        return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 2 else words) or "—"
    text = str(value or "").replace("_", " ")
    return RESOURCE_NAMES.get(text, text.capitalize() if text in AMBITION_TEXT else text)


def ability_text(ability: Ability) -> str:
    """One ability as a line: "New action (Manufacture, build): gain 1 Material"."""
    fields = {k: _words(getattr(ability, k)) for k in ("resource", "resources", "count", "suit", "where",
                                                      "die", "ambitions", "building")}
    fields["where"] = WHERE.get(ability.where, fields["where"])
    does = DOES.get(ability.do, ability.do.replace("_", " ")).format(**fields)
    does = re.sub(r"\b1 (more )?(ship|resource|hit)s\b", r"1 \1\2", does).replace("1 more dice", "1 more die")
    when = WHEN.get(ability.when, ability.when.replace("_", " "))
    if ability.name:
        when = f"{when} ({ability.name}{', ' + ability.action if ability.action else ''})"
    return f"{when}: {does}"


def abilities_text(abilities: list[Ability]) -> str:
    return "; ".join(ability_text(a) for a in abilities)


def system_entry(box: Box, system: str) -> dict:
    """A system's name and text, and the printed map's facts a table view draws it with
    (cluster, planet type or None for a gate, building slots, bordering systems)."""
    planet = box.systems[system]
    cluster = box.cluster_of(system)
    borders = sorted({b for a, b in box.map.edges if a == system} | {a for a, b in box.map.edges if b == system})
    facts = {"cluster": cluster, "planet": planet.type if planet else None, "slots": planet.slots if planet else 0,
             "adjacent": borders, "public": True}  # printed on the board (core/glossary.py)
    if planet is None:
        return {"kind": "system", "name": f"Gate {cluster}", "text": f"the gate of cluster {cluster}", **facts}
    slots = f"{planet.slots} building slot{'s' if planet.slots > 1 else ''}"
    return {"kind": "system", "name": f"{RESOURCE_NAMES[planet.type]} {system}",
            "text": f"a {RESOURCE_NAMES[planet.type]} planet of cluster {cluster}, {slots}", **facts}


def action_card_entry(box: Box, card: str) -> dict:
    c = next(a for a in box.actions.cards if a.id == card)
    ambition = box.actions.ambition_by_number.get(str(c.number))
    declares = ("declares any ambition" if ambition == "any" else
                f"declares {ambition.capitalize()}" if ambition else "declares nothing")
    pips = f"{c.pips} pip{'s' if c.pips > 1 else ''}"
    return {"kind": "action_card", "name": f"{c.suit.capitalize()} {c.number}",
            "text": f"{pips}: {', '.join(box.actions.suits[c.suit])}; {declares}"}


def entry_for(box: Box, ident: str) -> dict | None:
    """The glossary entry of one id, or None when it names nothing of the box."""
    if ident in box.court:
        card = box.court[ident]
        extra = (f"{RESOURCE_NAMES[card.suit]} Guild card, raid cost {card.raid_cost}. " if card.kind == "guild"
                 else "Vox card. " if card.kind == "vox" else "")
        return {"kind": "court_card", "name": card.name, "text": extra + abilities_text(card.abilities)}
    if ident in box.lore:
        return {"kind": "lore", "name": box.lore[ident].name, "text": abilities_text(box.lore[ident].abilities)}
    if ident in box.leaders:
        leader = box.leaders[ident]
        start = " and ".join(RESOURCE_NAMES[r] for r in leader.resources)
        return {"kind": "leader", "name": leader.name,
                "text": f"starts with {start}. {abilities_text(leader.abilities)}"}
    if ident in box.setups:
        setup = box.setups[ident]
        out_of_play = ", ".join(str(c) for c in setup.out_of_play)
        return {"kind": "setup_card", "name": setup.name, "public": True,
                "text": f"{setup.players} players; cluster{'s' if len(setup.out_of_play) > 1 else ''} {out_of_play} out of play"}
    if ident in AMBITION_TEXT:
        return {"kind": "ambition", "name": ident.capitalize(), "text": AMBITION_TEXT[ident], "public": True}
    if ident in box.systems:
        return system_entry(box, ident)
    if any(a.id == ident for a in box.actions.cards):
        return action_card_entry(box, ident)
    return None


def glossary(box: Box, state, viewer: int | None, view: dict) -> dict:
    """{id: {name, text, kind}} for what this view (and a log entry's events) names, and every
    system of the map."""
    events = view.get("__events__")
    public = strings_in({k: v for k, v in view.items() if k != "__events__"})
    hidden = {c for seat, hand in enumerate(state.hands) if seat != viewer for c in hand}
    named = (public - hidden) | (strings_in(events) if events is not None else set())
    out = {}
    for ident in named:
        entry = entry_for(box, ident)
        if entry is not None:
            out[ident] = entry
    for system in box.systems:  # the map is printed on the board: every system, in play or not
        out[system] = system_entry(box, system)
    return out

"""Destroying a city (digest 7.9): Provoke Outrage, then Ransack the Court; and raiding
with keys (7.10). Pure effects on the state; the choices (which card to ransack, what to
steal) are the flow's typed decisions, checked here."""
from __future__ import annotations

from core.errors import BadParameter, IllegalAction
from core.seats import seat_name
from plugins.arcs.actions import take_court_card
from plugins.arcs.content import Box
from plugins.arcs.placing import receive
from plugins.arcs.state import ArcsState


# A game built on Arcs may let a seat keep Guild cards its Outrage would discard (the
# campaign's Guild Loyalty): fn(box, state, seat, card) -> True to keep it; each answers
# False for a table it does not know.
KEEPS: list = []


# A game built on Arcs may act when a seat Provokes Outrage (the campaign's Sycophants):
# fn(box, state, seat, resource), called after the discards of every Provoking, a repeated
# one's too; each does nothing on a table it does not know.
PROVOKED: list = []


def keeps_on_outrage(box: Box, card: str) -> bool:
    return any(a.when == "outrage" and a.do == "keep_card" for a in box.court[card].abilities)


def provoke_outrage(box: Box, state: ArcsState, seat: int, resource: str) -> None:
    """ARCS-191: discard every token of that type and every Guild card of that suit (but the
    cards kept on Outrage, ARCS-192), then cover the Outrage slot with an agent; ARCS-193: a
    second Outrage of a type discards again but places nothing; ARCS-194: with no agent in
    supply a placeholder covers the slot until one returns. ARCS-195 is UNCERTAIN in the
    digest (18, item 10): Outrage is read as permanent, since no base rule removes it, so
    nothing here or elsewhere ever takes a type out of `outrage`."""
    player = state.players[seat]
    for i, held in enumerate(player.resources):
        if held == resource:
            player.resources[i] = None
            state.supply[resource] += 1
    for card in [c for c in player.guild if box.court[c].suit == resource and not keeps_on_outrage(box, c)
                 and not any(keep(box, state, seat, c) for keep in KEEPS)]:
        player.guild.remove(card)
        state.court_discard.append(card)
    for rule in PROVOKED:
        rule(box, state, seat, resource)
    if resource in player.outrage:
        return
    cover_outrage_slot(player, resource)


def cover_outrage_slot(player, resource: str) -> None:
    """The seat is Outraged in `resource`: an agent from its supply covers that Outrage slot,
    or a placeholder when none is left (ARCS-194)."""
    player.outrage.append(resource)
    if player.agents > 0:
        player.agents -= 1
    else:
        player.outrage_placeholders.append(resource)


def clear_outrage(state: ArcsState, seat: int, resource: str) -> None:
    """A game built on Arcs lifts an Outrage (the base game never does, ARCS-195): the type
    leaves `outrage` and what covered its slot comes off: a placeholder is dropped, an agent
    goes home (`agent_returns`: it first replaces another slot's placeholder, ARCS-194)."""
    player = state.players[seat]
    player.outrage.remove(resource)
    if resource in player.outrage_placeholders:
        player.outrage_placeholders.remove(resource)
    else:
        agent_returns(state, seat)


def agent_returns(state: ArcsState, seat: int, count: int = 1) -> None:
    """Agents coming home first replace Outrage placeholders (ARCS-194), then join the supply."""
    player = state.players[seat]
    for _ in range(count):
        if player.outrage_placeholders:
            player.outrage_placeholders.pop(0)
        else:
            player.agents += 1


def ransack_targets(state: ArcsState, owner: int) -> list[str]:
    """ARCS-196/197: the Court cards holding at least one agent of the city's owner."""
    return [c for c in state.court_row if c and state.court_agents[c][owner] > 0]


def ransack(box: Box, state: ArcsState, seat: int, owner: int, card: str) -> int:
    """Secure `card` without a majority: Rival agents on it become Trophies, the ransacker's own
    go home (ARCS-196). Returns the card's place for the refill after its effect."""
    if card not in ransack_targets(state, owner):
        raise BadParameter(f"{card!r} holds no agent of {seat_name(owner)}")
    return take_court_card(box, state, seat, card, rivals_to="trophies")


def guarded(box: Box, state: ArcsState, victim: int) -> bool:
    """Sworn Guardians: Rivals cannot steal the holder's resources or other Guild cards."""
    return any(a.do == "steal_protection" for c in state.players[victim].guild for a in box.court[c].abilities)


# A game built on Arcs adds rules that keep some of a seat's Guild cards from being stolen
# (the campaign's Honor Guard): fn(box, state, victim, card) -> True when `card` is safe.
GUILD_GUARDS: list = []


def guild_card_guarded(box: Box, state: ArcsState, victim: int, card: str) -> bool:
    """Whether a Rival may not steal this Guild card of the victim's: Sworn Guardians keep
    every other card (not themselves); a game's own guards may keep more."""
    protects = any(a.do == "steal_protection" for a in box.court[card].abilities)
    return (guarded(box, state, victim) and not protects) or any(g(box, state, victim, card) for g in GUILD_GUARDS)


def steal_resource(box: Box, state: ArcsState, thief: int, victim: int, slot: int, keys: int) -> int:
    """Raid one resource: it costs the raid cost of the slot it sits in (ARCS-200/201/212).
    Returns the keys left."""
    player = state.players[victim]
    if not 0 <= slot < len(player.resources) or player.resources[slot] is None:
        raise BadParameter(f"{seat_name(victim)} holds no resource in slot {slot + 1}")
    if guarded(box, state, victim):
        raise IllegalAction(f"{seat_name(victim)}'s resources cannot be stolen")
    from plugins.arcs.lore_ops import slot_raid_cost  # Ancient Holdings' slot costs its own keys

    cost = slot_raid_cost(box, state, victim, slot)
    if cost > keys:
        raise IllegalAction(f"that resource costs {cost} keys; {keys} left")
    resource, player.resources[slot] = player.resources[slot], None  # ARCS-210: the victim rearranges nothing
    receive(state, thief, resource)  # ARCS-202: the thief places it (ARCS-209)
    return keys - cost


def steal_guild_card(box: Box, state: ArcsState, thief: int, victim: int, card: str, keys: int) -> int:
    """Raid one Guild card for its raid cost (ARCS-200/201); Lore is never stolen (ARCS-203).
    Sworn Guardians may itself be stolen, and is then buried under the Court deck."""
    if card not in state.players[victim].guild:
        raise BadParameter(f"{seat_name(victim)} holds no Guild card {card!r}")
    if guild_card_guarded(box, state, victim, card):
        raise IllegalAction(f"{seat_name(victim)}'s Guild card {card} cannot be stolen")
    cost = box.court[card].raid_cost
    if cost > keys:
        raise IllegalAction(f"{card} costs {cost} keys; {keys} left")
    state.players[victim].guild.remove(card)
    if any(a.when == "stolen" and a.do == "bury_self" for a in box.court[card].abilities):
        state.court_deck.append(card)
    else:
        state.players[thief].guild.append(card)
    return keys - cost

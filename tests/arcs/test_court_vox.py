"""The 6 base Vox cards (BC26-BC31): their When Secured effects through `abilities.use`, as
the flow runs them while the card waits in `state.resolving` (ARCS-165, ARCS-224)."""
from __future__ import annotations

from core.errors import BadParameter, IllegalAction
from plugins.arcs.abilities import secured_uses
from plugins.arcs.actions import dispose_vox
from plugins.arcs.state import Ships
from tests.arcs.court_helpers import BOX, env_for, events, give, grant, home, refused, sound, table, use


def test_vox_effects_only_while_being_secured_ARCS_224():
    """ARCS-224: a Vox card acts when secured and never enters a play area: its effect is
    refused unless the card is being resolved; afterwards it is disposed of (ARCS-165)."""
    state = table()
    (u,) = secured_uses(BOX, "BC31", 0)
    refused(env_for(state), u, {}, IllegalAction)
    grant(state, 0, "BC31")
    assert "BC31" not in state.players[0].guild and state.resolving == ["BC31"]
    use(env_for(state), u, {})
    dispose_vox(BOX, state, "BC31")
    assert state.court_discard[-1] == "BC31"
    sound(state)


def test_mass_uprising_a_ship_in_each_system_of_a_cluster_BC26():
    """BC26 Mass Uprising: one ship in each system of a chosen in-play cluster (ARCS-037)."""
    state = table()
    grant(state, 0, "BC26")
    (u,) = secured_uses(BOX, "BC26", 0)
    env = env_for(state)
    refused(env, u, {"cluster": 1}, BadParameter)  # out of play
    refused(env, u, {}, BadParameter)
    systems = ["2.1", "2.2", "2.3", "2G"]
    before = {s: state.systems[s].ships[0].fresh for s in systems}
    use(env, u, {"cluster": 2})
    assert all(state.systems[s].ships[0].fresh == before[s] + 1 for s in systems)
    state.players[0].ships = 2  # short of ships: the holder names the systems (ARCS-276)
    spare = 15 - 2 - sum(x.ships_of(0).total for x in state.systems.values())
    refused(env, u, {"cluster": 3}, BadParameter)
    use(env, u, {"cluster": 3, "systems": ["3G", "3.2"]})
    assert state.players[0].ships == 0
    state.players[0].ships += spare
    dispose_vox(BOX, state, "BC26")
    sound(state)


def test_populist_demands_declare_any_ambition_BC27():
    """BC27 Populist Demands: optionally declare any ambition; it takes the highest Available marker
    (ARCS-242), and nothing can be declared with none Available (ARCS-085)."""
    state = table()
    grant(state, 0, "BC27")
    (u,) = secured_uses(BOX, "BC27", 0)
    env = env_for(state)
    refused(env, u, {"ambition": "glory"}, BadParameter)
    use(env, u, {})
    assert len(state.markers_available) == 3
    use(env, u, {"ambition": "warlord"})
    assert [m.id for m in state.ambition_boxes["warlord"]] == ["A"] and env.moment.declared == "warlord"
    moved, state.markers_available = state.markers_available, []
    refused(env, u, {"ambition": "keeper"}, IllegalAction)
    state.markers_available = moved
    dispose_vox(BOX, state, "BC27")
    sound(state)


def test_outrage_spreads_to_every_player_BC28():
    """BC28 Outrage Spreads: a named type makes every player, the holder too, Provoke Outrage of
    it (ARCS-191: tokens of that type and its Guild cards go, an agent covers the slot); naming
    none does nothing."""
    state = table()
    grant(state, 0, "BC28")
    grant(state, 1, "BC24")  # a Relic Guild card
    for seat in range(3):
        give(state, seat, 0, "relic")
    (u,) = secured_uses(BOX, "BC28", 0)
    env = env_for(state)
    refused(env, u, {"resource": "gold"}, BadParameter)
    use(env, u, {})
    assert all(not p.outrage for p in state.players)
    agents = [p.agents for p in state.players]
    use(env, u, {"resource": "relic"})
    assert all(p.outrage == ["relic"] and "relic" not in p.resources for p in state.players)
    assert [p.agents for p in state.players] == [a - 1 for a in agents] and "BC24" in state.court_discard
    dispose_vox(BOX, state, "BC28")
    sound(state)


def test_song_of_freedom_returns_a_controlled_city_then_may_seize_BC29():
    """BC29 Song of Freedom: a city (anyone's) in a system the holder controls goes back to its
    owner's board (ARCS-249, not destroyed: no Outrage); then the holder may seize, within the
    seize limits (ARCS-102/103; card FAQ); the card is shuffled into the Court deck."""
    state = table()
    holder = (state.initiative + 1) % 3
    owner = (holder + 1) % 3
    grant(state, holder, "BC29")
    city = home(state, owner).a
    state.systems[city].ships[holder] = Ships(fresh=4)
    state.players[holder].ships -= 4
    (u,) = secured_uses(BOX, "BC29", holder)
    env = env_for(state)
    refused(env, u, {"system": home(state, holder).b, "building": 0}, BadParameter)  # a starport
    refused(env, u, {"seize": True}, BadParameter)  # seizing needs a city returned first
    state.seized = True
    refused(env, u, {"system": city, "building": 0, "seize": True}, IllegalAction)
    state.seized = False
    use(env, u, {"system": city, "building": 0, "seize": True})
    assert not state.systems[city].buildings and state.players[owner].cities_on_board == [True] * 5
    assert state.initiative == holder and state.seized and not state.players[holder].outrage
    dispose_vox(BOX, state, "BC29")
    assert "BC29" in state.court_deck
    sound(state)


def test_song_of_freedom_needs_control_ARCS_130():
    """BC29 Song of Freedom: a city in a system the holder does not control stays (ARCS-130)."""
    state = table()
    grant(state, 0, "BC29")
    (u,) = secured_uses(BOX, "BC29", 0)
    refused(env_for(state), u, {"system": home(state, 1).a, "building": 0}, IllegalAction)


def test_guild_struggle_steal_then_reshuffle_discarded_guilds_BC30():
    """BC30 Guild Struggle: optionally steal one Guild card from a Rival (Sworn Guardians
    protect the others); then every Guild card in the Court discard is shuffled into the deck
    (a public shuffle event)."""
    state = table()
    grant(state, 0, "BC30")
    grant(state, 1, "BC13")
    grant(state, 2, "BC22")
    grant(state, 2, "BC12")
    for card in ("BC01", "BC02", "BC31"):  # two Guild cards and a Vox card lie discarded
        grant(state, 1, card)
        (state.players[1].guild if card != "BC31" else state.resolving).remove(card)
        state.court_discard.append(card)
    steal, shuffle = secured_uses(BOX, "BC30", 0)
    env = env_for(state)
    refused(env, steal, {"rival": 2, "card": "BC12"}, IllegalAction)
    refused(env, steal, {"rival": 1, "card": "BC12"}, BadParameter)
    use(env, steal, {"rival": 1, "card": "BC13"})
    assert "BC13" in state.players[0].guild
    use(env, shuffle, {})
    assert state.court_discard == ["BC31"]
    assert {"BC01", "BC02"} <= set(state.court_deck)
    assert events(env, "shuffle")[0].data == {"what": "court deck", "count": len(state.court_deck)}
    dispose_vox(BOX, state, "BC30")
    sound(state)


def test_call_to_action_draws_the_discard_bottom_privately_BC31():
    """BC31 Call to Action: the bottom card of the action discard joins the hand; only its
    taker sees which card it is (ARCS-281)."""
    state = table()
    grant(state, 0, "BC31")
    (u,) = secured_uses(BOX, "BC31", 0)
    env = env_for(state)
    refused(env, u, {"card": "x"}, BadParameter)
    bottom = state.action_discard[-1]
    use(env, u, {})
    assert state.hands[0][-1] == bottom and bottom not in state.action_discard
    drawn = events(env, "cards_drawn")[0]
    assert drawn.to == [0] and drawn.public == {"seat": 0, "count": 1}
    dispose_vox(BOX, state, "BC31")
    sound(state)

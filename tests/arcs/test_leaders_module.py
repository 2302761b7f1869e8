"""The Leaders & Lore module run through the kernel (core.flow, real typed prompts) on a
small stand-in for the Arcs game: it sets up map and Court with the real setup, calls the
game's module hooks (`arcs_setup_steps`, `arcs_place_starting_pieces`) as the game plugin
does, and ends when the starting pieces are down."""
from __future__ import annotations

import sys

import pytest

from core.engine import create_table, legal_actions, replay, view
from core.errors import BadParameter, IllegalAction, NotYourTurn
from core.flow import StepTable
from core.hookspecs import hookimpl
from core.plugins import GameSpec, OptionSpec, Registry
from core.state import Action
from core.turn_order import clockwise
from plugins.arcs import hookspecs as arcs_hookspecs
from plugins.arcs.invariants import problems
from plugins.arcs.setup import set_up
from plugins.arcs.state import ArcsState, Ships, SystemState
from tests.arcs.test_actions import BOX

steps = StepTable("harness")


@hookimpl
def conclave_register_games():
    return [GameSpec(id="arcs", name="Arcs (test stand-in)", min_players=2, max_players=4,
                     plugin=sys.modules[__name__], hookspecs=arcs_hookspecs, state_type=ArcsState,
                     options={"lore_per_player": OptionSpec(default=1, choices=(1, 2))})]


@hookimpl
def conclave_initial_state(game, seats, seed, options, modules):
    return ArcsState(game=game, seats=seats, seed=seed, options=options, modules=modules)


@hookimpl
def conclave_step_handlers():
    return steps


def without_starting_pieces(state: ArcsState) -> None:
    """Standard setup, then its starting pieces and resources taken back: the table as it
    stands when the modules' setup steps run."""
    n = len(state.players)
    state.systems = {s: SystemState(ships=[Ships() for _ in range(n)]) for s in state.systems}
    for p in state.players:
        p.ships, p.starports, p.cities_on_board = 15, 5, [True] * 5
        for r in p.resources:
            if r:
                state.supply[r] += 1
        p.resources = [None] * 6


@hookimpl(tryfirst=True)
def conclave_setup(ctx):
    set_up(BOX, ctx.state)
    without_starting_pieces(ctx.state)
    ctx.push(place_pieces)
    ctx.hook.arcs_setup_steps(ctx=ctx)  # the modules' steps run first


@steps("place_pieces")
def place_pieces(ctx):
    state = ctx.state
    placed_by_module = [seat for seat in clockwise(state.initiative, len(state.players))
                        if ctx.hook.arcs_place_starting_pieces(ctx=ctx, seat=seat)]
    ctx.finish({"placed_by_module": placed_by_module})


def registry() -> Registry:
    return Registry([sys.modules[__name__], "plugins.leaders_and_lore.plugin"], load_entry_points=False)


REGISTRY = registry()


def table(players: int = 3, seed: int = 4, options: dict | None = None):
    return create_table("arcs", players, seed=seed, modules=["leaders-and-lore"], options=options, registry=REGISTRY)


def draft_through(t) -> list[int]:
    """Answer every pick with the first legal card; the seats in the order they were asked."""
    asked = []
    while not t.state.finished:
        (prompt,) = t.state.prompts
        asked.append(prompt.seat)
        t.act(prompt.seat, legal_actions(t.state, prompt.seat, t.rules)[0])
    return asked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_module_drafts_in_reverse_order_then_lays_out_leaders_ARCS_262_263_264(players):
    """The draft through real prompts: rows of players + 1 (ARCS-262), reverse turn order
    from the holder's right (ARCS-263), one typed pick at a time; then every seat's Leader
    layout replaces the standard pieces (ARCS-264) and the pieces add up."""
    t = table(players)
    state = t.state
    rows = state.module_state["leaders-and-lore"]
    assert len(rows["leaders"]) == len(rows["lore"]) == players + 1
    assert [e.type for e in t.events].count("shuffle") >= 2  # the rows' shuffles are public events
    (prompt,) = state.prompts
    assert prompt.seat == (state.initiative - 1) % players and prompt.decision == "lal.pick"
    offered = {a.params["card"] for a in legal_actions(state, prompt.seat, t.rules)}
    assert offered == set(rows["leaders"]) | set(rows["lore"])
    asked = draft_through(t)
    order = [(t.state.initiative - 1 - i) % players for i in range(players)]
    assert asked == order * 2
    final = t.state
    assert final.result == {"placed_by_module": clockwise(final.initiative, players)}
    for seat, p in enumerate(final.players):
        leader = BOX.leaders[p.leader]
        on_map = sum(s.ships_of(seat).total for s in final.systems.values())
        c_systems = len(BOX.setups[final.setup_card].positions[0].c)
        assert on_map == leader.a.ships + leader.b.ships + leader.c.ships * c_systems
        assert p.resources[:2] == leader.resources and len(p.lore) == 1
    assert problems(BOX, final) == []
    assert t.rules.hook.conclave_check_invariants(state=final) == [[]]
    assert final.module_state["leaders-and-lore"]["leaders"] == []  # the rest went back to the box


def test_module_refusals_change_nothing_ARCS_263():
    """Out-of-turn picks, cards not in a row, a second Leader: typed refusals, no change."""
    t = table(3, seed=9)
    (prompt,) = t.state.prompts
    seat, other = prompt.seat, (prompt.seat + 1) % 3
    rows = t.state.module_state["leaders-and-lore"]
    before = t.state
    with pytest.raises(NotYourTurn):
        t.act(other, Action("draft_pick", {"card": rows["leaders"][0]}))
    with pytest.raises(BadParameter):
        t.act(seat, Action("draft_pick", {"card": "LEAD99"}))
    with pytest.raises(BadParameter):
        t.act(seat, Action("draft_pick", {"card": 3}))
    with pytest.raises(IllegalAction):
        t.act(seat, Action("pass", {}))
    assert t.state is before and t.state.version == before.version
    # three picks later the first picker is asked again and may not take a second Leader
    t.act(seat, Action("draft_pick", {"card": rows["leaders"][0]}))
    for _ in range(2):
        (p,) = t.state.prompts
        t.act(p.seat, legal_actions(t.state, p.seat, t.rules)[-1])  # a Lore card
    (p,) = t.state.prompts
    assert p.seat == seat
    rows = t.state.module_state["leaders-and-lore"]
    with pytest.raises(IllegalAction):
        t.act(seat, Action("draft_pick", {"card": rows["leaders"][0]}))
    assert {a.params["card"] for a in legal_actions(t.state, seat, t.rules)} == set(rows["lore"])


def test_module_two_lore_variant_ARCS_266():
    """ARCS-266 through the table option: 2 x players + 1 Lore face up, three picks each."""
    t = table(2, seed=3, options={"lore_per_player": 2})
    assert len(t.state.module_state["leaders-and-lore"]["lore"]) == 5
    assert len(draft_through(t)) == 6
    assert all(p.leader and len(p.lore) == 2 for p in t.state.players)
    assert problems(BOX, t.state) == []


def test_module_setup_instructions_and_lore_slot_after_the_draft_ARCS_265():
    """ARCS-265: a drafted Mystic is Outraged in Material and Fuel once the draft is done; a
    drafted Ancient Holdings brings its slot."""
    for seed in range(40):
        t = table(4, seed=seed)
        rows = t.state.module_state["leaders-and-lore"]
        if "LEAD02" in rows["leaders"] and "L13" in rows["lore"]:
            break
    else:
        pytest.skip("no seed put both cards in the rows")
    first = t.state.prompts[0].seat
    t.act(first, Action("draft_pick", {"card": "LEAD02"}))
    second = t.state.prompts[0].seat
    t.act(second, Action("draft_pick", {"card": "L13"}))
    assert t.state.players[first].outrage == []  # not before the whole draft
    draft_through(t)
    assert t.state.players[first].outrage == ["material", "fuel"]
    assert len(t.state.players[second].resources) == 7
    assert [e.data for e in t.events if e.type == "outraged_at_setup"] == [{"seat": first,
                                                                           "resources": ["material", "fuel"]}]
    assert problems(BOX, t.state) == []


def test_module_rows_are_public_and_the_draft_replays():
    """The rows are face up: every viewer sees them; the same seed and picks rebuild the table."""
    t = table(3, seed=11)
    rows = t.state.module_state["leaders-and-lore"]
    for viewer in (None, 0, 1, 2):
        assert view(t.rules, t.state, viewer)["module_state"]["leaders-and-lore"]["leaders"] == rows["leaders"]
    draft_through(t)
    again = replay("arcs", 3, 11, t.log, modules=["leaders-and-lore"], registry=REGISTRY)
    assert again.state == t.state


def test_module_is_off_unless_enabled():
    """Without the module nobody drafts and the hook answers nothing, so the game places
    its standard pieces itself."""
    t = create_table("arcs", 3, seed=4, registry=REGISTRY)
    assert t.state.finished and t.state.result == {"placed_by_module": []}
    assert all(p.leader is None and p.lore == [] for p in t.state.players)

"""Campaign tables driven through the engine for the flow tests: Act I setup answered
seat by seat, and rounds restarted from chosen hands."""
from __future__ import annotations

from core.engine import create_table, legal_actions
from core.flow import Ctx, run
from core.state import Action
from plugins.arcs.rounds import round_start

GAME = "blighted-reach"
# Fates a test keeps when it only needs *a* Fate (a fixed list: tests built their tables on it).
PLAIN_FATES = ("FATE01", "FATE02", "FATE03", "FATE04", "FATE06", "FATE07")


def table(players: int = 3, seed: int = 1):
    return create_table(GAME, players, seed=seed)


def seed_offering(players: int, wanted: dict[int, str], start: int = 1):
    """The first seed from `start` whose Act I offers each seat in `wanted` that Fate."""
    seed = start
    while True:
        t = table(players, seed)
        offers = t.state.fate_offers
        if all(f in offers[s] for s, f in wanted.items()) and \
                all(any(f in PLAIN_FATES for f in offer) for s, offer in enumerate(offers) if s not in wanted):
            return t
        seed += 1


def choose_fates(t, wanted: dict[int, str] | None = None) -> None:
    """Every seat keeps the wanted Fate, else the first of its offer without Fate-specific setup."""
    wanted = wanted or {}
    for seat in range(len(t.state.players)):
        offer = t.state.fate_offers[seat]
        fate = wanted.get(seat) or next((f for f in offer if f in PLAIN_FATES), offer[0])
        t.act(seat, Action("choose_fate", {"fate": fate}))


def place_all(t) -> None:
    """Every starting placement with the seat's first offered spot."""
    while t.state.placement_order:
        seat = t.state.placement_order[0]
        t.act(seat, legal_actions(t.state, seat, t.rules)[0])


def ready(players: int = 3, seed: int = 1, wanted: dict[int, str] | None = None):
    """A table at the first round of Act I (2 players: the mulligan declined)."""
    t = seed_offering(players, wanted, seed) if wanted else plain_table(players, seed)
    choose_fates(t, wanted)
    place_all(t)
    if players == 2:
        other = 1 - t.state.initiative
        t.act(other, Action("mulligan", {"redraw": False}))
    return t


def plain_table(players: int = 3, seed: int = 1):
    """The first table from `seed` where every seat is offered a Fate of PLAIN_FATES."""
    while True:
        t = table(players, seed)
        if all(any(f in PLAIN_FATES for f in offer) for offer in t.state.fate_offers):
            return t
        seed += 1


def restart_round(t, hands: list[list[str]], initiative: int = 0) -> None:
    """Give the seats these hands (the other action cards to the discard) and start a round."""
    s = t.state
    everything = [c for h in s.hands for c in h] + s.action_discard
    for card in (c for h in hands for c in h):
        everything.remove(card)
    s.hands = [list(h) for h in hands]
    s.action_discard = everything
    s.initiative, s.prompts, s.stack = initiative, [], []
    ctx = Ctx(s, t.rules)
    ctx.push(round_start)
    run(ctx)


def options(t, seat: int) -> list[Action]:
    return legal_actions(t.state, seat, t.rules)


class PlainFateBot:
    """The kernel's RandomBot, but a Fate choice takes a Fate of PLAIN_FATES when offered one."""

    def __init__(self, seed: int) -> None:
        from core.bot import RandomBot

        self.bot = RandomBot(seed)

    def choose(self, table):
        seat, action = self.bot.choose(table)
        if action.type == "choose_fate":
            offered = [a for a in legal_actions(table.state, seat, table.rules) if a.params["fate"] in PLAIN_FATES]
            if offered:
                action = offered[0]
        return seat, action


class KeepFateBot:
    """PlainFateBot, but `seat` keeps `fate` whenever its offer holds it (a Fate under test
    played on into the next Act)."""

    def __init__(self, seed: int, seat: int, fate: str) -> None:
        self.bot, self.seat, self.fate = PlainFateBot(seed), seat, fate

    def choose(self, table):
        seat, action = self.bot.choose(table)
        if action.type == "choose_fate" and seat == self.seat:
            keep = [a for a in options(table, seat) if a.params.get("fate") == self.fate]
            action = keep[0] if keep else action
        return seat, action


def acts_two_and_three(t, seed: int, seat: int, fate: str, check_third=None, check_end=None) -> tuple[int, int]:
    """Bots play Act II's table `t` to its end (`seat` keeping `fate` at its Intermission),
    its log sheet saved into a campaign, then Act III's table from it to the campaign's end,
    the invariants after every action; `check_third(table)` looks at Act III before play (its
    Setup sides may still be asking), `check_end(table)` after it. Returns each Act's actions."""
    bot = KeepFateBot(seed, seat, fate)
    second = play_checked(t, bot)
    players = len(t.state.players)
    campaign = {"players": players, "acts_played": 1, "log": None, "finished": False, "winner": -1, "acts": []}
    t.rules.hook.conclave_campaign_save(state=t.state, campaign=campaign)
    assert campaign["acts_played"] == 2 and not campaign["finished"]
    third_table = create_table(GAME, players, seed=seed + 1, campaign=campaign)
    if check_third is not None:
        check_third(third_table)
    third = play_checked(third_table, bot)
    if check_end is not None:
        check_end(third_table)
    return second, third


def play_out(t, seed: int, max_actions: int = 20_000) -> int:
    """Random bots play the table to its end (Fates chosen among PLAIN_FATES where offered);
    returns the actions, checking the invariants after each."""
    return play_checked(t, PlainFateBot(seed), max_actions)


def play_checked(t, bot, max_actions: int = 20_000) -> int:
    """`bot` plays the table to its end, the invariants checked after every action; returns
    the actions."""
    actions = 0
    while not t.state.finished:
        seat, action = bot.choose(t)
        t.act(seat, action)
        actions += 1
        problems = [p for found in t.rules.hook.conclave_check_invariants(state=t.state) for p in found]
        assert problems == [], f"after action {actions}: {problems}"
        assert actions < max_actions
    return actions


def fate_rule_missing(exc: Exception) -> bool:
    """A Fate's own rule not written yet: the engine says so and names it (tests that need a
    whole Act skip such tables until the Fate is done)."""
    from plugins.blighted_reach.fate_steps import RuleMissing

    return isinstance(exc, RuleMissing) or "not implemented" in str(exc)


def table_holding(players: int, seed: int, fate: str):
    """A table at Act I's first round where seat 0 holds `fate` and every other seat a Fate of
    PLAIN_FATES (2 players: the mulligan declined)."""
    return ready(players, seed, wanted={0: fate})

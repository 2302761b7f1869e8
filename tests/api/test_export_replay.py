"""`conclave export TABLE_ID` writes a finished game's record from the SQL database in the
format `conclave replay` reads; replay checks the seed against the table's commitment and
rebuilds the game (the same final state and result), and names what is wrong with a bad
file (exit code 2, no traceback)."""
from __future__ import annotations

import asyncio
import json

import pytest
from typer.testing import CliRunner

from api.cli import app
from api.db import Database
from api.live.memory import MemoryStore
from core.seeds import commitment
from api.service import TableService
from api.settings import Settings
from core import view
from core.bot import RandomBot
from core.engine import Table
from core.plugins import BUILTIN_PLUGINS, Registry
from tests.api.test_archive_fits import play


def cli(*args, env=None):
    result = CliRunner().invoke(app, list(args), env=env)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception  # no crash
    return result


@pytest.fixture(scope="module")
def archived(tmp_path_factory):
    """A SQLite database with a finished New Capital game and a campaign's second Queen's
    Dilemma game (seeds drawn by the server), and the final tables as the server had them."""
    url = f"sqlite:///{tmp_path_factory.mktemp('export') / 'games.sqlite3'}"
    db = Database(url)
    service = TableService(Registry(list(BUILTIN_PLUGINS), load_entry_points=False), MemoryStore(db), db,
                           Settings(rate_per_second=1e9, rate_burst=10**9))

    async def scenario():
        nc = await service.create_table("new-capital", 2)
        nc = await play(service, nc, bot_seed=3)
        campaign = await service.create_campaign("queens-dilemma", 3)
        first = await service.start_next_game(campaign.id)
        await play(service, first, bot_seed=4)
        second = await service.start_next_game(campaign.id)  # starts from the first game's save
        second = await play(service, second, bot_seed=5)
        clocked = await clocked_game_played_by_the_referee(service)
        await service.close()
        return {"new-capital": nc, "queens-dilemma": second, "arcs-clocked": clocked}

    tables = asyncio.run(scenario())
    db.engine.dispose()
    return url, tables


async def clocked_game_played_by_the_referee(service):
    """An Arcs table with a bank clock: a few moves by its players, then the host marks both
    seats absent and the referee's bots play it to its end (each action with its time)."""
    created = await service.create_table("arcs", 2, options={"clock": "bank", "clock_seconds": 600,
                                                             "clock_increment": 5})
    loaded = created.table
    tokens = [(await service.join(loaded.id, s, "p", created.join_code))[0] for s in range(2)]
    loaded = await service.load(loaded.id)
    bot = RandomBot(6)
    for _ in range(6):
        seat, action = bot.choose(Table(rules=loaded.rules, state=loaded.state))
        loaded = await service.act(loaded.id, tokens[seat], {"type": action.type, "params": dict(action.params)})
    for seat in range(2):
        loaded = await service.mark_away(loaded.id, created.host_token, seat)
    while not loaded.state.finished:
        await service.referee_turn(loaded.id)
        loaded = await service.load(loaded.id)
    return loaded


@pytest.mark.parametrize("game", ["new-capital", "queens-dilemma", "arcs-clocked"])
def test_export_writes_what_replay_rebuilds_and_the_seed_matches_its_commitment(archived, game, tmp_path):
    url, tables = archived
    final = tables[game]
    exported = cli("export", final.id, env={"DATABASE_URL": url})
    assert exported.exit_code == 0, exported.output
    record = json.loads(exported.stdout)
    assert record["table_id"] == final.id and record["seed"] == final.meta["seed"]
    assert record["seed_commitment"] == commitment(final.id, record["seed"]) and record["seed_chosen"] is False
    assert record["campaign"] == final.meta["campaign_at_start"] and len(record["log"]) == final.version
    if game == "queens-dilemma":
        assert record["campaign"]["games_played"] == 1  # the second game starts from the first's save
    if game == "arcs-clocked":  # every action's time, so the replay charges the clocks the same
        assert record["times"] and len(record["times"]) == len(record["log"]) and None not in record["times"]
        assert [a["type"] for _seat, a in record["log"]][:1] == ["clock_start"]
    else:
        assert record["times"] is None
    path = tmp_path / "game.json"
    assert cli("export", final.id, "--out", str(path), env={"DATABASE_URL": url}).exit_code == 0
    assert json.loads(path.read_text()) == record
    replayed = cli("replay", str(path))
    assert replayed.exit_code == 0, replayed.output
    assert "matches the commitment" in replayed.stderr
    assert json.loads(replayed.stdout) == json.loads(json.dumps(view(final.rules, final.state, None)))


def test_export_of_an_unknown_table_says_so(archived):
    url, _ = archived
    result = cli("export", "nosuchtable", env={"DATABASE_URL": url})
    assert result.exit_code == 2 and "no finished game 'nosuchtable'" in result.stderr


def bad_files(record: dict) -> dict[str, tuple[str, str]]:
    """name -> (file text, words the error must contain)."""
    missing = {k: v for k, v in record.items() if k != "seed"}
    wrong = dict(record, players="two")
    illegal = json.loads(json.dumps(record))
    illegal["log"][4][1] = {"type": "no_such_move", "params": {}}
    other_seed = dict(record, seed=record["seed"] + 1)
    bad_action = json.loads(json.dumps(record))
    bad_action["log"][0] = [0, {"kind": "x"}]
    return {
        "not json": ("{ this is not json", "not JSON"),
        "not an object": ("[1, 2, 3]", "not a game record"),
        "missing key": (json.dumps(missing), "missing required field `seed`"),
        "wrong type": (json.dumps(wrong), "Expected `int`, got `str` - at `$.players`"),
        "malformed action": (json.dumps(bad_action), "$.log[0][1]"),
        "illegal action": (json.dumps(illegal), "log entry 5"),
        "seed not committed": (json.dumps(other_seed), "does not match the commitment"),
        "wrong result": (json.dumps(dict(record, result={"winners": [9]})), "is not the replay's"),
        "wrong version": (json.dumps(dict(record, version=1)), "replays to"),
    }


def test_replay_names_what_is_wrong_with_a_bad_file(archived, tmp_path):
    url, tables = archived
    record = json.loads(cli("export", tables["new-capital"].id, env={"DATABASE_URL": url}).stdout)
    for name, (text, words) in bad_files(record).items():
        path = tmp_path / f"{name.replace(' ', '_')}.json"
        path.write_text(text)
        result = cli("replay", str(path))
        assert result.exit_code == 2, (name, result.output)
        assert words in result.stderr and result.stdout == "", (name, result.stderr)
    missing = cli("replay", str(tmp_path / "absent.json"))
    assert missing.exit_code == 2 and "cannot read" in missing.stderr

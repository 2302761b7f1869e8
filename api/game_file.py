"""A finished game as a file: what `conclave export` writes and `conclave replay` reads.

One JSON object (`GameFile`): the creation arguments (game, players, seed, modules, options,
and for a campaign game the campaign state it started from), the accepted actions in order
as `[seat, {"type", "params"}]`, and what lets anyone check the dealing: the table id and
the seed commitment the table showed from its start (core/seeds.py), and the recorded result
and final version. Only `game`, `players`, `seed` and `log` are required, so a hand-written
log replays too. Every problem with a file is a `GameFileError` naming what is wrong.
"""
from __future__ import annotations

from typing import Any

import msgspec

from core.engine import Table, create_table
from core.errors import ConclaveError
from core.seats import seat_name
from core.state import Action

FORMAT = "conclave-game/1"


class GameFile(msgspec.Struct, kw_only=True):
    game: str
    players: int
    seed: int
    log: list[tuple[int, Action]]
    times: list[int | None] | None = None  # a clocked table's: the server's time of each action (core/clock.py)
    modules: list[str] = []
    options: dict[str, Any] = {}
    campaign: dict[str, Any] | None = None  # the campaign state at the game's start
    table_id: str | None = None
    seed_commitment: str | None = None
    seed_chosen: bool | None = None
    result: dict[str, Any] | None = None
    version: int | None = None
    format: str = FORMAT


class GameFileError(Exception):
    """A game file that cannot be read or replayed; the message says what is wrong."""


def decode(data: bytes) -> GameFile:
    """Parse and type-check a game file (not JSON, a missing key, a wrong type: GameFileError)."""
    try:
        return msgspec.json.decode(data, type=GameFile)
    except msgspec.DecodeError as exc:  # ValidationError is a DecodeError: wrong shape or type
        kind = "not a game record" if isinstance(exc, msgspec.ValidationError) else "not JSON"
        raise GameFileError(f"{kind}: {exc}") from None


def encode(record: GameFile) -> bytes:
    return msgspec.json.format(msgspec.json.encode(record), indent=1)


def replay(record: GameFile, registry=None) -> Table:
    """The game rebuilt from its record, checked against what the record says about it:
    the seed against its commitment, the result and version against the replay's."""
    if record.seed_commitment is not None:
        from core.seeds import matches

        if record.table_id is None:
            raise GameFileError("the record has a seed_commitment but no table_id to check it with")
        if not matches(record.table_id, record.seed, record.seed_commitment):
            raise GameFileError(f"the seed {record.seed} does not match the commitment {record.seed_commitment} "
                                f"of table {record.table_id}")
    try:
        table = create_table(record.game, record.players, seed=record.seed, modules=record.modules,
                             options=record.options, registry=registry, campaign=record.campaign)
    except ConclaveError as exc:
        raise GameFileError(f"the table cannot be created: [{exc.code}] {exc.message}") from None
    except Exception as exc:  # noqa: BLE001 - e.g. a campaign state of the wrong shape
        raise GameFileError(f"the table cannot be created: {type(exc).__name__}: {exc}") from None
    if record.times is not None and len(record.times) != len(record.log):
        raise GameFileError(f"the record has {len(record.times)} action times for {len(record.log)} actions")
    for n, (seat, action) in enumerate(record.log, start=1):
        try:
            table.act(seat, action, at=None if record.times is None else record.times[n - 1])
        except ConclaveError as exc:
            raise GameFileError(f"log entry {n} ({seat_name(seat)}, {action.type!r}) is illegal: "
                                f"[{exc.code}] {exc.message}") from None
        except Exception as exc:  # noqa: BLE001 - rules meeting data they never produce
            raise GameFileError(f"log entry {n} ({seat_name(seat)}, {action.type!r}) cannot be applied: "
                                f"{type(exc).__name__}: {exc}") from None
    if record.version is not None and record.version != table.state.version:
        raise GameFileError(f"the record says version {record.version}; its log replays to {table.state.version}")
    replayed = msgspec.json.decode(msgspec.json.encode(table.state.result))
    if record.result is not None and record.result != replayed:
        raise GameFileError(f"the record's result {record.result} is not the replay's {replayed}")
    return table


def export(database_url: str, table_id: str) -> GameFile:
    """A finished game's record from the SQL database (read only: no migration runs)."""
    from sqlmodel import Session, select

    from api.db import GameAction, GameRecord, make_engine

    engine = make_engine(database_url)
    try:
        with Session(engine) as s:
            record = s.get(GameRecord, table_id)
            if record is None:
                raise GameFileError(f"no finished game {table_id!r} in the database")
            actions = list(s.exec(select(GameAction).where(GameAction.game_id == table_id)
                                  .order_by(GameAction.version)))
    finally:
        engine.dispose()
    if [a.version for a in actions] != list(range(1, len(actions) + 1)):
        raise GameFileError(f"the stored actions of {table_id!r} are not versions 1-{len(actions)}")
    return GameFile(game=record.game, players=record.players, seed=record.seed, modules=list(record.modules),
                    options=dict(record.options), campaign=record.campaign_at_start, table_id=record.id,
                    seed_commitment=record.seed_commitment or None, seed_chosen=record.seed_chosen,
                    result=record.result, version=record.version,
                    log=[(a.seat, msgspec.convert(a.action, Action)) for a in actions],
                    times=[a.at for a in actions] if any(a.at is not None for a in actions) else None)

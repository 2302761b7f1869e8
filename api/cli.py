"""The `conclave` command line (typer + rich)."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

app = typer.Typer(help="Conclave: a game server for complex tabletop games.", no_args_is_help=True)
content_app = typer.Typer(help="Content packs.")
app.add_typer(content_app, name="content")


def _modules(value: str) -> list[str]:
    return [m.strip() for m in value.split(",") if m.strip()]


@app.command()
def simulate(
    game: str = typer.Option(..., help="Game id, e.g. new-capital"),
    players: int = typer.Option(4, help="Number of seats"),
    games: Optional[int] = typer.Option(None, help="How many games to play (default 10; 0 with --campaigns)"),
    seed: int = typer.Option(0, help="Seed of the first game (then seed+1, ...)"),
    modules: str = typer.Option("", help="Comma-separated module ids"),
    scenario: Optional[str] = typer.Option(None, help="Scenario option, where the game has one"),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON summary object"),
    no_invariants: bool = typer.Option(False, "--no-invariants", help="Skip invariant checks (faster)"),
    no_hidden: bool = typer.Option(False, "--no-hidden-checks",
                                   help="Skip checking every seat's and a spectator's view for hidden information"),
    campaigns: int = typer.Option(0, help="Also play this many whole campaigns (campaign games only); "
                                          "alone, the summary's completed/actions/winners are the campaigns'"),
    option: list[str] = typer.Option([], "--option", help="A table option as key=value (repeatable), "
                                                          "e.g. later_fates=box"),
    bot: Optional[str] = typer.Option(None, help="The table's bots: random (default) or search, one per seat"),
    bot_budget_ms: Optional[int] = typer.Option(None, help="CPU ms per search-bot decision (10, 25, 50, 100, 200)"),
) -> None:
    """Play whole games with bots (random unless --bot), checking invariants after every action."""
    from rich.progress import Progress

    from api.simulate import simulate as run
    from core.errors import ConclaveError

    if games is None:
        games = 0 if campaigns else 10
    options = {"scenario": scenario} if scenario else {}
    for pair in option:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            typer.echo(f"error [BAD_PARAMETER]: --option wants key=value, not {pair!r}", err=True)
            raise typer.Exit(2)
        options[key] = value
    if bot is not None:
        options["bot"] = bot
    if bot_budget_ms is not None:
        options["bot_budget_ms"] = bot_budget_ms
    options = options or None
    show = sys.stderr.isatty() and not json_out
    try:
        if show:
            with Progress(transient=True) as bar:
                task = bar.add_task(f"{game} x{players}", total=games + campaigns)
                summary = run(game, players, games, seed, _modules(modules), options,
                              check_invariants=not no_invariants, progress=lambda: bar.advance(task),
                              campaigns=campaigns, check_hidden=not no_hidden)
        else:
            summary = run(game, players, games, seed, _modules(modules), options, check_invariants=not no_invariants,
                          campaigns=campaigns, check_hidden=not no_hidden)
    except ConclaveError as exc:
        typer.echo(f"error [{exc.code}]: {exc.message}", err=True)
        raise typer.Exit(2)
    if json_out:
        typer.echo(json.dumps(summary))
    else:
        from rich import print as rprint

        rprint(summary)
    if summary["errors"]:
        raise typer.Exit(1)


@app.command()
def replay(
    log_file: Path = typer.Argument(..., help="A game record as `conclave export` writes it (api/game_file.py): "
                                              "{game, players, seed, log: [[seat, action]...], modules, options, "
                                              "campaign, table_id, seed_commitment, result, version}"),
) -> None:
    """Rebuild a game from its record and print the final public view. With a seed commitment,
    check the seed against it first; with a result and version, check the replay gives them.
    A bad file is named (exit code 2)."""
    from api.game_file import GameFileError, decode, replay as replay_record

    try:
        record = decode(log_file.read_bytes())
        table = replay_record(record)
    except OSError as exc:
        typer.echo(f"error: cannot read {log_file}: {exc.strerror or exc}", err=True)
        raise typer.Exit(2)
    except GameFileError as exc:
        typer.echo(f"error: {log_file}: {exc}", err=True)
        raise typer.Exit(2)
    if record.seed_commitment is not None:
        typer.echo(f"seed {record.seed} matches the commitment of table {record.table_id}", err=True)
    typer.echo(json.dumps(table.view(None), default=str))


@app.command()
def export(
    table_id: str = typer.Argument(..., help="Id of a finished (archived) table"),
    out: Optional[Path] = typer.Option(None, help="Write to this file instead of printing"),
) -> None:
    """Write a finished game's record (from DATABASE_URL) in the format `conclave replay` reads."""
    from api.game_file import GameFileError, encode, export as export_record
    from api.settings import Settings

    try:
        data = encode(export_record(Settings.from_env().database_url, table_id))
    except GameFileError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2)
    except Exception as exc:  # noqa: BLE001 - e.g. an unreachable database: say so, no traceback
        typer.echo(f"error: cannot read the database: {type(exc).__name__}", err=True)
        raise typer.Exit(2)
    if out:
        out.write_bytes(data + b"\n")
    else:
        typer.echo(data.decode())


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on"),
    port: int = typer.Option(8000, help="Port"),
    workers: int = typer.Option(1, help="Worker processes (use Redis for more than one)"),
) -> None:
    """Run the GraphQL server (REDIS_URL and DATABASE_URL from the environment)."""
    import uvicorn

    from api.http_protocol import http_protocol
    from api.logs import lean_records
    from api.ws_protocol import websocket_protocol

    lean_records()
    # No permessage-deflate: compressing every subscription frame cost about a fifth of the
    # server's CPU under load, for small JSON messages on fast links. Keepalive pings every
    # 20 s (uvicorn's default), spread (api/ws_protocol.py). Half-sent requests are closed
    # after CONCLAVE_REQUEST_READ_TIMEOUT (api/http_protocol.py).
    uvicorn.run("api.app:create_app", factory=True, host=host, port=port, workers=workers,
                log_level="warning", http=http_protocol(), ws=websocket_protocol(), ws_max_size=1 << 20,
                ws_per_message_deflate=False)


@app.command()
def schema(out: Optional[Path] = typer.Option(None, help="Write to this file instead of printing")) -> None:
    """Print the GraphQL schema (SDL) that clients can generate code from."""
    from api.sdl import sdl

    text = sdl()
    if out:
        out.write_text(text)
    else:
        typer.echo(text, nl=False)


@content_app.command("validate")
def content_validate(folder: Path = typer.Argument(None, help="Pack folder (default: built-in demo pack)")) -> None:
    """Validate a New Capital content pack against its schema."""
    from core.errors import ContentError
    from plugins.new_capital.content import DEFAULT_PACK, load_pack

    try:
        pack = load_pack(folder or DEFAULT_PACK)
    except ContentError as exc:
        typer.echo(f"invalid: {exc.message}", err=True)
        raise typer.Exit(1)
    typer.echo(f"ok: {len(pack.actions)} action cards, {len(pack.structures)} structures, "
               f"{len(pack.leaders)} leaders, {len(pack.crises)} crises, {len(pack.hunger)} hunger cards")


@app.command()
def games() -> None:
    """List installed games and modules."""
    from core import default_registry

    reg = default_registry()
    for g in reg.games.values():
        typer.echo(f"{g.id}: {g.name} ({g.min_players}-{g.max_players} players)")
    for m in reg.modules.values():
        typer.echo(f"  module {m.id} for {m.game}: {m.description}")


if __name__ == "__main__":
    app()

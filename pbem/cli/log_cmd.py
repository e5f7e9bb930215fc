"""``pbem log``: the game log, what every file of a game did, in full."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from pbem.cli.common import WorkspaceOpt, user_errors, workspace
from pbem.cli.progress import Progress, QuietOpt
from pbem.errors import PbemError
from pbem.play import history, report, since, sittings
from pbem.protocol.turnfile import TurnFile
from pbem.store.localgame import LocalGame


def _month(text: str) -> str:
    year, _, month = text.partition("-")
    if not (len(year) == 4 and year.isdigit() and len(month) == 2 and month.isdigit() and 1 <= int(month) <= 12):
        raise PbemError(f"'{text[:20]}' is not a month; write YYYY-MM, e.g. 1939-10", "usage")
    return text


def _files(target: str, ws_path: Path | None, game: str | None) -> tuple[list[TurnFile], str | None, bytes | None]:
    """The game's files, the side I play (None for a record folder) and, for a branch, its
    verified starting position."""
    folder = Path(target)
    if folder.is_dir():
        files = history.record_files(folder, game)
        return files, None, history.record_base(folder, files)
    ws = workspace(ws_path)
    gid = ws.resolve_game(target)
    lg = LocalGame(ws, gid)
    return history.workspace_files(ws, gid), lg.me, lg.base()


@user_errors
def log_command(
    target: Annotated[str, typer.Argument(help="Game id (or its first characters), or a record folder")],
    since_mine: Annotated[
        bool,
        typer.Option(
            "--since-mine",
            help="Only what happened since my last decision: the files after it (my automatic ones included), "
            "then my automatic records waiting to go out with my next file",
        ),
    ] = False,
    month: Annotated[str | None, typer.Option("--month", help="Only what happened in month YYYY-MM")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="The log as JSON, one document")] = False,
    count_sittings: Annotated[
        bool, typer.Option("--sittings", help="Sittings per side and file hops per game month, instead of the log")
    ] = False,
    game: Annotated[str | None, typer.Option("--game", help="Which game of a record folder holding several")] = None,
    ws_path: WorkspaceOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Print what each file of a game did: wars, placements, moves, every combat in full
    (strengths, modifiers, odds, dice, losses, retreats), conquests, money, supply; with
    --sittings, what each game month cost the players instead.  On a terminal a line on stderr
    shows the file reached while the files are re-executed."""
    wanted = _month(month) if month is not None else None
    if count_sittings and since_mine:
        raise PbemError("--sittings counts the whole game: leave out --since-mine", "usage")
    files, me, base = _files(target, ws_path, game)
    if since_mine and me is None:
        raise PbemError("--since-mine needs a game of this workspace, not a record folder", "usage")
    with Progress(quiet) as progress:
        made = _reports(files, base, progress)
    if count_sittings:
        _sittings(made, wanted, as_json)
        return
    waiting: list[tuple[str, dict[str, Any]]] = []
    if since_mine and me is not None:
        made = made[since.start([r.to_json() for r in made], me) :]
        ws = workspace(ws_path)
        waiting = since.kept(ws.game_paths(ws.resolve_game(target)), len(files) - 1)
    out = []
    for r in made:
        if wanted is not None:
            r.entries = [e for e in r.entries if e.when == wanted]
            if not r.entries:
                continue
        out.append(r)
    if wanted is not None:
        waiting = [(text, doc) for text, doc in waiting if any(e.get("when") == wanted for e in doc["entries"])]
    if as_json:
        docs = [r.to_json() for r in out] + [doc for _, doc in waiting]
        typer.echo(json.dumps(docs, indent=1, ensure_ascii=False))
        return
    if not out and not waiting:
        typer.echo(
            "nothing to report"
            + (f" for {wanted}" if wanted else "")
            + (" since your last decision" if since_mine else "")
        )
    for r in out:
        typer.echo(r.text())
    for text, _ in waiting:
        typer.echo(text)
    for note in _disputes(target, ws_path):
        typer.echo(f"DISPUTED: {note}")


def _disputes(target: str, ws_path: Path | None) -> list[str]:
    """What this workspace holds in dispute with the opponent in the game (none for a folder)."""
    if Path(target).is_dir():
        return []
    ws = workspace(ws_path)
    notes: list[str] = LocalGame(ws, ws.resolve_game(target)).meta.get("disputes", [])
    return notes


def _reports(files: list[TurnFile], base: bytes | None, progress: Progress) -> list[report.FileReport]:
    """The report of every file, re-executed in order, telling ``progress`` each file."""
    made = []
    for r in report.reports(files, base):
        progress(f"log: file {r.seq} of {len(files) - 1}")
        made.append(r)
    return made


def _sittings(made: list[report.FileReport], wanted: str | None, as_json: bool) -> None:
    """Print the sittings and hops of the game (of month ``wanted`` only, if given); the
    whole game is counted, since a month's first sitting may begin in the month before."""
    found = sittings.tally([r.to_json() for r in made])
    if wanted is not None:
        found.months = [m for m in found.months if m.when == wanted]
        if not found.months:
            raise PbemError(f"game {found.game} has no file in {wanted}", "usage")
    if as_json:
        typer.echo(json.dumps(found.to_json(), indent=1))
        return
    for line in found.lines():
        typer.echo(line)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("log")(log_command)

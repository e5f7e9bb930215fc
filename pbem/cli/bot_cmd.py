"""`pbem bot play GAME`: the computer makes my side's pending decisions, then sends;
`pbem bot serve`, `health`, `migrate`, `backup` and `restore`: the bot mailbox as a service."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pbem.cli.common import LEVEL_HELP, WorkspaceOpt, game_in, sent, user_errors
from pbem.cli.mail_cmd import (
    ConfigOption,
    OnceOption,
    StoreOption,
    VerboseOption,
    config_path,
    fail,
    serve,
    store_url,
)
from pbem.errors import PbemError
from pbem.play import levels, turn
from pbem.store import keys

if TYPE_CHECKING:
    from pbem.mail.pgstore import Store

bot_app = typer.Typer(help="The computer player.", no_args_is_help=True)


@bot_app.command("play")
@user_errors
def play(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")],
    player: Annotated[
        str,
        typer.Option(
            "--player",
            help="This move only: bot (heuristic), v1 (the frozen reference), gentle, deep or random "
            "(default: the game's level)",
        ),
    ] = "",
    level: Annotated[
        int | None,
        typer.Option(
            "--level",
            help=f"Play at this level ({LEVEL_HELP}), recorded for the game: the bot mailbox keeps playing at it",
        ),
    ] = None,
    ahead: Annotated[
        bool,
        typer.Option(
            "--ahead", help="After a hidden list, give the month's coming hidden steps ahead too (fallback: bot)"
        ),
    ] = False,
    ws_path: WorkspaceOpt = None,
) -> None:
    """Let the computer decide for my side, then seal the turn into outbox/."""
    ws, gid = game_in(game, ws_path)
    if level is not None:
        if player:
            raise PbemError("give --level (recorded for the game) or --player (this move only), not both", "usage")
        levels.set_level(ws, gid, level)
    path = turn.bot_play(ws, gid, player=player or None, ahead=ahead)
    sent(ws, gid, f"sealed {path.relative_to(ws.root)}")


@bot_app.command("serve")
def serve_cmd(
    config: ConfigOption = None,
    worker: Annotated[
        str,
        typer.Option(
            "--worker",
            help="run as this worker of several serving one mailbox and one workspace (each claims its mails)",
        ),
    ] = "",
    claim_timeout: Annotated[
        float,
        typer.Option("--claim-timeout", help="seconds a worker may be silent before the others take its mails back"),
    ] = 300.0,
    store: StoreOption = "",
    once: OnceOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Run the bot mailbox as a service: log lines on stderr, stop cleanly on SIGTERM."""
    if claim_timeout <= 0:
        fail(PbemError("--claim-timeout must be more than 0 seconds", code="usage"))
    serve(config, once, verbose, bot=True, worker=worker, claim_timeout=claim_timeout, store=store)


@bot_app.command("migrate")
def migrate_cmd(
    config: ConfigOption = None,
    store: StoreOption = "",
    new_key: Annotated[
        bool, typer.Option("--new-key", help="print a fresh store key (for PBEM_BOT_STORE_KEY) and do nothing else")
    ] = False,
) -> None:
    """Bring the PostgreSQL store's schema to this version; the first time, store the bot's
    identity directory (the configuration's home) in it, sealed with the store key."""
    from pbem.mail.config import load_config
    from pbem.mail.pgstore import MIGRATIONS, Store, store_key
    from pbem.mail.pgstore import new_key as make_key

    if new_key:
        typer.echo(make_key())
        return
    try:
        cfg = load_config(config_path(config))
        url = store_url(cfg, store)
        if not url:
            raise PbemError(
                "no PostgreSQL store named: give --store postgresql://..., PBEM_BOT_STORE or bot.store", code="usage"
            )
        db = Store(url, store_key(cfg.bot.store_key_file))
        applied = db.migrate()
        done = ", ".join(map(str, applied)) if applied else "none needed"
        typer.echo(f"schema at version {len(MIGRATIONS)} (steps applied: {done})")
        if not db.home_names():
            home = keys.home(cfg.home)
            if not (home / f"{cfg.bot.identity}.key").is_file():
                raise PbemError(
                    f"the bot's key {cfg.bot.identity}.key is not in {home}: set home in the configuration "
                    "to the identity directory holding it, then run this again",
                    code="bot-store",
                )
            count = db.save_home(home)
            typer.echo(f"stored the identity directory {home} ({count} files, sealed)")
    except PbemError as err:
        fail(err)


def _store(config: Path | None, store: str, key: bool = True) -> Store:
    from pbem.mail.config import load_config
    from pbem.mail.pgstore import Store, store_key

    cfg = load_config(config_path(config))
    url = store_url(cfg, store)
    if not url:
        raise PbemError(
            "no PostgreSQL store named: give --store postgresql://..., PBEM_BOT_STORE or bot.store", code="usage"
        )
    return Store(url, store_key(cfg.bot.store_key_file) if key else None)


@bot_app.command("backup")
def backup_cmd(
    out: Annotated[Path, typer.Argument(help="the new file to write the back-up to")],
    config: ConfigOption = None,
    store: StoreOption = "",
) -> None:
    """Write one consistent snapshot of the PostgreSQL store to a file, while workers run.
    The games and the bot's keys stay sealed in it; the store key is not in it: keep the
    key apart from the back-ups."""
    from pbem.mail.pgbackup import backup

    try:
        done = backup(_store(config, store, key=False), out)
    except PbemError as err:
        fail(err)
        return
    typer.echo(f"backed up to {out}: {done.line()}")


@bot_app.command("restore")
def restore_cmd(
    source: Annotated[Path, typer.Argument(help="a file `pbem bot backup` wrote")],
    config: ConfigOption = None,
    store: StoreOption = "",
    replace: Annotated[
        bool,
        typer.Option("--replace", help="drop what the database holds of a bot service first (stop every worker first)"),
    ] = False,
) -> None:
    """Load a back-up into an empty database (or, with --replace, over a service's data),
    checked whole and against the store key before anything is written; then start the workers."""
    from pbem.mail.pgbackup import restore

    try:
        done = restore(_store(config, store), source, replace)
    except PbemError as err:
        fail(err)
        return
    typer.echo(f"restored {source}: {done.line()}")


@bot_app.command("health")
def health_cmd(
    config: ConfigOption = None,
    max_age: Annotated[
        float | None,
        typer.Option("--max-age", help="exit with 1 when the oldest unanswered mail is older than this (seconds)"),
    ] = None,
    store: StoreOption = "",
) -> None:
    """Queue depth and the age of the oldest unanswered mail of the bot mailbox (and, on a
    PostgreSQL store, the database and every worker)."""
    from pbem.mail.config import load_config
    from pbem.mail.health import measure
    from pbem.mail.imap import IMAP_ERRORS, describe_imap_error

    try:
        cfg = load_config(config_path(config))
        url = store_url(cfg, store)
        try:
            found = measure(cfg, url)
        except IMAP_ERRORS as err:
            raise PbemError(describe_imap_error(cfg.imap, err), code="mail-imap") from None
    except PbemError as err:
        fail(err)
        return
    typer.echo(found.line())
    if not found.database_ok:
        typer.echo("unhealthy: the bot store database is not usable", err=True)
        raise typer.Exit(1)
    if max_age is not None and found.oldest_s is not None and found.oldest_s > max_age:
        typer.echo(f"unhealthy: the oldest unanswered mail waits for more than {max_age:g} s", err=True)
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.add_typer(bot_app, name="bot")

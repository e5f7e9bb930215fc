"""`pbem bot play GAME`: the computer makes my side's pending decisions, then sends;
`pbem bot serve` and `pbem bot health`: the bot mailbox as a service."""

from __future__ import annotations

from typing import Annotated

import typer

from pbem.cli.common import WorkspaceOpt, game_in, sent, user_errors
from pbem.cli.mail_cmd import ConfigOption, OnceOption, VerboseOption, config_path, fail, serve
from pbem.errors import PbemError
from pbem.play import turn

bot_app = typer.Typer(help="The computer player.", no_args_is_help=True)


@bot_app.command("play")
@user_errors
def play(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")],
    player: Annotated[
        str, typer.Option("--player", help="bot (heuristic), v1 (the frozen reference) or random")
    ] = "bot",
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
    path = turn.bot_play(ws, gid, player=player, ahead=ahead)
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
    once: OnceOption = False,
    verbose: VerboseOption = False,
) -> None:
    """Run the bot mailbox as a service: log lines on stderr, stop cleanly on SIGTERM."""
    if claim_timeout <= 0:
        fail(PbemError("--claim-timeout must be more than 0 seconds", code="usage"))
    serve(config, once, verbose, bot=True, worker=worker, claim_timeout=claim_timeout)


@bot_app.command("health")
def health_cmd(
    config: ConfigOption = None,
    max_age: Annotated[
        float | None,
        typer.Option("--max-age", help="exit with 1 when the oldest unanswered mail is older than this (seconds)"),
    ] = None,
) -> None:
    """Queue depth and the age of the oldest unanswered mail of the bot mailbox."""
    from pbem.mail.config import load_config
    from pbem.mail.health import measure
    from pbem.mail.imap import IMAP_ERRORS, describe_imap_error

    try:
        cfg = load_config(config_path(config))
        try:
            found = measure(cfg)
        except IMAP_ERRORS as err:
            raise PbemError(describe_imap_error(cfg.imap, err), code="mail-imap") from None
    except PbemError as err:
        fail(err)
        return
    typer.echo(found.line())
    if max_age is not None and found.oldest_s is not None and found.oldest_s > max_age:
        typer.echo(f"unhealthy: the oldest unanswered mail waits for more than {max_age:g} s", err=True)
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.add_typer(bot_app, name="bot")

"""`pbem mail ...`: the mail daemon, the bot mailbox and a configuration check."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from pbem.errors import PbemError

CONFIG_ENV = "PBEM_MAIL_CONFIG"
ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config",
        "-c",
        help=f"mail configuration (TOML); default ${CONFIG_ENV}, then ./pbem-mail.toml, "
        "then the user configuration directory's pbem/mail.toml",
    ),
]
OnceOption = Annotated[bool, typer.Option("--once", help="run one fetch/send cycle and exit")]
VerboseOption = Annotated[bool, typer.Option("--verbose", "-v", help="log every step")]


def _config_path(given: Path | None) -> Path:
    if given is not None:
        return given
    if os.environ.get(CONFIG_ENV):
        return Path(os.environ[CONFIG_ENV])
    local = Path("pbem-mail.toml")
    if local.exists():
        return local
    import platformdirs

    return Path(platformdirs.user_config_dir("pbem")) / "mail.toml"


def _setup_logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(message)s",
        datefmt="%Y-%m-%dT%H:%M:%S",
    )
    # Library chatter (imapclient logs every command at DEBUG) is not for players.
    for name in ("imapclient", "aiosmtplib", "asyncio"):
        logging.getLogger(name).setLevel(logging.WARNING)


def _fail(err: PbemError) -> None:
    typer.echo(f"error: {err}", err=True)
    raise typer.Exit(1)


def _serve(config: Path | None, once: bool, verbose: bool, bot: bool) -> None:
    from pbem.mail.bot import BotMailbox
    from pbem.mail.config import load_config
    from pbem.mail.daemon import MailDaemon

    _setup_logging(verbose)
    try:
        cfg = load_config(_config_path(config))
        report = (BotMailbox(cfg) if bot else MailDaemon(cfg)).run(once=once)
    except PbemError as err:
        _fail(err)
        return
    if once:
        typer.echo(report.line())
        if report.imap_error:
            raise typer.Exit(1)


def run_cmd(config: ConfigOption = None, once: OnceOption = False, verbose: VerboseOption = False) -> None:
    """Fetch, verify and import turn files by mail; mail everything in outbox/ to the opponent."""
    _serve(config, once, verbose, bot=False)


def bot_cmd(config: ConfigOption = None, once: OnceOption = False, verbose: VerboseOption = False) -> None:
    """Run the bot as a mailbox: accept invitations and answer every move by mail."""
    _serve(config, once, verbose, bot=True)


def check_cmd(config: ConfigOption = None) -> None:
    """Test the configuration against the servers; say exactly what is wrong, one line per problem."""
    from pbem.mail.check import check_all

    problems = check_all(_config_path(config))
    for line in problems:
        typer.echo(line, err=True)
    if problems:
        raise typer.Exit(1)
    typer.echo("mail configuration OK: IMAP login and folder, SMTP login all work")


def status_cmd(config: ConfigOption = None) -> None:
    """Show mails waiting to be sent and mails that failed for good."""
    from pbem.mail.config import load_config
    from pbem.mail.daemon import status_lines

    try:
        for line in status_lines(load_config(_config_path(config))):
            typer.echo(line)
    except PbemError as err:
        _fail(err)


def retry_cmd(config: ConfigOption = None) -> None:
    """Put mails that failed for good back into the send queue (after fixing the cause)."""
    from pbem.mail.config import load_config
    from pbem.mail.outqueue import SendQueue

    try:
        cfg = load_config(_config_path(config))
        count = SendQueue(cfg.workspace, cfg.retry.base_seconds, cfg.retry.max_seconds).retry_failed()
    except PbemError as err:
        _fail(err)
        return
    typer.echo(f"{count} failed mail(s) queued again; the running daemon sends them on its next cycle")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    mail = typer.Typer(name="mail", help="Carry turn files by e-mail (SMTP + IMAP).", no_args_is_help=True)
    mail.command("run")(run_cmd)
    mail.command("bot")(bot_cmd)
    mail.command("check")(check_cmd)
    mail.command("status")(status_cmd)
    mail.command("retry")(retry_cmd)
    app.add_typer(mail, name="mail")

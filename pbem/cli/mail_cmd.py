"""`pbem mail ...`: the mail daemon, the bot mailbox and a configuration check."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pbem.errors import PbemError

if TYPE_CHECKING:
    from pbem.mail.config import MailConfig

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
StoreOption = Annotated[
    str,
    typer.Option(
        "--store",
        help="postgresql://... to keep the service's state in PostgreSQL (default $PBEM_BOT_STORE, then bot.store; "
        "none: the workspace's files)",
    ),
]
OnceOption = Annotated[bool, typer.Option("--once", help="run one fetch/send cycle and exit")]
VerboseOption = Annotated[bool, typer.Option("--verbose", "-v", help="log every step")]


def config_path(given: Path | None) -> Path:
    if given is not None:
        return given
    if os.environ.get(CONFIG_ENV):
        return Path(os.environ[CONFIG_ENV])
    local = Path("pbem-mail.toml")
    if local.exists():
        return local
    import platformdirs

    return Path(platformdirs.user_config_dir("pbem")) / "mail.toml"


def store_url(cfg: MailConfig, given: str) -> str:
    """The bot service's store: --store, else $PBEM_BOT_STORE, else bot.store; "" for the files."""
    from pbem.mail.pgstore import STORE_ENV, is_database_url

    url = given or os.environ.get(STORE_ENV, "") or cfg.bot.store
    if url and not is_database_url(url):
        where = "--store" if given else STORE_ENV if os.environ.get(STORE_ENV) else "bot.store"
        raise PbemError(f"{where} must be a postgresql:// URL (or empty for the workspace's files)", code="usage")
    return url


def fail(err: PbemError) -> None:
    typer.echo(f"error: {err}", err=True)
    raise typer.Exit(1)


def serve(
    config: Path | None,
    once: bool,
    verbose: bool,
    bot: bool,
    worker: str = "",
    claim_timeout: float | None = None,
    store: str = "",
) -> None:
    """Run the daemon or the bot mailbox (as one worker of several when ``worker`` is named),
    on the workspace's files or, with a PostgreSQL ``store``, on the database."""
    from pbem.mail import logline
    from pbem.mail.bot import BotMailbox
    from pbem.mail.config import load_config
    from pbem.mail.daemon import DEFAULT_CLAIM_TIMEOUT, MailDaemon

    timeout = DEFAULT_CLAIM_TIMEOUT if claim_timeout is None else claim_timeout
    try:
        cfg = load_config(config_path(config))
        url = store_url(cfg, store) if bot else ""
        if url:
            from pbem.mail.pgbot import StoreBotMailbox, default_worker, start_worker
            from pbem.mail.pgstore import Store, store_key

            worker = worker or default_worker()
            logline.setup(verbose, worker)
            db = Store(url, store_key(cfg.bot.store_key_file))

            def make() -> StoreBotMailbox:
                return StoreBotMailbox(cfg, db, worker=worker, claim_timeout=timeout)

            # One cycle is asked for at once: a database down is then an error, not a wait.
            daemon: MailDaemon = make() if once else start_worker(make)
        else:
            logline.setup(verbose, worker)
            daemon = BotMailbox(cfg, worker=worker, claim_timeout=timeout) if bot else MailDaemon(cfg)
        report = daemon.run(once=once)
    except PbemError as err:
        fail(err)
        return
    if once:
        typer.echo(report.line())
        if report.imap_error:
            raise typer.Exit(1)


def run_cmd(config: ConfigOption = None, once: OnceOption = False, verbose: VerboseOption = False) -> None:
    """Fetch, verify and import turn files by mail; mail everything in outbox/ to the opponent."""
    serve(config, once, verbose, bot=False)


def bot_cmd(config: ConfigOption = None, once: OnceOption = False, verbose: VerboseOption = False) -> None:
    """Run the bot as a mailbox: accept invitations and answer every move by mail."""
    serve(config, once, verbose, bot=True)


def check_cmd(
    config: ConfigOption = None,
    bot: Annotated[bool, typer.Option("--bot", help="check for `pbem mail bot` (its own identity too)")] = False,
) -> None:
    """Check everything `pbem mail run` (or `pbem mail bot`) checks at its start, then the logins
    to both servers; say exactly what is wrong, one line per problem."""
    from pbem.mail.check import check_all

    problems = check_all(config_path(config), bot)
    for line in problems:
        typer.echo(line, err=True)
    if problems:
        raise typer.Exit(1)
    typer.echo(
        "mail configuration OK: the workspace, its identities' addresses and the game layer; "
        "IMAP login, folder and mailbox owner; SMTP login"
    )


def status_cmd(config: ConfigOption = None, store: StoreOption = "") -> None:
    """Show mails waiting to be sent and mails that failed for good (on a PostgreSQL store,
    per game too: the looks owed and the deadline claims due)."""
    from pbem.mail.config import load_config
    from pbem.mail.daemon import status_lines

    try:
        cfg = load_config(config_path(config))
        url = store_url(cfg, store)
        if url:
            from pbem.mail import pgstatus
            from pbem.mail.pgstore import Store

            lines = pgstatus.status_lines(Store(url, None))
        else:
            lines = status_lines(cfg)
        for line in lines:
            typer.echo(line)
    except PbemError as err:
        fail(err)


def retry_cmd(config: ConfigOption = None, store: StoreOption = "") -> None:
    """Put mails that failed for good back into the send queue (after fixing the cause)."""
    from pbem.mail.config import load_config
    from pbem.mail.outqueue import SendQueue

    try:
        cfg = load_config(config_path(config))
        url = store_url(cfg, store)
        if url:
            from pbem.mail import pgstatus
            from pbem.mail.pgstore import Store

            typer.echo(pgstatus.retry_line(Store(url, None)))
            return
        queue = SendQueue(cfg.workspace, cfg.retry.base_seconds, cfg.retry.max_seconds)
        with queue.locked():  # the running daemon changes the queue too
            count = queue.retry_failed()
    except PbemError as err:
        fail(err)
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

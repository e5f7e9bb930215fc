"""The mail configuration file (TOML): servers, account, limits, bot policy.

Passwords never live in the configuration itself: each server names an
environment variable (``password_env``) or a file (``password_file``) that
holds it, or a command that prints an OAuth 2.0 access token (``token_command``),
so the configuration can be shared, committed or shown in a bug report without
leaking a secret.
"""

from __future__ import annotations

import os
import ssl
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pbem.errors import PbemError
from pbem.mail import oauth
from pbem.protocol.identity import given_fingerprint

T = TypeVar("T")

SECURITY_MODES = ("tls", "starttls", "none")
DEFAULT_PORTS = {"imap": {"tls": 993, "starttls": 143, "none": 143}, "smtp": {"tls": 465, "starttls": 587, "none": 25}}
# Turn files are bounded at 4 MiB by the wire format; an attachment larger than
# that cannot be a valid turn file, so it is refused before it is decoded.
DEFAULT_MAX_ATTACHMENT_BYTES = 4 * 1024 * 1024
DEFAULT_NOTIFY_HOLD_SECONDS = 180.0  # a player at the table decides within minutes of an automatic answer


class MailConfigError(PbemError):
    """The configuration file is missing, malformed or incomplete."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="mail-config")


@dataclass(frozen=True)
class ServerConfig:
    """One server (IMAP or SMTP) and the account used on it."""

    kind: str  # "imap" | "smtp", used in messages
    host: str
    port: int
    security: str
    user: str
    password_env: str = ""
    password_file: str = ""
    timeout_seconds: float = 30.0
    ca_file: str = ""  # PEM file of certificate authorities to trust; empty: the system's trust store
    token_command: str = ""  # prints an OAuth 2.0 access token; set instead of a password
    oauth_mechanism: str = "xoauth2"  # "xoauth2" | "oauthbearer", used with token_command

    @property
    def uses_oauth(self) -> bool:
        return bool(self.token_command)

    @property
    def secret_hint(self) -> str:
        """Where the refused secret came from, for the line that reports the refusal."""
        if self.uses_oauth:
            return f"the token {self.kind}.token_command prints"
        return f"the password in {self.kind}.password_env/password_file"

    def token(self) -> str:
        """Run ``token_command`` now: every login gets a token as fresh as the helper keeps it."""
        return oauth.run_token_command(f"{self.kind}.token_command", self.token_command, self.timeout_seconds)

    def tls_context(self) -> ssl.SSLContext | None:
        """The context for "tls"/"starttls" (None for "none"); certificate and host name are always checked."""
        if self.security == "none":
            return None
        return ssl.create_default_context(cafile=self.ca_file or None)

    def password(self) -> str:
        """Read the password now (not at load time) so rotating it needs no restart."""
        if self.password_env:
            value = os.environ.get(self.password_env)
            if value is None:
                raise MailConfigError(
                    f"environment variable {self.password_env} is not set — "
                    f"it holds the {self.kind} password ({self.kind}.password_env)"
                )
            return value
        if self.password_file:
            path = Path(self.password_file).expanduser()
            try:
                return path.read_text(encoding="utf-8").strip("\r\n")
            except OSError as err:
                raise MailConfigError(f"cannot read {self.kind}.password_file {path}: {err.strerror or err}") from err
        return ""

    @property
    def where(self) -> str:
        return f"{self.host}:{self.port}"


@dataclass(frozen=True)
class ImapOptions:
    folder: str = "INBOX"
    processed: str = "move"  # "move" to processed_folder, or "flag" (keep in folder, mark seen+keyword)
    processed_folder: str = "pbem"
    idle: bool = True
    poll_seconds: float = 60.0
    idle_seconds: float = 600.0  # re-issue IDLE well before servers drop it (RFC 2177: 29 minutes)


@dataclass(frozen=True)
class RetryOptions:
    base_seconds: float = 10.0
    max_seconds: float = 3600.0


@dataclass(frozen=True)
class BotOptions:
    allow: tuple[str, ...] = ()  # inviters' key fingerprints, as shown; empty: anyone
    identity: str = "bot"  # the identity (key name) the bot joins games with
    player: str = "pbem.mail.botplayer"  # module offering accept() and play(), see pbem.mail.bot
    # The bot service's store: "" for the files of the workspace, or a postgresql:// URL.
    store: str = ""
    # A file holding the key that seals the bot's keys and games in a PostgreSQL store.
    store_key_file: Path | None = None


@dataclass(frozen=True)
class MailConfig:
    address: str
    workspace: Path
    imap: ServerConfig
    smtp: ServerConfig
    imap_options: ImapOptions = field(default_factory=ImapOptions)
    retry: RetryOptions = field(default_factory=RetryOptions)
    bot: BotOptions = field(default_factory=BotOptions)
    notify_mail: bool = False
    # Seconds a notice waits before it is mailed, dropped if I decide meanwhile (0: at once).
    notify_hold_seconds: float = DEFAULT_NOTIFY_HOLD_SECONDS
    max_attachment_bytes: int = DEFAULT_MAX_ATTACHMENT_BYTES
    exchange: str = "pbem.play.exchange"  # module offering import_file() and game_info()
    attach_map: bool = True  # a PNG of the front with each turn mail that moved something
    home: Path | None = None  # identity directory; None: $PBEM_HOME, then the user configuration directory
    source: Path | None = None

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2] or "localhost"


# --- loading ------------------------------------------------------------------------------------


def _take(
    table: dict[str, object], key: str, kind: type[T] | tuple[type[T], ...], where: str, default: T | None = None
) -> T:
    if key not in table:
        if default is None:
            raise MailConfigError(f"{where}.{key} is missing")
        return default
    value = table.pop(key)
    # bool is an int in Python; a port of `true` is a mistake worth naming.
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise MailConfigError(f"{where}.{key} has the wrong type ({type(value).__name__})")
    return value


def _no_leftovers(table: Mapping[str, object], where: str) -> None:
    if table:
        raise MailConfigError(f"unknown setting {where}.{sorted(table)[0]}")


def _server(raw: object, kind: str, base: Path) -> ServerConfig:
    if not isinstance(raw, dict):
        raise MailConfigError(f"section [{kind}] is missing")
    table = dict(raw)
    if "password" in table:  # checked first: the most important mistake to point out
        raise MailConfigError(
            f"{kind}.password is not allowed in the configuration — use {kind}.password_env or {kind}.password_file"
        )
    host = _take(table, "host", str, kind)
    security = _take(table, "security", str, kind, "tls")
    if security not in SECURITY_MODES:
        raise MailConfigError(f"{kind}.security must be one of {', '.join(SECURITY_MODES)}, not {security!r}")
    port = _take(table, "port", int, kind, DEFAULT_PORTS[kind][security])
    if not 0 < port < 65536:
        raise MailConfigError(f"{kind}.port {port} is not a TCP port")
    user = _take(table, "user", str, kind, "")
    password_env = _take(table, "password_env", str, kind, "")
    password_file = _take(table, "password_file", str, kind, "")
    token_command = _take(table, "token_command", str, kind, "")
    if sum(map(bool, (password_env, password_file, token_command))) > 1:
        raise MailConfigError(f"{kind}: set one of password_env, password_file and token_command")
    mechanism = _take(table, "oauth_mechanism", str, kind, "xoauth2").lower()
    if mechanism not in oauth.MECHANISMS:
        raise MailConfigError(f"{kind}.oauth_mechanism must be xoauth2 or oauthbearer, not {mechanism!r}")
    if "oauth_mechanism" in raw and not token_command:
        raise MailConfigError(f"{kind}.oauth_mechanism is set but {kind}.token_command is not")
    if token_command and not user:
        raise MailConfigError(f"{kind}.token_command is set but {kind}.user is not (the account the token is for)")
    if password_file:
        path = Path(password_file).expanduser()
        password_file = str(path if path.is_absolute() else base / path)
    if user and not (password_env or password_file or token_command):
        raise MailConfigError(
            f"{kind}.user is set but none of {kind}.password_env, {kind}.password_file and {kind}.token_command"
        )
    timeout = float(_take(table, "timeout_seconds", (int, float), kind, 30.0))
    ca_file = _take(table, "ca_file", str, kind, "")
    if ca_file:
        ca_file = _ca_file(ca_file, kind, base)
    _no_leftovers(table, kind)
    return ServerConfig(
        kind, host, port, security, user, password_env, password_file, timeout, ca_file, token_command, mechanism
    )


def _ca_file(value: str, kind: str, base: Path) -> str:
    """Resolve ``ca_file`` against ``base`` and make sure it holds certificates now, not at the first connect."""
    path = Path(value).expanduser()
    path = path if path.is_absolute() else base / path
    if not path.is_file():
        raise MailConfigError(
            f"{kind}.ca_file {path} does not exist — it must name a PEM file of "
            f"certificate authorities (leave it out to use the system's trust store)"
        )
    try:
        ssl.create_default_context(cafile=str(path))
    except (ssl.SSLError, OSError) as err:
        reason = " ".join(str(getattr(err, "strerror", None) or err).split())
        raise MailConfigError(f"{kind}.ca_file {path} holds no usable PEM certificates: {reason}") from err
    return str(path)


_IMAP_OPTION_KEYS = ("folder", "processed", "processed_folder", "idle", "poll_seconds", "idle_seconds")


def _imap_options(table: dict[str, object]) -> ImapOptions:
    opts = ImapOptions(
        folder=_take(table, "folder", str, "imap", "INBOX"),
        processed=_take(table, "processed", str, "imap", "move"),
        processed_folder=_take(table, "processed_folder", str, "imap", "pbem"),
        idle=_take(table, "idle", bool, "imap", True),
        poll_seconds=float(_take(table, "poll_seconds", (int, float), "imap", 60.0)),
        idle_seconds=float(_take(table, "idle_seconds", (int, float), "imap", 600.0)),
    )
    if opts.processed not in ("move", "flag"):
        raise MailConfigError(f'imap.processed must be "move" or "flag", not {opts.processed!r}')
    if not 0 < opts.poll_seconds <= 86400:
        raise MailConfigError("imap.poll_seconds must be more than 0 and at most 86400")
    if not 1 <= opts.idle_seconds <= 1740:
        raise MailConfigError("imap.idle_seconds must be between 1 and 1740 (servers drop IDLE after 30 minutes)")
    return opts


def _allow_list(entries: list[object]) -> tuple[str, ...]:
    """The inviters' key fingerprints.  An address is refused, not read: the From header
    it would be matched against is written by the sender, so anyone could use it."""
    found = []
    for entry in entries:
        if not isinstance(entry, str):
            raise MailConfigError("bot.allow must be a list of key fingerprints")
        try:
            found.append(given_fingerprint(entry))
        except PbemError:
            what = "an e-mail address" if "@" in entry else "not a key fingerprint"
            raise MailConfigError(
                f"bot.allow entry {entry[:60]!r} is {what}: the allow list names the inviter's key — write its "
                'fingerprint as `pbem key list` shows it, e.g. allow = ["1a2b 3c4d 5e6f 7a8b 9c0d 1e2f 3a4b 5c6d"]'
            ) from None
    return tuple(found)


def _path_or_none(raw: str, base: Path) -> Path | None:
    if not raw:
        return None
    path = Path(raw).expanduser()
    return path if path.is_absolute() else base / path


def parse_config(data: dict[str, Any], base: Path, source: Path | None = None) -> MailConfig:
    """Build a :class:`MailConfig` from parsed TOML; relative paths are taken from ``base``."""
    table = dict(data)
    address = _take(table, "address", str, "mail")
    if "@" not in address or address.startswith("@") or address.endswith("@"):
        raise MailConfigError(f"address {address!r} is not a mail address")
    workspace = Path(_take(table, "workspace", str, "mail", ".")).expanduser()
    workspace = workspace if workspace.is_absolute() else base / workspace
    imap_raw = table.pop("imap", None)
    if not isinstance(imap_raw, dict):
        raise MailConfigError("section [imap] is missing")
    # IMAP-only options share the [imap] section with the server settings.
    opts = _imap_options({k: v for k, v in imap_raw.items() if k in _IMAP_OPTION_KEYS})
    imap = _server({k: v for k, v in imap_raw.items() if k not in _IMAP_OPTION_KEYS}, "imap", base)
    smtp = _server(table.pop("smtp", None), "smtp", base)
    retry_raw = dict(table.pop("retry", {}))
    retry = RetryOptions(
        float(_take(retry_raw, "base_seconds", (int, float), "retry", 10.0)),
        float(_take(retry_raw, "max_seconds", (int, float), "retry", 3600.0)),
    )
    _no_leftovers(retry_raw, "retry")
    if not 0 < retry.base_seconds <= retry.max_seconds:
        raise MailConfigError("retry.base_seconds must be positive and at most retry.max_seconds")
    bot_raw = dict(table.pop("bot", {}))
    allow = _take(bot_raw, "allow", list, "bot", [])
    bot = BotOptions(
        _allow_list(allow),
        _take(bot_raw, "identity", str, "bot", BotOptions.identity),
        _take(bot_raw, "player", str, "bot", BotOptions.player),
        _take(bot_raw, "store", str, "bot", ""),
        _path_or_none(_take(bot_raw, "store_key_file", str, "bot", ""), base),
    )
    _no_leftovers(bot_raw, "bot")
    notify_raw = dict(table.pop("notify", {}))
    notify_mail = _take(notify_raw, "mail", bool, "notify", False)
    hold = float(_take(notify_raw, "hold_seconds", (int, float), "notify", DEFAULT_NOTIFY_HOLD_SECONDS))
    if not 0 <= hold <= 86400:
        raise MailConfigError("notify.hold_seconds must be between 0 and 86400 (one day)")
    _no_leftovers(notify_raw, "notify")
    max_bytes = _take(table, "max_attachment_bytes", int, "mail", DEFAULT_MAX_ATTACHMENT_BYTES)
    if not 1024 <= max_bytes <= 64 * 1024 * 1024:
        raise MailConfigError("max_attachment_bytes must be between 1 KiB and 64 MiB")
    exchange = _take(table, "exchange", str, "mail", "pbem.play.exchange")
    attach_map = _take(table, "attach_map", bool, "mail", True)
    home = _path_or_none(_take(table, "home", str, "mail", ""), base)
    _no_leftovers(table, "mail")
    return MailConfig(
        address.strip(),
        workspace,
        imap,
        smtp,
        opts,
        retry,
        bot,
        notify_mail,
        hold,
        max_bytes,
        exchange,
        attach_map,
        home,
        source,
    )


def load_config(path: Path) -> MailConfig:
    """Read and check a configuration file; every problem is one :class:`MailConfigError` line."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise MailConfigError(f"cannot read mail configuration {path}: {err.strerror or err}") from err
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise MailConfigError(f"{path} is not valid TOML: {err}") from err
    return parse_config(data, path.parent.resolve(), path)


def identity_mismatch(config: MailConfig, names: Iterable[str]) -> str:
    """The line refusing to serve a mailbox for an identity whose key says another address
    ('' when all agree): the opponent would write to the key's address, and this mailbox
    would never see it.  An identity without an address, or not stored here, is not asked."""
    from pbem.store import keys

    home = keys.home(config.home)
    for name in sorted(set(names)):
        path = home / f"{name}.pub"
        try:
            email = keys.read_public_key(path).email if path.is_file() else ""
        except PbemError:
            continue
        if email and email.strip().lower() != config.address.strip().lower():
            where = config.source.name if config.source is not None else "the mail configuration"
            return (
                f"identity {name} has the e-mail {email} but this mailbox is {config.address}: "
                f"run `pbem key set-email {name} {config.address}` or correct the address in {where}"
            )
    return ""

"""Fetching turn files over IMAP with imapclient.

Only mail that carries a ``*.pbem`` attachment is touched. The decision is made
from the BODYSTRUCTURE, so ordinary mail is never downloaded, and bodies are
read with BODY.PEEK, so nothing is marked read by looking at it. Processed
turn mail is moved to a folder of its own (or flagged, if so configured).

The position in the mailbox (UIDVALIDITY and the highest UID handled) is kept
in ``.pbem/mail/state``. It only moves forward after a mail was handled
completely; a daemon killed half-way sees the same mail again, and the game
layer recognises a file it already applied.

Workers of a bot service share one mailbox by claiming: a worker moves each turn
mail from the folder into its own claim folder (``pbem-claim-<worker>``) with one
UID MOVE, which the server performs atomically, so each mail lands in exactly one
claim folder; the worker then handles what is in its folder and moves it on. A
worker silent for longer than the claim timeout has its claim folder emptied back
into the folder by the others. Each worker keeps its own position.

One mailbox serves one workspace: the first daemon to log in leaves a folder
``pbem-owner-<workspace id>``, and a daemon of another workspace refuses to start
(it would take turn files whose games it does not hold).
"""

from __future__ import annotations

import contextlib
import imaplib
import logging
import os
import socket
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import imapclient
import imapclient.exceptions

from pbem.errors import PbemError
from pbem.mail import oauth
from pbem.mail.config import ImapOptions, ServerConfig
from pbem.mail.message import bodystructure_filenames, has_turn_attachment
from pbem.mail.store import load_json, mail_dir, save_json, write_atomic
from pbem.store.durable import flock

log = logging.getLogger("pbem.mail")

# Everything a dropped connection, a restarted server or a confused protocol
# state can raise; the daemon reconnects after any of these.
IMAP_ERRORS: tuple[type[BaseException], ...] = (
    imaplib.IMAP4.error,
    imapclient.exceptions.IMAPClientError,
    OSError,
    ssl.SSLError,
    EOFError,
    TimeoutError,
)
FETCH_CHUNK = 10  # mails handled per round; small rounds let answers go out sooner
PROCESSED_KEYWORD = "$PbemDone"
SET_ASIDE_KEYWORD = "$PbemSetAside"
LEFT_KEYWORD = "$PbemOtherWorkspace"  # left unread for the workspace holding its game
CLAIM_PREFIX = "pbem-claim-"
OWNER_PREFIX = "pbem-owner-"


class MailboxTaken(PbemError):
    """The mailbox already serves another workspace."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="mail-owner")


def workspace_id(workspace: Path) -> str:
    """A random name for the workspace, made once: what the owner folder carries.

    Made under a lock: workers of a bot service starting together on a fresh workspace
    would otherwise each make a name, one of them would own the mailbox under its name
    while another's name stayed on disk, and every later start would be refused.
    """
    path = mail_dir(workspace) / "workspace-id"
    with flock(path.with_name("workspace-id.lock")):
        with contextlib.suppress(FileNotFoundError, UnicodeDecodeError):
            value = path.read_text(encoding="utf-8").strip()
            if len(value) == 16 and all(c in "0123456789abcdef" for c in value):
                return value
        value = os.urandom(8).hex()
        write_atomic(path, value.encode())
        return value


@dataclass(frozen=True)
class Candidate:
    uid: int
    size: int
    has_turn: bool
    names: tuple[str, ...] = ()  # the attachments' file names, as the BODYSTRUCTURE gives them


class ImapPosition:
    """UIDVALIDITY and last UID, per account and folder, persisted atomically."""

    def __init__(self, state_dir: Path, account: str) -> None:
        self.path = state_dir / "state"
        self.account = account
        raw = load_json(self.path, {}, _valid_position)
        mine = raw.get("imap", {}) if raw.get("imap", {}).get("account") == account else {}
        self.uidvalidity: int = int(mine.get("uidvalidity", 0))
        self.last_uid: int = int(mine.get("last_uid", 0))

    def save(self) -> None:
        raw = load_json(self.path, {}, _valid_position)
        raw["imap"] = {"account": self.account, "uidvalidity": self.uidvalidity, "last_uid": self.last_uid}
        save_json(self.path, raw)

    def reset_if_changed(self, uidvalidity: int) -> bool:
        """A new UIDVALIDITY means old UIDs mean nothing: start from the beginning again."""
        if uidvalidity == self.uidvalidity:
            return False
        changed = self.uidvalidity != 0
        self.uidvalidity, self.last_uid = uidvalidity, 0
        self.save()
        return changed

    def advance(self, uid: int, save: bool = True) -> None:
        if uid > self.last_uid:
            self.last_uid = uid
            if save:
                self.save()


def _valid_position(raw: object) -> bool:
    if not isinstance(raw, dict):
        return False
    imap = raw.get("imap", {})
    return isinstance(imap, dict) and all(
        isinstance(imap.get(k, 0), int) and not isinstance(imap.get(k, 0), bool) for k in ("uidvalidity", "last_uid")
    )


def describe_imap_error(server: ServerConfig, err: BaseException) -> str:
    """One line naming the server, the problem and the setting to look at."""
    text = " ".join(str(err).split())
    lower = text.lower()
    where = f"IMAP server {server.where}"
    if isinstance(err, imapclient.exceptions.LoginError) or "authenticationfailed" in lower:
        return f"{where} refused the login of {server.user!r}: {text} — check imap.user and {server.secret_hint}"
    if isinstance(err, ConnectionRefusedError) or "refused" in lower:
        return f"cannot reach {where}: connection refused — check imap.host/imap.port"
    if isinstance(err, (TimeoutError, socket.timeout)) or "timed out" in lower:
        return f"cannot reach {where}: no answer within {server.timeout_seconds:g} s — check imap.host/imap.port"
    if isinstance(err, socket.gaierror):
        return f"cannot resolve IMAP host {server.host!r} — check imap.host"
    if isinstance(err, ssl.SSLCertVerificationError) or "certificate" in lower:
        return (
            f"TLS with {where} failed: the server's certificate is not trusted ({text}) — "
            f"check imap.host, or set imap.ca_file to the certificate authority that signed it"
        )
    if isinstance(err, ssl.SSLError) or "ssl" in lower or "tls" in lower:
        return f"TLS with {where} failed: {text} — check imap.security (tls, starttls or none)"
    return f"{where}: {text or type(err).__name__}"


def login(client: imapclient.IMAPClient, server: ServerConfig) -> None:
    """Log in with the password, or with an OAuth token; a refused token is asked for once
    more, and tried again if the command gives another (its helper may have refreshed it)."""
    if not server.uses_oauth:
        password = server.password()
        if server.user:
            client.login(server.user, password)
        return
    mechanism = server.oauth_mechanism.upper()
    if not client.has_capability(f"AUTH={mechanism}"):
        raise PbemError(
            f"IMAP server {server.where} does not offer {mechanism} — check imap.oauth_mechanism "
            f"(xoauth2 or oauthbearer) and imap.security",
            code="mail-config",
        )
    token = server.token()
    try:
        client.sasl_login(mechanism, oauth.ImapMechanism(server.oauth_mechanism, server.user, token))
    except imapclient.exceptions.LoginError:
        fresh = server.token()
        if fresh == token:
            raise
        client.sasl_login(mechanism, oauth.ImapMechanism(server.oauth_mechanism, server.user, fresh))


class ImapMailbox:
    """One logged-in IMAP session on the configured folder."""

    def __init__(
        self,
        server: ServerConfig,
        options: ImapOptions,
        workspace: Path,
        state_dir: Path | None = None,
        worker: str = "",
    ) -> None:
        self.server = server
        self.options = options
        self.workspace = workspace
        self.worker = worker
        self.position = ImapPosition(
            state_dir or mail_dir(workspace), f"{server.user}@{server.host}:{server.port}/{options.folder}"
        )
        self.client: imapclient.IMAPClient | None = None
        self._processed_ready = False
        self._made: set[str] = set()

    # --- session -------------------------------------------------------------------------------
    def connect(self, claim_owner: bool = True) -> None:
        """Log in and open the folder; with ``claim_owner``, make sure the mailbox is ours."""
        self.close()
        context = self.server.tls_context()
        client = imapclient.IMAPClient(
            self.server.host,
            port=self.server.port,
            ssl=self.server.security == "tls",
            ssl_context=context,
            timeout=self.server.timeout_seconds,
        )
        try:
            if self.server.security == "starttls":
                client.starttls(context)
            login(client, self.server)
            if claim_owner:
                _claim_ownership(client, workspace_id(self.workspace), self.server.user or self.server.where)
            info = client.select_folder(self.options.folder)
        except BaseException:
            with contextlib.suppress(*IMAP_ERRORS):
                client.shutdown()
            raise
        self.client = client
        uidvalidity = int(info.get(b"UIDVALIDITY", 0))
        if self.position.reset_if_changed(uidvalidity):
            log.warning(
                "UIDVALIDITY of %s changed; looking at every mail again (duplicates are harmless)", self.options.folder
            )

    def close(self) -> None:
        if self.client is not None:
            with contextlib.suppress(*IMAP_ERRORS):
                self.client.logout()
            with contextlib.suppress(*IMAP_ERRORS):
                self.client.shutdown()
        self.client = None
        self._processed_ready = False
        self._made = set()

    def _c(self) -> imapclient.IMAPClient:
        if self.client is None:
            raise imapclient.exceptions.IllegalStateError("not connected")
        return self.client

    @property
    def can_idle(self) -> bool:
        return self.options.idle and self.client is not None and self.client.has_capability("IDLE")

    # --- reading -------------------------------------------------------------------------------
    def candidates(self, limit: int = FETCH_CHUNK) -> tuple[list[Candidate], bool]:
        """Up to ``limit`` mails newer than the remembered position, and whether more wait.

        Each comes with its size and whether it carries a turn file.
        """
        client = self._c()
        first = self.position.last_uid + 1
        # "n:*" always matches the highest UID, even below n, hence the filter.
        uids = sorted(u for u in client.search(["UID", f"{first}:*"]) if u >= first)
        more = len(uids) > limit
        return self.describe(uids[:limit]), more

    def describe(self, uids: list[int]) -> list[Candidate]:
        """Size and "carries a turn file" of each mail of the selected folder."""
        client = self._c()
        found: list[Candidate] = []
        for start in range(0, len(uids), FETCH_CHUNK):
            chunk = uids[start : start + FETCH_CHUNK]
            data = client.fetch(chunk, ["RFC822.SIZE", "BODYSTRUCTURE"])
            for uid in chunk:
                item = data.get(uid)
                if item is None:  # expunged meanwhile
                    continue
                structure = item.get(b"BODYSTRUCTURE")
                found.append(
                    Candidate(
                        uid,
                        int(item.get(b"RFC822.SIZE", 0)),
                        has_turn_attachment(structure),
                        tuple(bodystructure_filenames(structure)),
                    )
                )
        return found

    def has_new(self) -> bool:
        first = self.position.last_uid + 1
        return any(u >= first for u in self._c().search(["UID", f"{first}:*"]))

    def fetch_raw(self, uids: list[int]) -> dict[int, bytes]:
        """Whole mails, without setting \\Seen (BODY.PEEK), in one command."""
        if not uids:
            return {}
        data = self._c().fetch(uids, ["BODY.PEEK[]"])
        found = {}
        for uid, item in data.items():
            raw = item.get(b"BODY[]")
            if raw is not None:
                found[uid] = bytes(raw)
        return found

    # --- finishing -----------------------------------------------------------------------------
    def finish(self, uids: list[int]) -> None:
        """Take handled turn mail out of the way: move it, or flag it."""
        if self.options.processed == "flag":
            self._flag(uids, PROCESSED_KEYWORD)
        else:
            self.move(uids, self.options.processed_folder)

    def set_aside(self, uids: list[int]) -> None:
        """Take mail that broke a step out of the way for good, apart from handled mail."""
        if self.options.processed == "flag":
            self._flag(uids, SET_ASIDE_KEYWORD)
        else:
            self.move(uids, f"{self.options.processed_folder}-set-aside")

    def leave(self, uids: list[int]) -> None:
        """Mark mails left for another workspace, unread: no health check counts them as
        this service's work (anyone can send a mail naming a game that is not here)."""
        if uids:
            self._c().add_flags(uids, [LEFT_KEYWORD.encode()])

    def _flag(self, uids: list[int], keyword: str) -> None:
        if uids:
            self._c().add_flags(uids, [b"\\Seen", keyword.encode()])

    def ensure_folder(self, folder: str) -> None:
        client = self._c()
        if folder in self._made:
            return
        if not client.folder_exists(folder):
            try:
                client.create_folder(folder)
            except IMAP_ERRORS:
                if not client.folder_exists(folder):  # another client may have made it meanwhile
                    raise
        self._made.add(folder)

    def move(self, uids: list[int], folder: str) -> None:
        """Move mails of the selected folder; a UID gone meanwhile (moved by another) is no error."""
        if not uids:
            return
        client = self._c()
        self.ensure_folder(folder)
        if client.has_capability("MOVE"):
            for attempt in range(3):
                try:
                    client.move(uids, folder)
                    return
                except imapclient.exceptions.IMAPClientError as err:
                    # Another session moved some of them away first, and this session has not
                    # heard yet: NOOP brings the news, after which those UIDs are simply absent.
                    if "EXPUNGEISSUED" not in str(err).upper() or attempt == 2:
                        raise
                    client.noop()
        else:
            client.copy(uids, folder)
            client.add_flags(uids, [b"\\Deleted"])
            if client.has_capability("UIDPLUS"):
                client.uid_expunge(uids)
            else:
                client.expunge()

    # --- claiming (workers of a bot service) ----------------------------------------------------
    @property
    def claim_folder(self) -> str:
        return CLAIM_PREFIX + self.worker

    def claim(self, uids: list[int]) -> None:
        """Move mails of the folder into my claim folder; those another worker took first stay theirs."""
        self.move(uids, self.claim_folder)

    def open_claims(self) -> list[int]:
        """Select my claim folder; the UIDs of what I hold there."""
        client = self._c()
        self.ensure_folder(self.claim_folder)
        client.select_folder(self.claim_folder)
        return sorted(client.search("ALL"))

    def reopen_folder(self) -> None:
        self._c().select_folder(self.options.folder)

    def claim_folders(self) -> list[str]:
        """Every worker's claim folder on the server, as worker names."""
        names = []
        for _flags, _sep, name in self._c().list_folders(pattern=CLAIM_PREFIX + "*"):
            text = name.decode() if isinstance(name, bytes) else str(name)
            if text.startswith(CLAIM_PREFIX):
                names.append(text[len(CLAIM_PREFIX) :])
        return sorted(names)

    def take_back(self, worker: str) -> int:
        """Move everything out of ``worker``'s claim folder back into the folder; how many."""
        client = self._c()
        client.select_folder(CLAIM_PREFIX + worker)
        try:
            uids = client.search("ALL")
            self.move(uids, self.options.folder)
        finally:
            self.reopen_folder()
        return len(uids)

    # --- waiting -------------------------------------------------------------------------------
    def wait(self, seconds: float, wake: Callable[[], bool]) -> None:
        """Wait for new mail (IDLE) or until ``seconds`` pass or ``wake()`` says there is work."""
        deadline = time.monotonic() + max(0.0, seconds)
        if not self.can_idle:
            while time.monotonic() < deadline and not wake():
                time.sleep(min(0.5, max(0.0, deadline - time.monotonic())))
            self._c().noop()  # also notices a dead connection
            return
        client = self._c()
        # Mail that arrived while we were busy may have been announced in the answer to
        # an earlier command (and dropped there); IDLE would then wait for the next one.
        if self.has_new():
            return
        client.idle()
        try:
            while time.monotonic() < deadline:
                step = min(1.0, max(0.05, deadline - time.monotonic()))
                began = time.monotonic()
                responses = client.idle_check(timeout=step)
                if not responses and time.monotonic() - began < step / 2:
                    # imapclient swallows EOF and returns nothing at once: the server has gone.
                    raise imapclient.exceptions.IMAPClientAbortError("connection closed by the server")
                if any(len(r) > 1 and r[1] in (b"EXISTS", b"RECENT") for r in responses):
                    return
                if wake():
                    return
        finally:
            client.idle_done()


def _owners(client: imapclient.IMAPClient) -> list[str]:
    """The owner folders of the mailbox, in order (the first name wins a race)."""
    found = []
    for _flags, _sep, name in client.list_folders(pattern=OWNER_PREFIX + "*"):
        text = name.decode() if isinstance(name, bytes) else str(name)
        if text.startswith(OWNER_PREFIX):
            found.append(text)
    return sorted(found)


def _other_owner(client: imapclient.IMAPClient, mine: str) -> str | None:
    """The owner folder of another workspace that this mailbox serves already, if any."""
    present = _owners(client)
    return present[0] if present and OWNER_PREFIX + mine not in present else None


def _claim_ownership(client: imapclient.IMAPClient, mine: str, account: str) -> None:
    """Leave this workspace's owner folder, unless the mailbox already serves another one."""
    ours = OWNER_PREFIX + mine
    other = _other_owner(client, mine)
    if other is not None:
        raise MailboxTaken(_taken_line(account, other))
    if ours not in _owners(client):
        with contextlib.suppress(*IMAP_ERRORS):
            client.create_folder(ours)
    present = _owners(client)
    # Two workspaces starting at once may both have made their folder: the first name wins.
    if present and present[0] != ours:
        with contextlib.suppress(*IMAP_ERRORS):
            client.delete_folder(ours)
        raise MailboxTaken(_taken_line(account, present[0]))


def _taken_line(account: str, folder: str) -> str:
    return (
        f"the mailbox {account} already serves another workspace (its IMAP folder {folder}): one mailbox "
        f"serves one workspace — give this workspace its own mailbox, or run several workers "
        f"(`pbem bot serve --worker NAME`) on the other workspace; if that workspace is gone for good, "
        f"delete the folder {folder}"
    )


def check_imap(server: ServerConfig, options: ImapOptions, workspace: Path) -> str | None:
    """Connect, log in and open the folder, and see that the mailbox serves no other
    workspace (leaving nothing behind); None when all is well, else one line."""
    box = ImapMailbox(server, options, workspace)
    try:
        box.connect(claim_owner=False)
        assert box.client is not None
        other = _other_owner(box.client, workspace_id(workspace))
        if other is not None:
            return _taken_line(server.user or server.where, other)
    except PbemError as err:
        return str(err)
    except IMAP_ERRORS as err:
        text = " ".join(str(err).split()).lower()
        if box.client is None and ("select" in text or "mailbox" in text) and "doesn't exist" in text:
            return f"IMAP folder {options.folder!r} does not exist — check imap.folder"
        return describe_imap_error(server, err)
    finally:
        box.close()
    return None

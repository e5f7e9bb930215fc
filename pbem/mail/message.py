"""Turn files as mail: names, subjects, threading headers, attachments.

Pure functions, no network: what goes into a mail and what is taken out of one.
"""

from __future__ import annotations

import email
import email.header
import email.policy
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.utils import formatdate, getaddresses, make_msgid
from pathlib import Path

# A contact statement (a player's new address, signed with the identity key) travels
# like a turn file, one copy per game, named with its counter in place of a sequence; the
# parent files of a branch travel with its invitation as <game>-00000-parent.pbem, and a
# hand-over by mail as <game>-<seq>-offer.pbem and -accept.pbem.
TURN_NAME = re.compile(
    r"^(?P<game>[0-9a-f]{12})-(?P<seq>[0-9]{5})-(?P<side>axis|allies|contact|parent|offer|accept)\.pbem$"
)
TURN_SUFFIX = ".pbem"
MIME_TYPE = ("application", "x-pbem")
# Limits under which every mail is read; a real turn mail is a few kilobytes of
# headers and a handful of parts, far below each.
MAX_MULTIPARTS = 64  # multipart containers, hence also the nesting depth
MAX_PARTS = 64  # leaf parts
MAX_HEADERS = 300  # header fields of the mail and of any one part
MESSAGE_ID_RE = re.compile(r"<[!-;=?-~]{1,240}>")  # printable ASCII without spaces, '<' or '>'
# How many earlier Message-IDs a References header carries; long enough to keep
# a thread together in every client, short enough to keep headers small.
MAX_REFERENCES = 12


@dataclass(frozen=True)
class TurnName:
    game_id: str
    seq: int
    side: str

    @property
    def filename(self) -> str:
        return f"{self.game_id}-{self.seq:05d}-{self.side}.pbem"


def parse_turn_name(name: str) -> TurnName | None:
    match = TURN_NAME.match(name)
    if not match:
        return None
    return TurnName(match["game"], int(match["seq"]), match["side"])


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def thread_root(game_id: str) -> str:
    """The Message-ID both players use as the root of a game's thread.

    It names no real message; clients still gather every mail that refers to
    it into one thread, and both sides compute it without talking.
    """
    return f"<game-{game_id}@pbem.invalid>"


def turn_message_id(turn: TurnName, digest: str, domain: str) -> str:
    """Deterministic, so a resend after a crash is recognisably the same mail."""
    return f"<{turn.game_id}.{turn.seq:05d}.{turn.side}.{digest[:16]}@{domain}>"


def turn_subject(turn: TurnName, tag: str = "") -> str:
    """``[pbem] 1939-10 Allied combat - game 3f9c0a12b4d5``: ``tag`` names what the game
    awaits once the file is applied (the receiver's next decision, see pbem/play/report.py);
    without one, the file's number and side."""
    if tag:
        return f"[pbem] {tag} - game {turn.game_id}"
    return f"[pbem] game {turn.game_id} file {turn.seq:05d} ({turn.side})"


def build_turn_mail(
    *,
    sender: str,
    recipient: str,
    turn: TurnName,
    data: bytes,
    message_id: str,
    references: list[str],
    body: str,
    subject: str = "",
    attachments: list[Attachment] | None = None,
    files_before: list[Attachment] | None = None,
) -> EmailMessage:
    """A turn file as mail; ``files_before`` are earlier turn files of the same game that
    travel with it, attached before it; ``attachments`` come after it (a picture of the front)."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = recipient
    msg["Subject"] = subject or turn_subject(turn)
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = message_id
    _thread(msg, references or [])
    msg["X-Pbem-Game"] = turn.game_id
    msg["X-Pbem-Seq"] = str(turn.seq)
    msg.set_content(body)
    for earlier in files_before or []:
        msg.add_attachment(earlier.data, maintype=MIME_TYPE[0], subtype=MIME_TYPE[1], filename=earlier.filename)
    msg.add_attachment(data, maintype=MIME_TYPE[0], subtype=MIME_TYPE[1], filename=turn.filename)
    _attach(msg, attachments or [])
    return msg


def build_text_mail(
    *,
    sender: str,
    recipient: str,
    subject: str,
    body: str,
    domain: str,
    references: list[str] | None = None,
    attachments: list[Attachment] | None = None,
) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = recipient
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=domain)
    _thread(msg, references or [])
    msg.set_content(body)
    _attach(msg, attachments or [])
    return msg


def _attach(msg: EmailMessage, attachments: list[Attachment]) -> None:
    for extra in attachments:
        maintype, _, subtype = (mimetypes.guess_type(extra.filename)[0] or "application/octet-stream").partition("/")
        msg.add_attachment(extra.data, maintype=maintype, subtype=subtype, filename=extra.filename)


def _thread(msg: EmailMessage, references: list[str]) -> None:
    # Ids queued before they were checked may be unwritable; a header must never fail a send.
    refs = [r for r in references if clean_message_id(r) == r][-MAX_REFERENCES:]
    if refs:
        msg["In-Reply-To"] = refs[-1]
        msg["References"] = " ".join(refs)


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes


@dataclass(frozen=True)
class IncomingMail:
    message_id: str
    sender: str
    attachments: list[Attachment]  # only the *.pbem ones
    problems: list[str]  # attachments refused before the game layer saw them, one line each


def clean_message_id(value: str) -> str:
    """One Message-ID as ``<id>``, or "" for anything else (a folded header, several ids,
    spaces or control characters): such a value could never be written into a reply's headers."""
    value = value.strip()
    return value if MESSAGE_ID_RE.fullmatch(value) else ""


ADDRESS_RE = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?")


def clean_address(value: str) -> str:
    """One plain ``local@domain`` address, lower-cased, or "" for anything else (several
    addresses, a display name, spaces, line breaks, quotes): such a value must never
    reach a header of a mail we send or a record we keep."""
    value = value.strip()
    return value.lower() if ADDRESS_RE.fullmatch(value) else ""


class Unreadable(Exception):
    """A mail over one of the reading limits: set aside unread."""


def parse_mail(raw: bytes, max_attachment_bytes: int, max_bytes: int | None = None) -> IncomingMail:
    """Take the turn-file attachments out of a raw mail; never raises on hostile input.

    A mail over a reading limit (size, nesting, parts, headers) raises
    :class:`Unreadable` instead, so the daemon can move it aside.
    """
    if max_bytes is not None and len(raw) > max_bytes:
        raise Unreadable(f"the mail is {len(raw)} bytes, over the limit of {max_bytes}")
    # The standard parser recurses once per nested multipart: a mail nested a thousand deep
    # would exhaust the stack.  Real turn mails hold a handful of parts.
    if raw.lower().count(b"multipart/") > MAX_MULTIPARTS:
        raise Unreadable(f"the mail has more than {MAX_MULTIPARTS} nested parts")
    try:
        msg: Message = email.message_from_bytes(raw, policy=email.policy.compat32)
        parts = [part for part in msg.walk() if not part.is_multipart()]
        fields = max(len(part.keys()) for part in msg.walk())
    except RecursionError as err:
        raise Unreadable("the mail is nested too deeply to read") from err
    if len(parts) > MAX_PARTS:
        raise Unreadable(f"the mail has {len(parts)} parts, over the limit of {MAX_PARTS}")
    if fields > MAX_HEADERS:
        raise Unreadable(f"a part of the mail has {fields} header fields, over the limit of {MAX_HEADERS}")
    message_id = clean_message_id(str(msg.get("Message-ID", "") or ""))
    senders = getaddresses([str(msg.get("From", ""))])
    sender = clean_address(senders[0][1]) if len(senders) == 1 else ""
    attachments: list[Attachment] = []
    problems: list[str] = []
    for part in parts:
        filename = part.get_filename()
        if not filename or not filename.lower().endswith(TURN_SUFFIX):
            continue
        filename = Path(filename.replace("\\", "/")).name  # never let a name climb out of inbox/
        if parse_turn_name(filename) is None:
            problems.append(f"attachment {filename!r} is not named <game-id>-<seq>-<side>.pbem")
            continue
        try:
            payload = part.get_payload(decode=True)
        except Exception as err:  # a mangled encoding is the sender's problem, not a crash
            problems.append(f"attachment {filename} cannot be decoded: {err}")
            continue
        if not isinstance(payload, bytes) or not payload:
            problems.append(f"attachment {filename} is empty")
            continue
        if len(payload) > max_attachment_bytes:
            problems.append(
                f"attachment {filename} is {len(payload)} bytes, over the limit of "
                f"{max_attachment_bytes} (max_attachment_bytes)"
            )
            continue
        attachments.append(Attachment(filename, payload))
    return IncomingMail(message_id, sender, attachments, problems)


def bodystructure_filenames(structure: object) -> list[str]:
    """File names of all parts in an IMAP BODYSTRUCTURE (as imapclient returns it).

    Used to decide from the structure alone whether a mail carries a turn file,
    so ordinary mail is never downloaded. The shape varies between servers, so
    the walk looks for ("filename"|"name", value) pairs anywhere in the tree.
    """
    names: list[str] = []

    def walk(node: object, depth: int) -> None:
        if depth > 40 or not isinstance(node, (tuple, list)):
            return
        items = list(node)
        for i, item in enumerate(items):
            if isinstance(item, bytes) and item.lower() in (b"filename", b"name") and i + 1 < len(items):
                value = items[i + 1]
                if isinstance(value, bytes):
                    names.append(_decode_header_word(value))
            else:
                walk(item, depth + 1)

    walk(structure, 0)
    return names


def _decode_header_word(value: bytes) -> str:
    text = value.decode("utf-8", errors="replace")
    if "=?" in text:
        try:
            return str(email.header.make_header(email.header.decode_header(text)))
        except Exception:
            return text
    return text


def has_turn_attachment(structure: object) -> bool:
    return any(name.lower().endswith(TURN_SUFFIX) for name in bodystructure_filenames(structure))

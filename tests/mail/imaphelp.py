"""Looking into a test mailbox directly, and sending hand-made mail, for assertions."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage

import imapclient
from mailtesting import Player


def imap(player: Player) -> imapclient.IMAPClient:
    client = imapclient.IMAPClient("127.0.0.1", port=player.servers.imap_port, ssl=False, timeout=10)
    client.login(player.address, player.servers.users[player.address])
    return client


def folder_flags(player: Player, folder: str = "INBOX") -> list[tuple[bytes, ...]]:
    """The flags of every mail in the folder (empty list if the folder does not exist)."""
    with imap(player) as client:
        if not client.folder_exists(folder):
            return []
        client.select_folder(folder, readonly=True)
        uids = client.search("ALL")
        data = client.fetch(uids, ["FLAGS"]) if uids else {}
        return [tuple(data[u][b"FLAGS"]) for u in uids]


def fetch_all(player: Player, folder: str = "INBOX") -> list[bytes]:
    with imap(player) as client:
        if not client.folder_exists(folder):
            return []
        client.select_folder(folder, readonly=True)
        uids = client.search("ALL")
        data = client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
        return [bytes(data[u][b"BODY[]"]) for u in uids]


def count(player: Player, folder: str = "INBOX") -> int:
    return len(folder_flags(player, folder))


def send_raw(player_from: Player, to: str, msg: EmailMessage | bytes) -> None:
    with smtplib.SMTP("127.0.0.1", player_from.servers.smtp_port, timeout=10) as smtp:
        if isinstance(msg, bytes):
            smtp.sendmail(player_from.address, [to], msg)
        else:
            smtp.send_message(msg, from_addr=player_from.address, to_addrs=[to])


def turn_mail(sender: str, to: str, filename: str, data: bytes, subject: str = "turn") -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg.set_content("a turn file")
    msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=filename)
    return msg

"""Turn files in and out of mail, without a server."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage

from pbem.mail.message import (
    build_turn_mail,
    has_turn_attachment,
    parse_mail,
    parse_turn_name,
    thread_root,
    turn_message_id,
)

GAME = "0123456789ab"


def test_turn_names() -> None:
    turn = parse_turn_name(f"{GAME}-00012-allies.pbem")
    assert turn is not None and (turn.game_id, turn.seq, turn.side) == (GAME, 12, "allies")
    assert turn.filename == f"{GAME}-00012-allies.pbem"
    for bad in (
        "x.pbem",
        f"{GAME}-12-allies.pbem",
        f"{GAME.upper()}-00012-allies.pbem",
        f"{GAME}-00012-neutral.pbem",
        f"../{GAME}-00012-axis.pbem",
    ):
        assert parse_turn_name(bad) is None


def test_built_mail_round_trips() -> None:
    turn = parse_turn_name(f"{GAME}-00003-axis.pbem")
    assert turn is not None
    mid = turn_message_id(turn, "ab" * 32, "example.org")
    refs = [thread_root(GAME), "<earlier@example.org>"]
    msg = build_turn_mail(
        sender="a@example.org",
        recipient="b@example.org",
        turn=turn,
        data=b"\x00\x01data",
        message_id=mid,
        references=refs,
        body="hello",
    )
    assert msg["In-Reply-To"] == "<earlier@example.org>"
    assert msg["References"] == " ".join(refs)
    assert GAME in msg["Subject"] and "00003" in msg["Subject"]
    parsed = parse_mail(msg.as_bytes(), 1024)
    assert parsed.sender == "a@example.org" and parsed.message_id == mid
    assert [(a.filename, a.data) for a in parsed.attachments] == [(turn.filename, b"\x00\x01data")]
    assert parsed.problems == []
    # Deterministic: the same file gives the same Message-ID, so a resend is recognisable.
    assert turn_message_id(turn, "ab" * 32, "example.org") == mid


def _mail_with(filename: str, data: bytes) -> bytes:
    msg = EmailMessage()
    msg["From"] = "Eve <EVE@example.org>"
    msg.set_content("x")
    msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=filename)
    return msg.as_bytes()


def test_hostile_attachments_become_problems_not_exceptions() -> None:
    big = parse_mail(_mail_with(f"{GAME}-00001-axis.pbem", b"x" * 2000), 1000)
    assert big.attachments == [] and "over the limit of 1000" in big.problems[0]
    climbing = parse_mail(_mail_with(f"../../{GAME}-00001-axis.pbem", b"x"), 1000)
    assert [a.filename for a in climbing.attachments] == [f"{GAME}-00001-axis.pbem"]
    named = parse_mail(_mail_with("evil.pbem", b"x"), 1000)
    assert named.attachments == [] and "is not named" in named.problems[0]
    empty = parse_mail(_mail_with(f"{GAME}-00001-axis.pbem", b""), 1000)
    assert empty.attachments == [] and "empty" in empty.problems[0]
    other = parse_mail(_mail_with("photo.jpg", b"x"), 1000)
    assert other.attachments == [] and other.problems == [] and other.sender == "eve@example.org"
    garbage = parse_mail(b"\xff\xfe\x00 not a mail at all", 1000)
    assert garbage.attachments == []


def test_bodystructure_walk() -> None:
    # The shape imapclient returns from Dovecot for a text part plus one attachment.
    structure = (
        [
            (b"text", b"plain", (b"charset", b"utf-8"), None, None, b"7bit", 3, 1, None, None, None, None),
            (
                b"application",
                b"octet-stream",
                None,
                None,
                None,
                b"base64",
                6,
                None,
                (b"attachment", (b"filename", f"{GAME}-00001-axis.pbem".encode())),
                None,
                None,
            ),
        ],
        b"mixed",
        (b"boundary", b"xx"),
        None,
        None,
        None,
    )
    assert has_turn_attachment(structure)
    plain = (b"text", b"plain", (b"charset", b"utf-8"), None, None, b"7bit", 3, 1, None, None, None, None)
    assert not has_turn_attachment(plain)
    encoded = (b"application", b"octet-stream", (b"name", b"=?utf-8?q?x.pbem?="), None, None, b"base64", 6)
    assert has_turn_attachment(encoded)


def test_policy_default_parsing_of_built_mail() -> None:
    turn = parse_turn_name(f"{GAME}-00001-axis.pbem")
    assert turn is not None
    msg = build_turn_mail(
        sender="a@example.org",
        recipient="b@example.org",
        turn=turn,
        data=b"d",
        message_id="<m@x>",
        references=[],
        body="b",
    )
    again = email.message_from_bytes(msg.as_bytes(), policy=email.policy.default)
    assert again["In-Reply-To"] is None

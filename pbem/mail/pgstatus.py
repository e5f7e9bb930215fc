"""`pbem mail status` and `pbem mail retry` on the PostgreSQL store: what the send queue in
the database holds, per mail and per game, and failed mails queued again."""

from __future__ import annotations

import time
from collections import Counter

from pbem.mail.pgstore import QueuedMail, Store


def _mail_line(mail: QueuedMail, now: float) -> str:
    where = f"{mail.what} -> {mail.recipient} (game {mail.game_id}"
    if mail.status == "failed":
        cannot = "; it cannot be sent again: no mail could be written for it" if mail.unwritable else ""
        return f"FAILED   {where}): {mail.last_error}{cannot}"
    if mail.leased_by and mail.next_at > now:
        when = f"being sent by worker {mail.leased_by}"
    else:
        when = f"next in {max(0.0, mail.next_at - now):.0f} s"
    error = f": {mail.last_error}" if mail.last_error else ""
    return f"pending  {where}, attempts {mail.attempts}, {when}){error}"


def _game_line(game_id: str, owed_at: float | None, claim_at: float | None, mails: list[QueuedMail], now: float) -> str:
    parts = []
    if owed_at is not None:
        parts.append(f"owed a look for {max(0.0, now - owed_at):.0f} s")
    pending = [m for m in mails if m.status == "pending"]
    sending = sum(1 for m in pending if m.leased_by and m.next_at > now)
    failed = len(mails) - len(pending)
    if pending:
        parts.append(f"{len(pending)} mail(s) to send" + (f" ({sending} being sent)" if sending else ""))
    if failed:
        parts.append(f"{failed} failed")
    if claim_at is not None and claim_at <= now:
        parts.append(f"a deadline claim due for {now - claim_at:.0f} s")
    return f"game {game_id}: {', '.join(parts)}"


def status_lines(store: Store) -> list[str]:
    """Each unsent mail, then each game with something waiting, then the totals."""
    now = time.time()
    mails = store.mails_unsent()
    waiting = store.games_waiting()
    by_game: dict[str, list[QueuedMail]] = {}
    for mail in mails:
        by_game.setdefault(mail.game_id, []).append(mail)
    lines = [_mail_line(m, now) for m in mails]
    claims_later = 0
    for game_id in sorted(set(by_game) | set(waiting)):
        owed_at, claim_at = waiting.get(game_id, (None, None))
        if owed_at is None and not by_game.get(game_id) and (claim_at is None or claim_at > now):
            claims_later += 1
            continue
        lines.append(_game_line(game_id, owed_at, claim_at, by_game.get(game_id, []), now))
    counts = Counter(m.status for m in mails)
    sending = sum(1 for m in mails if m.status == "pending" and m.leased_by and m.next_at > now)
    owed = sum(1 for owed_at, _ in waiting.values() if owed_at is not None)
    lines.append(
        f"{store.sent_count()} mail(s) sent, {counts['pending']} pending ({sending} being sent), "
        f"{counts['failed']} failed; {owed} game(s) owed a look, {claims_later} waiting on the opponent's deadline"
    )
    return lines


def retry_line(store: Store) -> str:
    again, unwritable = store.retry_failed()
    line = f"{again} failed mail(s) queued again; the running workers send them on their next cycle"
    if unwritable:
        line += f" ({unwritable} stay failed: no mail could be written for them)"
    return line

"""The calendar of a game by mail (issue 26): two daemons on real mail servers, two people
who each look at their mail once a day.

``python3 -m benchmarks.bench_mail_calendar [--end 1940-06] [--record DIR]`` starts private
Dovecot and Postfix on loopback (the mail tests' helper; needs root and the servers
installed: tests/install-mail-servers), and two bot mailboxes, one per side of a 1939
game, in this process.  Each side's "person" is the computer player deciding as a person
would, with reaction orders and its month's hidden steps given ahead (the bot mailbox's
player, ``turn.computer_side``); everything else is the mail daemons' automatic answers.
The game is played over SMTP and IMAP from 1939-09 to the end of month ``--end``.

The run gives, for every file of the record, when its receiver imported it (real time)
and whether a person made it (the bot mailbox's player wrote it) or the daemon (an
import's automatic answer).  The calendar (:func:`calendar`) replays that chain on a
clock of days: a person looks at the mail once every ``--every`` hours, at the same
time of day as the other or at the opposite time; a file a person makes starts a
sitting at the person's next look after the file it answers arrived, unless the person
is still sitting (their last decision was the last a person made: only automatic
answers came since, in seconds); every file then takes the real seconds it took, from
the import of the file before it to its own import at the other end.  A game month runs
from the first file that reaches it to the first that reaches the next, so the months'
days add up to the time from the first look at the invitation to the first file of the
month after ``--end``: at the same time of day, the months' sittings in days, or one day
less when that file is an automatic answer made within their last sitting (the first
sitting, at the first look, waits for nothing).

The record (``--record``, or a temporary folder) keeps the game's files and what the run
saw (``mail-run.json``); ``--from DIR`` computes the calendar again from it, with no servers.
It prints the days per game month at both times of day, the war extrapolated to 88
months (1939-09 to 1946-12), the sittings and hops per month (pbem/play/sittings.py), the
wall time, and checks the calendar against the last line of ``pbem log REC --sittings``
on the same record (run as a command).  It is not a test: nothing fails on a slow machine.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOUR = 3600.0
DAY = 24 * HOUR
#: Calendar days in a month, as pbem/play/sittings.py counts them.
MONTH_DAYS = 30.4
SIDES = ("axis", "allies")


@dataclass(frozen=True)
class Sent:
    """One file of the record as the run saw it."""

    seq: int
    side: str
    month: str  # the month of its last entry (a month starts with the first file reaching it)
    sitting_month: str  # the month of its first entry a person gave (a sitting counts there, as in sittings.py)
    by_person: bool  # made by the side's player (a person's decision), not by the daemon's import
    arrived: float  # real time its receiver imported it


@dataclass
class Calendar:
    """The chain of files on a clock of days (seconds from the invitation's arrival)."""

    starts: dict[str, float] = field(default_factory=dict)  # month -> when its first file was begun
    sittings: dict[str, dict[str, int]] = field(default_factory=dict)  # month -> side -> sittings
    end: float = 0.0  # when the last file arrived

    def days(self, months: Sequence[str]) -> list[float]:
        """The days each of ``months`` took, up to the start of the month after it (or the end)."""
        ordered = sorted(self.starts)
        out = []
        for m in months:
            after = [x for x in ordered if x > m]
            out.append(((self.starts[after[0]] if after else self.end) - self.starts[m]) / DAY)
        return out


def next_look(t: float, offset: float, every: float) -> float:
    """The first time at or after ``t`` when a person who looks every ``every`` seconds, at
    ``offset`` into each period, looks."""
    k = -((offset - t) // every)  # ceil((t - offset) / every)
    return offset + k * every


def _war(days: Sequence[float]) -> float:
    """The whole war in calendar months: the game's first month once, at its own cost (nobody
    sat before it to give its lists ahead), the others at the pace of the months after it, as
    `pbem log --sittings` counts them (pbem/play/sittings.py, ``calendar``)."""
    from pbem.play.sittings import WAR_MONTHS

    if not days:
        return float("nan")
    pace = statistics.fmean(days[1:]) if len(days) > 1 else days[0]
    return (days[0] + pace * (WAR_MONTHS - 1)) / MONTH_DAYS


def calendar(files: Sequence[Sent], start: float, offsets: Mapping[str, float], every: float) -> Calendar:
    """The files on a clock that starts (0) when the invitation arrived at ``start``, real time;
    ``offsets``: when in the period each side looks."""
    cal = Calendar()
    clock, real, seated = 0.0, start, ""
    for f in files:
        begun = clock
        if f.by_person and f.side != seated:
            begun, seated = next_look(clock, offsets[f.side], every), f.side
            counts = cal.sittings.setdefault(f.sitting_month, dict.fromkeys(SIDES, 0))
            counts[f.side] += 1
        cal.starts.setdefault(f.month, begun)
        clock = begun + max(0.0, f.arrived - real)
        real = max(real, f.arrived)
    cal.end = clock
    return cal


def _month_after(month: str) -> str:
    year, m = int(month[:4]), int(month[5:])
    return f"{year + m // 12}-{m % 12 + 1:02d}"


class _Run:
    """Two bot mailboxes playing one 1939 game; what each imported and made, and when."""

    def __init__(self, root: Path, servers: Any) -> None:
        from mailtesting import write_config

        from pbem.mail import botplayer
        from pbem.mail.bot import BotMailbox
        from pbem.mail.config import load_config
        from pbem.play import games
        from pbem.store import keys
        from pbem.store.store import Workspace

        self.arrived: dict[int, float] = {}  # seq -> real time its receiver imported it
        self.by_person: set[str] = set()  # names of the files the players wrote
        self.thinking: list[float] = []  # seconds each of the players' decisions took
        self.homes = {side: root / f"home-{side}" for side in SIDES}
        self.workspaces = {side: root / f"ws-{side}" for side in SIDES}
        configs = {}
        for side in SIDES:
            address = servers.add_user(side)
            self.workspaces[side].mkdir()
            keys.keygen(f"{side}-person", address, directory=self.homes[side])
            path = root / f"{side}.toml"
            extra = f'home = "{self.homes[side]}"\nattach_map = false\n[bot]\nidentity = "{side}-person"'
            write_config(path, servers, address, self.workspaces[side], extra=extra, exchange="pbem.play.exchange")
            configs[side] = load_config(path)
        run = self

        class Person:
            """The bot mailbox's player, noting which files it wrote and how long it thought."""

            @staticmethod
            def accept(workspace: Path, game_id: str, identity: str, home: Path | None) -> list[Path]:
                made = botplayer.accept(workspace, game_id, identity, home)
                run.by_person.update(p.name for p in made)
                return made

            @staticmethod
            def play(workspace: Path, game_id: str, home: Path | None) -> list[Path]:
                began = time.monotonic()
                made = botplayer.play(workspace, game_id, home)
                run.thinking.append(time.monotonic() - began)
                run.by_person.update(p.name for p in made)
                return made

        self.daemons = {side: BotMailbox(configs[side], player=Person()) for side in SIDES}  # type: ignore[arg-type]
        for daemon in self.daemons.values():
            daemon.on_imported.append(self._imported)
        opponent = keys.read_public_key(self.homes["allies"] / "allies-person.pub")
        self.gid, _ = games.new_game(
            Workspace(self.workspaces["axis"]),
            "1939",
            "axis",
            "axis-person",
            opponent,
            opponent_email=configs["allies"].address,
            home=self.homes["axis"],
        )

    def _imported(self, game_id: str, status: str, result: Any) -> None:
        seq = getattr(result, "seq", None)
        if status in ("applied", "stored") and seq is not None:  # stored: the invitation, kept to be joined
            self.arrived.setdefault(int(seq), time.time())

    def month(self, side: str) -> str:
        from pbem.errors import PbemError
        from pbem.protocol import engine_link
        from pbem.store.localgame import LocalGame
        from pbem.store.store import Workspace

        try:
            game = LocalGame(Workspace(self.workspaces[side]), self.gid, self.homes[side]).game()
        except PbemError:  # not joined yet
            return ""
        return "" if game is None else str(engine_link.api().decision(game.state).when)

    def files(self) -> list[Any]:
        from pbem.play import history
        from pbem.store.store import Workspace

        return history.workspace_files(Workspace(self.workspaces["axis"]), self.gid)


@dataclass
class Seen:
    """What a run saw besides the files; kept as ``mail-run.json`` beside them in the record."""

    game: str
    arrived: dict[int, float]  # seq -> real time its receiver imported it
    by_person: list[str]  # names of the files the players wrote
    thinking: list[float]  # seconds each of the players' decisions took
    reached: str  # the month both sides' games were in at the end
    wall_s: float
    cpu_s: float

    def save(self, record: Path) -> None:
        (record / RUN_FILE).write_text(json.dumps(self.__dict__, indent=1))

    @classmethod
    def load(cls, record: Path) -> Seen:
        d = json.loads((record / RUN_FILE).read_text())
        d["arrived"] = {int(k): v for k, v in d["arrived"].items()}
        return cls(**d)


RUN_FILE = "mail-run.json"


def bench_mail_calendar(
    end: str = "1940-06",
    every_hours: float = 24.0,
    timeout_s: float = 6 * HOUR,
    record: Path | None = None,
    out: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Play 1939-09 to the end of month ``end`` by mail and compute its calendar; returns the numbers."""
    from benchmarks.bench_mail import mail_servers

    MailServers = mail_servers()
    root = Path(tempfile.mkdtemp(prefix="pbem-bench-calendar-"))
    try:
        record = record or root / "record"
        _play(root, MailServers(root / "servers"), end, timeout_s, record, out)
        return analyse(record, end, every_hours, out)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _play(root: Path, servers: Any, end: str, timeout_s: float, record: Path, out: Callable[[str], None]) -> None:
    """Play the game by mail until month ``end`` is over; keep its files and :class:`Seen` in ``record``."""
    stop_at = _month_after(end)
    root.chmod(0o755)  # the postfix user must reach the servers' directory inside
    servers.root.mkdir()
    try:
        servers.start()
        run = _Run(root, servers)
        workers = [
            threading.Thread(target=d.run, kwargs={"max_seconds": timeout_s}, daemon=True) for d in run.daemons.values()
        ]
        started = time.monotonic()
        cpu = time.process_time()
        for w in workers:
            w.start()
        said = ""
        while time.monotonic() - started < timeout_s and all(w.is_alive() for w in workers):
            now = min(run.month("axis"), run.month("allies"))
            if now and now != said:
                said = now
                out(f"  {now} begun after {time.monotonic() - started:7.0f} s wall")
            if now >= stop_at:
                break
            time.sleep(1.0)
        wall = time.monotonic() - started
        for d in run.daemons.values():
            d.stopping = True
        for w in workers:
            w.join(timeout=120)
        cpu = time.process_time() - cpu
        reached = min(run.month("axis"), run.month("allies"))
        files = run.files()
    finally:
        servers.stop()
    record.mkdir(parents=True, exist_ok=True)
    for tf in files:
        (record / tf.name).write_bytes(tf.raw)
    Seen(run.gid, run.arrived, sorted(run.by_person), run.thinking, reached, wall, cpu).save(record)


def sent_files(files: Sequence[Any], log: Sequence[Mapping[str, Any]], seen: Seen) -> list[Sent]:
    """The record's files after the invitation as the run saw them."""
    from pbem.play import sittings

    by_seq = {f["seq"]: f for f in log}
    sent: list[Sent] = []
    arrived, month = float("inf"), "1939-09"
    for tf in reversed(files[1:]):
        # A file held until the one before it came is applied, and so arrives, with it.
        arrived = min(arrived, seen.arrived.get(tf.seq, arrived))
        sent.insert(0, Sent(tf.seq, tf.side, "", "", tf.name in seen.by_person, arrived))
    for i, f in enumerate(sent):
        entries = by_seq[f.seq]["entries"] if f.seq in by_seq else []
        month = entries[-1]["when"] if entries else month  # a file without entries: the month before
        decided = [e["when"] for e in entries if e["by"] == sittings.PERSON]
        sent[i] = Sent(f.seq, f.side, month, decided[0] if decided else month, f.by_person, f.arrived)
    return sent


def analyse(record: Path, end: str, every_hours: float, out: Callable[[str], None] = print) -> dict[str, Any]:
    """The calendar of the game kept in ``record`` (its files and the run's :class:`Seen`), printed."""
    from pbem.play import history, report, sittings

    seen = Seen.load(record)
    files = history.record_files(record, seen.game)
    log = [r.to_json() for r in report.reports(files)]
    tally = sittings.tally(log, last_whole=False)
    sent = sent_files(files, log, seen)
    # Whom the run saw make each file against whom the log says gave it: they must agree.
    logged_person = {f["seq"]: any(e["by"] == sittings.PERSON for e in f["entries"]) for f in log}
    disagree = [f.seq for f in sent if f.by_person != logged_person.get(f.seq, f.by_person)]
    months = [m.when for m in tally.months if m.when <= end and m.finished]
    every = every_hours * HOUR
    same = calendar(sent, seen.arrived[0], {"axis": 0.0, "allies": 0.0}, every)
    opposite = calendar(sent, seen.arrived[0], {"axis": 0.0, "allies": every / 2}, every)
    days_same, days_opposite = same.days(months), opposite.days(months)
    mean_same = statistics.fmean(days_same) if days_same else float("nan")
    mean_opposite = statistics.fmean(days_opposite) if days_opposite else float("nan")
    automatic = [b.arrived - a.arrived for a, b in itertools.pairwise(sent) if not b.by_person]
    logged = _log_sittings(record, seen.game)

    out(
        f"1939 game {seen.game} by mail, 1939-09 to {end}: {len(files)} files, reached {seen.reached}, "
        f"{seen.wall_s:.0f} s wall ({seen.wall_s / 60:.1f} min), {seen.cpu_s:.0f} s CPU in the daemons' process"
    )
    out(
        f"the players' decisions: {len(seen.thinking)}, {sum(seen.thinking):.0f} s in all; the daemons' automatic "
        f"files: {len(automatic)}, each from the file before it arriving to its own arrival median "
        f"{_median(automatic):.1f} s, max {max(automatic, default=float('nan')):.1f} s"
    )
    out(f"files whose maker (person/daemon) the log does not confirm: {len(disagree)} {disagree[:10]}")
    out("")
    for line in tally.lines():
        out(line)
    out("")
    out(f"calendar, each person looking at the mail once every {every_hours:g} hours:")
    out(f"{'month':<8} {'sittings':>8} {'days (same time)':>17} {'days (opposite times)':>22}")
    for m, a, b in zip(months, days_same, days_opposite, strict=True):
        n = sum(same.sittings.get(m, {}).values())
        out(f"{m:<8} {n:>8} {a:>17.2f} {b:>22.2f}")
    war_same, war_opposite = _war(days_same), _war(days_opposite)
    out(
        f"mean over {len(months)} month(s): {mean_same:.2f} days a game month at the same time of day, "
        f"{mean_opposite:.2f} at opposite times"
    )
    out(
        f"the war ({sittings.WAR_MONTHS} months, 1939-09 to 1946-12), its first month once and the others at the "
        f"pace of the months after it: {war_same:.1f} months at the same time of day, {war_opposite:.1f} at "
        "opposite times"
    )
    cal = logged.get("calendar") or {}
    out(f"`pbem log REC --sittings` on the same record: {logged.get('line', '(no calendar line)')}")
    if cal:
        out(
            f"cross-check: {mean_same:.2f} days a month by the mail run, at most {cal['days_per_month']:g} by the log; "
            f"the war {war_same:.1f} / {war_opposite:.1f} months by the mail run, at most "
            f"{cal['war_months']:g} / {cal['war_months_opposite_times']:g} by the log"
        )
    return {
        "game": seen.game,
        "files": len(files),
        "reached": seen.reached,
        "wall_s": seen.wall_s,
        "cpu_s": seen.cpu_s,
        "months": months,
        "days_same": days_same,
        "days_opposite": days_opposite,
        "days_per_month_same": mean_same,
        "days_per_month_opposite": mean_opposite,
        "war_months_same": war_same,
        "war_months_opposite": war_opposite,
        "automatic_files": len(automatic),
        "automatic_median_s": _median(automatic),
        "disagreements": disagree,
        "tally": tally.to_json(),
        "log_calendar": cal,
    }


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _log_sittings(record: Path, game: str) -> dict[str, Any]:
    """``pbem log RECORD --sittings`` as a command: its summary's calendar (``--json``) and its last line."""
    base = [sys.executable, "-m", "pbem.cli.main", "log", str(record), "--game", game, "--sittings"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    found: dict[str, Any] = {}
    as_json = subprocess.run([*base, "--json"], capture_output=True, text=True, env=env, check=False)
    if as_json.returncode == 0:
        found["calendar"] = json.loads(as_json.stdout)["summary"]["calendar"]
    text = subprocess.run(base, capture_output=True, text=True, env=env, check=False)
    lines = (text.stdout if text.returncode == 0 else text.stderr).strip().splitlines()
    if lines:
        found["line"] = lines[-1]
    return found


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.bench_mail_calendar", description=__doc__)
    parser.add_argument("--end", default="1940-06", help="the last game month played to its end (YYYY-MM)")
    parser.add_argument("--every", type=float, default=24.0, help="hours between a person's looks at the mail")
    parser.add_argument("--timeout", type=float, default=6 * HOUR, help="seconds the run may take at most")
    parser.add_argument("--record", type=Path, default=None, help="a folder to keep the game's files in")
    parser.add_argument(
        "--from", dest="again", type=Path, default=None, help="compute the calendar again from a kept --record folder"
    )
    args = parser.parse_args(argv)
    if args.again is not None:
        analyse(args.again, args.end, args.every)
        return
    bench_mail_calendar(args.end, args.every, args.timeout, args.record)


if __name__ == "__main__":
    main(sys.argv[1:])

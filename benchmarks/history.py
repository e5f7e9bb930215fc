"""The bot's war against itself over many seeds: the history table of docs/ai.md.

``python3 -m benchmarks.history --seed 4000 --games 20 --until 1947-01 --jobs 2 --out FILE``
plays each seed as ``pbem arena --scenario 1939 --games 1 --seed S --until U`` does (the same
game, decision for decision and roll for roll), several at a time in separate processes,
appends each game's result (the arena's JSON of a game, plus its CPU seconds) to FILE as one
JSON line as soon as it ends, and prints the history table in Markdown with the targets of
the issue "Politics and the war's calendar".  A run cut short is taken up again: seeds
already in FILE are not played twice.  ``--table`` prints the table of FILE and plays nothing.

A change that acts only late in the war is measured without the years before it: ``--keep DIR
--keep-at 1945-01`` writes each game as that month begins to ``DIR/SEED.pickle`` (the arena's
``Resume``), and ``--resume DIR`` plays each seed on from there, with the code of the tree it
runs in (the games are the same up to the month kept while the change has not yet acted).  The
pickles are this machine's own scratch files, read back by the same tool and no one else.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import pickle
import time
from pathlib import Path
from typing import Any

#: The Axis entries the targets ask about (the others enter because war is declared on them).
AXIS_ENTRIES = ("Italy", "Hungary", "Romania", "Bulgaria", "Finland", "Spain", "Thailand")
BALKANS = ("Hungary", "Romania", "Bulgaria")


def play(job: tuple[int, str, Path | None, str, Path | None]) -> dict[str, Any]:
    """One game, in a worker process: the arena's result and the CPU time it took.  ``job``:
    the seed, the month it stops at, where to keep it as ``keep_at`` begins (or None), and
    where to resume it from (or None)."""
    from engine.ai import arena
    from engine.state import date_text, parse_date

    seed, until, keep, keep_at, resume_dir = job
    resume = None
    if resume_dir is not None:
        with (resume_dir / f"{seed}.pickle").open("rb") as f:
            resume = pickle.load(f)

    def kept(r: arena.Resume) -> None:
        if keep is not None and date_text(r.state.date) == keep_at:
            with (keep / f"{seed}.pickle").open("wb") as f:
                pickle.dump(arena.Resume(r.state.copy(), r.decisions, r.chances), f)

    started = time.process_time()
    result = arena.play_game(
        "1939", parse_date(until), {"axis": "bot", "allies": "bot"}, seed, resume=resume, on_resume=kept
    )
    row = dataclasses.asdict(result)
    row["cpu_seconds"] = round(time.process_time() - started, 1)
    return row


def by(date: str, year: int) -> bool:
    """Did an event dated ``date`` (YYYY-MM, '' for never) happen by the end of ``year``?"""
    return bool(date) and date <= f"{year}-12"


def _dated(items: dict[str, str]) -> str:
    return ", ".join(f"{c} {d}" for c, d in sorted(items.items(), key=lambda kv: (kv[1], kv[0]))) or "—"


def row_text(g: dict[str, Any]) -> str:
    entered = {c: d for c, (d, side) in g["entered"].items() if side == "axis" and c in AXIS_ENTRIES}
    entries = _dated(entered)
    if g["failed_attempts"]:
        entries += "; failed: " + _dated(g["failed_attempts"])
    vichy = g["vichy"] or (f"failed {g['vichy_failed']}" if g["vichy_failed"] else "—")
    bombs = g["air"].get("allies", {}).get("atomic bombs", 0) + g["air"].get("axis", {}).get("atomic bombs", 0)
    convoys = f"{g['convoy_money'].get('axis', 0):,} / {g['convoy_money'].get('allies', 0):,}"
    result = f"{g['winner']} by {g['by']}" + (f" ({g['end_date']})" if g["by"] == "engine" else "")
    if g["by"] != "engine" and g.get("standing", {}).get("axis"):  # older lines lack it
        result += f"; Axis standing: {', '.join(g['standing']['axis'])}"
    cells = [
        str(g["seed"]),
        entries,
        g["soviet_war"] or "—",
        g["us_war"] or "—",
        _dated(g["fallen"]),
        vichy,
        _dated(g["surrendered"]),
        _dated(g["liberated"]),
        str(bombs),
        convoys,
        result,
        f"{g['cpu_seconds']:.0f} s",
        "none" if not g["error"] else g["error"][:80],
    ]
    return "| " + " | ".join(cells) + " |"


def targets(games: list[dict[str, Any]]) -> list[tuple[str, int]]:
    def balkans(g: dict[str, Any]) -> bool:
        axis_in = {c for c, (d, side) in g["entered"].items() if side == "axis" and by(d, 1941)}
        return "Italy" in axis_in and len(axis_in & set(BALKANS)) >= 2

    def surrender(g: dict[str, Any], but: str = "") -> bool:
        return any(by(d, 1946) for c, d in g["surrendered"].items() if c != but)

    checks: list[tuple[str, Any]] = [
        ("Poland conquered by the end of 1939 (18 of 20 asked)", lambda g: by(g["fallen"].get("Poland", ""), 1939)),
        (
            "France conquered or Vichy France created by the end of 1940 (14 of 20)",
            lambda g: by(g["fallen"].get("France", ""), 1940) or by(g["vichy"], 1940),
        ),
        ("The Axis at war with the Soviet Union by the end of 1941 (14 of 20)", lambda g: by(g["soviet_war"], 1941)),
        ("Italy and two of Hungary, Romania, Bulgaria in by the end of 1941 (14 of 20)", balkans),
        ("The United States at war", lambda g: bool(g["us_war"])),
        ("A victory by the rules before 1947", lambda g: g["by"] == "engine"),
        ("A surrender before 1947", surrender),
        ("A surrender other than Finland's before 1947", lambda g: surrender(g, but="Finland")),
        ("A victory or a surrender before 1947 (1 game in 5)", lambda g: g["by"] == "engine" or surrender(g)),
        ("Games without a stall or an illegal move", lambda g: not g["error"]),
    ]
    return [(what, sum(bool(check(g)) for g in games)) for what, check in checks]


def table(games: list[dict[str, Any]]) -> str:
    games = sorted(games, key=lambda g: g["seed"])
    head = (
        "| Seed | Entered (Axis) | Axis at war with the USSR | US at war | Conquered | Vichy France | Surrendered "
        "| Liberated | Atomic bombs | Convoy money Axis / Allies ($B) | Result | CPU | Errors |"
    )
    lines = [head, "|" + "---|" * head.count(" | ") + "---|"]
    lines += [row_text(g) for g in games]
    lines += ["", "| Target | Games |", "|---|---|"]
    lines += [f"| {what} | **{n} of {len(games)}** |" for what, n in targets(games)]
    return "\n".join(lines)


def load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=4000, help="first seed")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--until", default="1947-01", help="stop when this month begins (YYYY-MM)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="games played at a time")
    parser.add_argument("--out", type=Path, default=Path("history.jsonl"), help="one JSON line per game")
    parser.add_argument("--table", action="store_true", help="print the table of --out and play nothing")
    parser.add_argument("--keep", type=Path, help="keep each game in this folder as --keep-at begins")
    parser.add_argument("--keep-at", default="1945-01", help="the month (YYYY-MM) --keep keeps")
    parser.add_argument("--resume", type=Path, help="play each seed on from the game --keep kept in this folder")
    args = parser.parse_args(argv)
    if not args.table:
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
        done = {g["seed"] for g in load(args.out)}
        jobs = [
            (s, args.until, args.keep, args.keep_at, args.resume)
            for s in range(args.seed, args.seed + args.games)
            if s not in done
        ]
        print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
        with multiprocessing.Pool(max(1, args.jobs)) as pool:
            for row in pool.imap_unordered(play, jobs):
                with args.out.open("a") as out:
                    out.write(json.dumps(row) + "\n")
                print(f"seed {row['seed']}: {row['cpu_seconds']:.0f} s of CPU", flush=True)
        print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    print(table(load(args.out)))


if __name__ == "__main__":
    main()

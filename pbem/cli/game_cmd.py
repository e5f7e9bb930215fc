"""Game commands: identities, new/join, import, orders, send, undo, verify, audit, selfplay."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.common import LEVEL_HELP, WorkspaceOpt, game_in, pass_anyway, sent, user_errors, workspace
from pbem.cli.progress import Progress, QuietOpt
from pbem.errors import PbemError
from pbem.play import ahead_entry, audit, exchange, games, levels, reactions, solo, status, turn, whole
from pbem.play.status import lines as status_lines
from pbem.protocol import clock, gameoptions
from pbem.protocol.words import phase_name
from pbem.store import keys
from pbem.store.store import Workspace, atomic_write

key_app = typer.Typer(help="Identity keys.", no_args_is_help=True)


def month_text(text: str) -> str:
    """A month given by a person (``YYYY-MM``), checked and written the engine's way."""
    try:
        y, m = text.split("-")
        year, month = int(y), int(m)
    except ValueError:
        raise PbemError(f"'{text}' is not a date; write YYYY-MM, e.g. 1940-06", "usage") from None
    if not 1 <= month <= 12:
        raise PbemError(f"'{text}' is not a date; the month must be 01 to 12", "usage")
    return f"{year:04d}-{month:02d}"


@user_errors
def keygen(
    name: Annotated[str, typer.Argument(help="Identity name, e.g. your first name")],
    email: Annotated[str, typer.Option("--email", help="Your e-mail address (written into the public key)")] = "",
    passphrase_env: Annotated[str, typer.Option("--passphrase-env", help="Env variable holding the passphrase")] = "",
) -> None:
    """Create an identity (Ed25519 key pair) in $PBEM_HOME and print its fingerprint."""
    passphrase = None
    if passphrase_env:
        passphrase = os.environ.get(passphrase_env)
        if not passphrase:
            raise PbemError(f"--passphrase-env {passphrase_env}: that variable is not set or empty", "usage")
    ident = keys.keygen(name, email, passphrase, passphrase_env=passphrase_env)
    typer.echo(f"identity {name}: fingerprint {ident.public.fingerprint}")
    typer.echo(f"give your opponent the file from `pbem key export {name} -o {name}.pub`")


@key_app.command("list")
@user_errors
def key_list() -> None:
    """List my identities: name, e-mail, fingerprint, and whether a passphrase protects the key."""
    found = keys.identities()
    if not found:
        typer.echo(f"no identities in {keys.home()}; create one with `pbem keygen NAME --email ADDRESS`")
        return
    for pub, protected in found:
        guard = "passphrase" if protected else "no passphrase"
        typer.echo(f"{pub.name:<16} {pub.email or '(no e-mail)':<32} {pub.fingerprint}  ({guard})")


@key_app.command("set-email")
@user_errors
def key_set_email(
    name: Annotated[str, typer.Argument(help="Identity name")],
    address: Annotated[str, typer.Argument(help="The new e-mail address")],
    out: Annotated[Path | None, typer.Option("-o", "--output", help="Also write the signed statement here")] = None,
    ws_path: WorkspaceOpt = None,
) -> None:
    """Change my e-mail address and sign a statement of it for my opponents (into outbox/)."""
    from pbem.play import contact

    statement = contact.set_email(name, address)
    typer.echo(f"identity {name}: e-mail {address} (statement {statement.counter}, key {statement.fingerprint})")
    if out is not None:
        atomic_write(out, statement.raw)
        typer.echo(f"wrote {out}")
    games = contact.publish(workspace(ws_path), name, statement)
    if not games:
        typer.echo(f"no game in this workspace is played as {name}; send the statement (-o FILE) to your opponents")
    else:
        typer.echo(f"statement written to outbox/ for game(s) {', '.join(games)}; the mail daemon sends it")


@key_app.command("export")
@user_errors
def key_export(
    name: Annotated[str, typer.Argument(help="Identity name")],
    out: Annotated[Path | None, typer.Option("-o", "--output", help="Write to this file instead of stdout")] = None,
) -> None:
    """Write the public key file of an identity."""
    keys.check_name(name)
    path = keys.home() / f"{name}.pub"
    try:
        pub = keys.read_public_key(path)
    except PbemError:
        pub = keys.load(name).public
    if out is None:
        typer.echo(pub.to_text(), nl=False)
    else:
        atomic_write(out, pub.to_text().encode())
        typer.echo(f"wrote {out}")


@user_errors
def new(
    scenario: Annotated[str, typer.Option("--scenario", help="Scenario name, e.g. 1939")],
    side: Annotated[str, typer.Option("--side", help="axis or allies")],
    me: Annotated[str, typer.Option("--me", help="Your identity name")],
    opponent: Annotated[Path | None, typer.Option("--opponent", help="The opponent's public key file")] = None,
    opponent_email: Annotated[str, typer.Option("--opponent-email", help="The opponent's e-mail address")] = "",
    deadline: Annotated[
        float, typer.Option("--deadline", help="Hours per decision before the waiting side may claim (0: none)")
    ] = 0,
    on_silence: Annotated[
        str, typer.Option("--on-silence", help="After a claim and a reminder: 'bot' plays the decision, or 'forfeit'")
    ] = "bot",
    against_bot: Annotated[
        bool,
        typer.Option("--against-bot", help="Play here against the computer: it answers each file at once"),
    ] = False,
    level: Annotated[
        int | None,
        typer.Option(
            "--level",
            help=f"{LEVEL_HELP}. With --against-bot, the computer here plays at it; with --opponent, the "
            "invitation asks it of a bot mailbox (a person who joins plays as ever)",
        ),
    ] = None,
    ws_path: WorkspaceOpt = None,
) -> None:
    """Start a game: write the signed invitation (genesis) into outbox/ and print the game id;
    with --against-bot, start it here against the computer instead."""
    ws = workspace(ws_path)
    if against_bot:
        if opponent is not None or deadline:
            raise PbemError("--against-bot plays the computer here: leave out --opponent and --deadline", "usage")
        gid, said = solo.new(ws, scenario, side, me, level=level)
        typer.echo(gid)
        for line in said:
            typer.echo(line, err=True)
        typer.echo(f"game {gid} against the computer: `pbem status` says what to decide; each `pbem send` "
                   f"is answered at once (`pbem play {gid}` plays it in the browser)", err=True)  # fmt: skip
        return
    if opponent is None:
        raise PbemError("give the opponent's public key file with --opponent FILE, or play the computer with "
                        "--against-bot", "usage")  # fmt: skip
    options: dict[str, object] = {}
    if deadline:
        options |= {clock.DEADLINE: round(deadline * 3600), clock.SILENCE: on_silence}
    if level is not None:
        levels.player_of(level)  # a level that does not exist: the engine's one line, before anything is signed
        options[gameoptions.LEVEL] = level
    gid, path = games.new_game(ws, scenario, side, me, keys.read_public_key(opponent), opponent_email, options=options)
    typer.echo(gid)
    typer.echo(f"invitation written to {path.relative_to(ws.root)}; send it to your opponent", err=True)


@user_errors
def join(
    file: Annotated[Path, typer.Argument(help="The invitation file")],
    me: Annotated[str, typer.Option("--me", help="Your identity name")],
    expect_fingerprint: Annotated[
        str,
        typer.Option(
            "--expect-fingerprint",
            help="The inviter's key fingerprint as they gave it to you; refuses any other (no question asked)",
        ),
    ] = "",
    parent: Annotated[
        Path | None, typer.Option("--parent", help="For a branch: a folder with its parent game's files")
    ] = None,
    ws_path: WorkspaceOpt = None,
) -> None:
    """Verify an invitation, show who sent it, and write the answer (join file) into outbox/;
    a branch's starting position is verified by re-executing its parent game (here, or in --parent)."""
    from pbem.play import branch

    ws = workspace(ws_path)
    fingerprint = expect_fingerprint or confirmed_inviter(file)
    base = branch.base_for_invitation(ws, file, audit.game_files(parent) if parent is not None else None)
    gid, path = games.join(ws, file, me, expect_fingerprint=fingerprint, base=base)
    typer.echo(f"joined game {gid}; answer written to {path.relative_to(ws.root)}")
    typer.echo(status_lines(ws, gid)[0])


def confirmed_inviter(file: Path) -> str:
    """Show who signed the invitation and ask the player to confirm; the fingerprint confirmed."""
    found = games.inviter(file)
    if not sys.stdin.isatty():
        raise PbemError(
            f"{found.text()}: confirm it is your opponent's key: run `pbem join` in a terminal to be asked, "
            "or pass --expect-fingerprint FP with the fingerprint they gave you",
            "usage",
        )
    typer.echo(found.text())
    typer.echo("Names and addresses in an invitation prove nothing: compare the fingerprint with")
    typer.echo("the one your opponent gave you (`pbem key list` shows it to them).")
    answer = typer.prompt("Join this game? [y/N]", default="", show_default=False, err=True)
    if answer.strip().lower() not in ("y", "yes"):
        raise PbemError("not joined: the inviter's key was not confirmed", "usage")
    return found.fingerprint


def import_paths(ws_root: Path, files: list[Path]) -> int:
    """Import files (default: all of inbox/); prints one line each; returns the number rejected."""
    paths = files or sorted(p for p in (ws_root / "inbox").glob("*") if p.is_file() and not p.name.startswith("."))
    if not paths:
        typer.echo("nothing to import (inbox/ is empty)")
        return 0
    rejected = 0
    touched: list[str] = []
    for p in paths:
        res = exchange.import_file(ws_root, p)
        if res.status == "rejected":
            rejected += 1
            typer.echo(f"rejected: {res.message}", err=True)
        else:
            typer.echo(res.message)
            if res.report:
                typer.echo(res.report)
            if res.status == "applied" and res.game_id and res.game_id not in touched:
                touched.append(res.game_id)
    # Last, after the long reports: what goes to the opponent now, the line a person acts on.
    ws = Workspace(ws_root)
    for gid in touched:
        if ws.game_paths(gid).path(ws.game_paths(gid).meta).exists():
            typer.echo(status.next_step(ws, gid))
    return rejected


@user_errors
def import_(
    files: Annotated[list[Path] | None, typer.Argument(help="Files to import (default: all of inbox/)")] = None,
    ws_path: WorkspaceOpt = None,
) -> None:
    """Verify and apply received files; automatic answers go to outbox/."""
    if import_paths(workspace(ws_path).root, files or []):
        raise typer.Exit(1)


@user_errors
def orders(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")],
    file: Annotated[
        str | None,
        typer.Argument(
            help="Text file of orders, one per line, or - for stdin (with --suggested: your changes to the proposal)"
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Pass even when passing would lose units or money")] = False,
    ahead_step: Annotated[
        str | None,
        typer.Option(
            "--ahead",
            metavar="STEP",
            help="Orders for a coming simultaneous step of the month (war_declaration, deployment, income, "
            "build), kept and sealed by the program when it comes; an empty file takes them back",
        ),
    ] = None,
    fallback: Annotated[
        str,
        typer.Option(
            "--fallback",
            help="With --ahead, for orders the real position no longer allows: ask (stop and ask you), "
            "bot (the computer player's choice for them) or none (left out)",
        ),
    ] = "ask",
    suggested: Annotated[
        bool,
        typer.Option(
            "--suggested",
            help="The computer player's whole list for this hidden step, except that the orders in FILE "
            "(if given) replace its orders on the same units: `pbem orders GAME --suggested changes.txt`",
        ),
    ] = False,
    as_last_month: Annotated[
        bool,
        typer.Option(
            "--as-last-month",
            help="My list of the same hidden step last month, given again; orders that no longer fit are "
            "named and left out",
        ),
    ] = False,
    ws_path: WorkspaceOpt = None,
) -> None:
    """Add orders to my pending turn (all or nothing; errors name the line); with --suggested or
    --as-last-month, a whole hidden list in one step; with --ahead STEP, give the orders of a
    coming simultaneous step of the month in this sitting."""
    ws = workspace(ws_path)
    if fallback != "ask" and ahead_step is None:
        raise PbemError("--fallback goes with --ahead STEP: it says what to do with orders given ahead", "usage")
    if as_last_month:
        if file is not None or suggested or ahead_step is not None:
            raise PbemError(
                "--as-last-month takes no FILE, --suggested or --ahead: it repeats last month's list", "usage"
            )
        typer.echo(whole.as_last_month(ws, ws.resolve_game(game)))
        return
    if file is None and not suggested:
        raise PbemError("give a FILE of orders (or - for stdin), or --suggested or --as-last-month", "usage")
    text = "" if file is None else _read_orders(file)
    if suggested:
        if ahead_step is not None:
            raise PbemError("--suggested is for the step now; `pbem suggest GAME --ahead STEP` proposes ahead", "usage")
        gid = ws.resolve_game(game)
        with pass_anyway(f"`pbem orders {gid} FILE --suggested`"):
            typer.echo(whole.suggested(ws, gid, text.splitlines(), force=force))
        return
    if ahead_step is not None:
        typer.echo(ahead_entry.give(ws, ws.resolve_game(game), ahead_step, text.splitlines(), fallback))
        return
    gid = ws.resolve_game(game)
    with pass_anyway(f"`pbem orders {gid} FILE`"):
        typer.echo(turn.orders(ws, gid, text.splitlines(), force=force).words())


def _read_orders(file: str) -> str:
    if file == "-":
        return sys.stdin.read(8 << 20)
    try:
        return Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise PbemError(f"cannot read the orders file {Path(file).name}", "usage") from None


@user_errors
def send(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")],
    force: Annotated[bool, typer.Option("--force", help="Seal even when ending the list would waste money")] = False,
    ws_path: WorkspaceOpt = None,
) -> None:
    """Seal my pending turn into a signed file in outbox/."""
    ws, gid = game_in(game, ws_path)
    with pass_anyway(f"`pbem send {gid}`"):
        path = turn.send(ws, gid, force=force)
    sent(ws, gid, f"sealed {path.relative_to(ws.root)}")


@user_errors
def undo(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")], ws_path: WorkspaceOpt = None
) -> None:
    """Take back my last unsent action."""
    ws = workspace(ws_path)
    typer.echo(f"took back {turn.take_back(ws, ws.resolve_game(game)).taken}")


@user_errors
def react(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")],
    intercept: Annotated[
        str | None,
        typer.Option("--intercept", help="Interceptions in either side's turn: ask (you decide), bot or pass"),
    ] = None,
    land: Annotated[
        str | None, typer.Option("--land", help="Landing your aircraft in the other side's turn: ask or bot")
    ] = None,
    only: Annotated[
        str | None,
        typer.Option("--only", help="The aircraft that may intercept by themselves, e.g. '#7,#31' ('' for all)"),
    ] = None,
    retreat: Annotated[
        str | None,
        typer.Option(
            "--retreat",
            help="Where your beaten stacks retreat when several hexes are legal: ask (you give `retreat` "
            "orders yourself), bot (the engine picks) or toward:PLACE, e.g. toward:Warsaw; sealed with "
            "your next file, opened before the roll of the other side's attacks",
        ),
    ] = None,
    ws_path: WorkspaceOpt = None,
) -> None:
    """Reaction orders: let the program answer interceptions and landings for you, as they come,
    and give your retreat order."""
    ws, gid = game_in(game, ws_path)
    units = None if only is None else reactions.unit_numbers(only, "--only")
    given, written = turn.react(ws, gid, intercept=intercept, land=land, only=units, retreat=retreat)
    typer.echo(given.words())
    for path in written:
        sent(ws, gid, f"your reaction orders answered the decision now: sealed {path.relative_to(ws.root)}")
    if not written:
        typer.echo(status_lines(ws, gid)[0])


@user_errors
def verify(
    files: Annotated[
        list[Path], typer.Argument(help="A turn file (with --no-engine: a game's files in arrival order)")
    ],
    no_engine: Annotated[
        bool, typer.Option("--no-engine", help="Check only what docs/turn-file-format.md defines, without the engine")
    ] = False,
    ws_path: WorkspaceOpt = None,
) -> None:
    """Check one file against the local game, or (--no-engine) a game's files by the format's rules alone."""
    if no_engine:
        from pbem.protocol import spec_verify

        named = spec_verify.read_paths(files)
        if not named:
            raise PbemError("no turn files to verify", "usage")
        # The same clock as every other check of pbem (PBEM_NOW included), for the time bound.
        verdict = spec_verify.verify([data for _, data in named], now=clock.now())
        for line in verdict.lines:
            typer.echo(line)
        typer.echo(verdict.summary() if verdict.valid else f"{named[verdict.first_bad or 0][0]}: {verdict.summary()}")
        if not verdict.valid:
            raise typer.Exit(1)
        return
    if len(files) != 1:
        raise PbemError("give one turn file (several only with --no-engine)", "usage")
    typer.echo(audit.verify_file(workspace(ws_path), files[0]))


@user_errors
def audit_cmd(
    directory: Annotated[Path, typer.Argument(help="Directory holding a game's files")], quiet: QuietOpt = False
) -> None:
    """Re-verify a whole game from its files: signatures, chain, every action, roll and commitment.
    On a terminal a line on stderr shows the file reached."""
    with Progress(quiet) as progress:
        reports = audit.audit_dir(directory, progress)
    for report in reports:
        typer.echo(report.line())


@user_errors
def selfplay(
    scenario: Annotated[str, typer.Option("--scenario", help="Scenario name, e.g. 1939")],
    until: Annotated[str, typer.Option("--until", help="Stop when the game reaches this month (YYYY-MM)")],
    out: Annotated[Path, typer.Option("--out", help="Directory that receives every file")],
    seed: Annotated[int, typer.Option("--seed", help="Seed for keys, game id and the computer players")] = 1,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="One line per file")] = False,
    react: Annotated[
        bool, typer.Option("--react", help="Both players give reaction orders (see `pbem react`)")
    ] = False,
    quiet: QuietOpt = False,
) -> None:
    """Two computer players exchange real signed files; every file is verified by its receiver.
    On a terminal a line on stderr shows the file, month and phase reached (-v: a line per file instead)."""
    from pbem.play.selfplay import selfplay as run

    log = typer.echo if verbose else lambda s: None
    with Progress(quiet or verbose) as progress:
        result = run(scenario, month_text(until), seed, out, log=log, react=react, progress=progress)
    end = "game over" if result.over else f"reached {result.date} ({phase_name(result.phase)})"
    typer.echo(
        f"selfplay: game {result.game_id}: {result.files} files exchanged and verified, {result.rolls} rolls; "
        f"{end}; files in {out}"
    )


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("keygen")(keygen)
    app.add_typer(key_app, name="key")
    app.command("new")(new)
    app.command("join")(join)
    app.command("import")(import_)
    app.command("orders")(orders)
    app.command("send")(send)
    app.command("undo")(undo)
    app.command("react")(react)
    app.command("verify")(verify)
    app.command("audit")(audit_cmd)
    app.command("selfplay")(selfplay)

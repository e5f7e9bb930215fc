"""Start-up: `pbem status`, `pbem show` and `pbem where #ID` load neither the engine nor
NumPy nor cryptography nor typer; commands are found without importing them all.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import plain
from pbem.cli.main import COMMANDS, app, main, module_commands
from pbem.store import keys

ROOT = Path(__file__).resolve().parent.parent
#: What a look at a game must not import: the rules engine and what only it needs, the
#: signatures' cryptography, and typer (with the pydantic layer it uses for its parsing).
HEAVY = ("engine", "numpy", "cryptography", "pydantic", "pydantic_core", "scenarios", "typer", "click")


@pytest.fixture(scope="module")
def joined(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict[str, str]]:
    """A 1939 game, in the workspace of the player who joined it (a snapshot exists)."""
    root = tmp_path_factory.mktemp("start")
    env = dict(os.environ, PBEM_HOME=str(root / "home"), PYTHONPATH=str(ROOT))
    env.pop("PBEM_WORKSPACE", None)
    runner = CliRunner(env=env)

    def run(*args: str) -> str:
        result = runner.invoke(app, list(args))
        assert result.exit_code == 0, result.output
        return result.output

    run("keygen", "alice")
    run("keygen", "bot")
    run("key", "export", "bot", "-o", str(root / "bot.pub"))
    gid = run("-w", str(root / "a"), "new", "--scenario", "1939", "--side", "allies", "--me", "alice",
              "--opponent", str(root / "bot.pub")).split()[0]  # fmt: skip
    invitation = next((root / "a" / "outbox").glob("*.pbem"))
    alice_fp = keys.read_public_key(Path(env["PBEM_HOME"]) / "alice.pub").fingerprint
    run("-w", str(root / "b"), "join", str(invitation), "--me", "bot", "--expect-fingerprint", alice_fp)
    return root / "b", gid, env


def _fresh(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[str, list[str]]:
    """Run `pbem ARGV` as the console script does, in a fresh interpreter: its output and
    the top-level packages it imported."""
    code = (
        "import sys, json\n"
        f"sys.argv = ['pbem', *{argv!r}]\n"
        "from pbem.cli.main import run\n"
        "try:\n    run()\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, check=True)
    *lines, modules = out.stdout.splitlines()
    return "\n".join(lines) + "\n", json.loads(modules)


@pytest.mark.parametrize(
    "argv", [["status"], ["show", "GAME"], ["show", "GAME", "--enemy", "--no-units"], ["where", "GAME", "#1"]]
)
def test_a_look_at_a_game_imports_no_engine(joined: tuple[Path, str, dict[str, str]], argv: list[str]) -> None:
    ws, gid, env = joined
    argv = [gid if a == "GAME" else a for a in argv]
    out, modules = _fresh(argv, ws, env)
    assert (gid if argv[0] != "where" else "#1 ") in out
    assert [m for m in modules if m in HEAVY] == []
    # the same words as typer's own reading of the command line
    typed = CliRunner(env=env).invoke(app, ["-w", str(ws), *argv])
    assert typed.exit_code == 0 and typed.output == out


def test_the_engine_is_loaded_when_the_allowed_orders_are_asked_for(joined: tuple[Path, str, dict[str, str]]) -> None:
    ws, gid, env = joined
    out, modules = _fresh(["show", gid, "--legal", "3"], ws, env)
    assert "orders you may give now" in out and "engine" in modules


def test_plain_reading_of_a_command_line() -> None:
    from pbem.cli.show_cmd import show

    got = plain.parse(show, ["abc", "--legal=5", "--no-units", "--country", "Germany", "-w", "here"])
    assert got == {
        "game": "abc",
        "legal": 5,
        "units": False,
        "enemy": False,
        "all_sides": False,
        "country": "Germany",
        "near": None,
        "radius": 3,
        "ws_path": Path("here"),
    }
    # anything else is left to typer, which has the messages for it
    for argv in (["abc", "--help"], ["abc", "--radius", "-1"], ["abc", "--legal", "x"], [], ["abc", "--bogus"]):
        with pytest.raises(plain._NotPlain):
            plain.parse(show, argv)
    assert plain.run(main, COMMANDS, ["show", "abc", "--bogus"]) is None
    assert plain.run(main, COMMANDS, ["key", "list"]) is None  # a command group


def test_every_command_is_known_by_name_and_module() -> None:
    modules = {p.stem for p in (ROOT / "pbem" / "cli").glob("*_cmd.py")}
    registered = {name: module for module in sorted(modules) for name in module_commands(module)}
    assert registered == COMMANDS


def test_global_options_are_read_before_the_command(
    joined: tuple[Path, str, dict[str, str]], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ws, gid, env = joined
    monkeypatch.setenv("PBEM_HOME", env["PBEM_HOME"])
    monkeypatch.delenv("PBEM_WORKSPACE", raising=False)
    assert plain.run(main, COMMANDS, ["--workspace", str(ws), "--home", env["PBEM_HOME"], "status", gid]) == 0
    assert os.environ["PBEM_WORKSPACE"] == str(ws)  # as typer's own root callback sets it
    out = capsys.readouterr().out
    assert out == CliRunner(env=env).invoke(app, ["-w", str(ws), "status", gid]).output
    assert plain.run(main, COMMANDS, ["-w", str(ws), "show", "nosuchgame"]) == 1  # a user error: one line, status 1
    assert "no game nosuchgame" in capsys.readouterr().err


def test_a_user_error_in_a_look_is_one_line_without_typer(joined: tuple[Path, str, dict[str, str]]) -> None:
    ws, _, env = joined
    code = (
        "import sys\n"
        "sys.argv = ['pbem', 'show', 'nosuchgame']\n"
        "from pbem.cli.main import run\n"
        "try:\n    run()\nexcept SystemExit as exc:\n"
        "    print(exc.code, 'typer' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ws, env=env, capture_output=True, text=True)
    assert done.stdout == "1 False\n"
    assert done.stderr.splitlines() == [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert len(done.stderr.splitlines()) == 1
    typed = CliRunner(env=env).invoke(app, ["-w", str(ws), "show", "nosuchgame"])
    assert typed.exit_code == 1 and typed.stderr == done.stderr


def test_an_internal_error_is_one_line_and_status_2(monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.cli.basics import user_errors

    @user_errors
    def broken() -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.delenv("PBEM_DEBUG", raising=False)
    with pytest.raises(SystemExit) as exc:
        broken()
    assert exc.value.code == 2
    monkeypatch.setenv("PBEM_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        broken()


def test_a_typer_exit_passes_through_the_error_guard() -> None:
    import typer

    from pbem.cli.basics import user_errors

    @user_errors
    def leaves() -> None:
        raise typer.Exit(3)

    with pytest.raises(typer.Exit):
        leaves()


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_echo_writes_what_typer_writes(encoding: str) -> None:
    import io

    import typer

    from pbem.cli.basics import echo

    class Kept(io.BytesIO):
        def close(self) -> None:  # typer's UTF-8 wrapper closes the buffer when it goes
            pass

    line = "Zürich — 3 units"
    ours, theirs = Kept(), Kept()
    for raw, write in ((ours, echo), (theirs, typer.echo)):
        stream = io.TextIOWrapper(raw, encoding=encoding)
        old, sys.stdout = sys.stdout, stream
        try:
            write(line)
        finally:
            sys.stdout = old
        stream.flush()
    assert ours.getvalue() == theirs.getvalue() == (line + "\n").encode()


def test_a_reader_that_stops_reading_gets_no_error_line(joined: tuple[Path, str, dict[str, str]]) -> None:
    """`pbem show GAME | head`: the pipe closes before the lines are written."""
    ws, gid, env = joined
    argv = [sys.executable, "-m", "pbem.cli.main", "show", gid]
    proc = subprocess.Popen(argv, cwd=ws, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 1 and err == b""


@pytest.mark.parametrize("as_json", [False, True])
def test_scenario_info_a_second_time_imports_no_engine(tmp_path: Path, as_json: bool) -> None:
    """The second `pbem scenario info` reads the first one's answer from the user's cache
    folder: the same output, without the engine, NumPy or typer."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    argv = ["scenario", "info", "1939", *(["--json"] if as_json else [])]
    first, made_with = _fresh(argv, tmp_path, env)
    assert "engine" in made_with
    second, modules = _fresh(argv, tmp_path, env)
    assert second == first
    assert [m for m in modules if m in HEAVY] == []
    assert "state hash at the start" in first or '"start_state"' in first
    # the same words as typer's own run of the command, which makes the answer afresh
    assert CliRunner().invoke(app, argv).output == first

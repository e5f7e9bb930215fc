"""Every command's help ends with examples a person can type: each one names its own
command and is accepted by that command's parser (options that exist, values of the right
kind, nothing required left out); and a flag's help shows no type, as if it took a value."""

from __future__ import annotations

import shlex
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem.cli.examples import EXAMPLES
from pbem.cli.main import COMMANDS, make_app, module_commands


def _leaves() -> dict[str, Any]:
    """Every command the command line has, by its path ("bot play"), built as for a run."""
    found: dict[str, Any] = {}

    def walk(path: str, command: Any) -> None:
        subs = getattr(command, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(f"{path} {name}", sub)
        else:
            found[path] = command

    for module in sorted(set(COMMANDS.values())):
        for name, command in module_commands(module).items():
            walk(name, command)
    return found


LEAVES = _leaves()


def test_every_command_has_examples_and_no_example_is_for_a_command_gone() -> None:
    assert sorted(LEAVES) == sorted(EXAMPLES)


@pytest.mark.parametrize("path", sorted(EXAMPLES))
def test_each_example_is_accepted_by_its_command(path: str) -> None:
    command = LEAVES[path]
    for line in EXAMPLES[path]:
        words = shlex.split(line)
        assert words[: 1 + len(path.split())] == ["pbem", *path.split()], line
        args = words[1 + len(path.split()) :]
        # Parsing checks the options and arguments as a run would, without running it.
        with command.make_context(path, args) as ctx:
            assert not ctx.args, line  # every word taken by an option or argument


def test_help_shows_the_examples_and_no_type_beside_a_flag() -> None:
    out = CliRunner().invoke(make_app(), ["selfplay", "--help"], env={"COLUMNS": "100"}).output
    assert "Examples:" in out and "pbem selfplay --scenario 1939 --until 1940-01" in out
    verbose = next(line for line in out.splitlines() if "--verbose" in line)
    assert "<bool>" not in verbose and "One line per file" in verbose
    assert "<int>" in next(line for line in out.splitlines() if "--seed" in line)
    root = CliRunner().invoke(make_app(), ["--help"], env={"COLUMNS": "100"}).output
    assert "<bool>" not in root

"""The `pbem` command line: one root app; each command group lives in its own module.

A command's module is imported only when that command runs (help imports them all):
a command pays for its own imports only, so `pbem status` starts without the engine.
Typer itself is imported only when it reads the command line (:func:`run`): the root
app is made on first use (``app``, :func:`make_app`).
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from pbem.cli import plain

if TYPE_CHECKING:
    import typer
    from typer._click.core import Command, Context
    from typer.core import TyperOption

#: Every command, in the order help lists them, with the module of pbem/cli that
#: defines it (its ``register(app)`` adds it).
COMMANDS = {
    "scenario": "scenario_cmd",
    "map": "map_cmd",
    "keygen": "game_cmd",
    "key": "game_cmd",
    "new": "game_cmd",
    "join": "game_cmd",
    "import": "game_cmd",
    "status": "show_cmd",
    "show": "show_cmd",
    "where": "show_cmd",
    "orders": "game_cmd",
    "send": "game_cmd",
    "undo": "game_cmd",
    "react": "game_cmd",
    "resign": "end_cmd",
    "offer-draw": "end_cmd",
    "accept-draw": "end_cmd",
    "decline-draw": "end_cmd",
    "withdraw-draw": "end_cmd",
    "decline": "end_cmd",
    "archive": "end_cmd",
    "branch": "branch_cmd",
    "verify": "game_cmd",
    "audit": "game_cmd",
    "selfplay": "game_cmd",
    "claim": "deadline_cmd",
    "handover": "deadline_cmd",
    "deadline": "deadline_cmd",
    "bot": "bot_cmd",
    "arena": "arena_cmd",
    "mail": "mail_cmd",
    "hex": "look_cmd",
    "legal": "look_cmd",
    "suggest": "look_cmd",
    "log": "log_cmd",
    "play": "play_cmd",
    "help": "help_cmd",
}


def module_commands(module: str) -> dict[str, Command]:
    """The commands that ``pbem.cli.<module>`` registers, built for the command line."""
    import typer
    import typer.main

    scratch = typer.Typer()
    importlib.import_module(f"pbem.cli.{module}").register(scratch)
    commands = dict(typer.main.get_group(scratch).commands)
    for name, command in commands.items():
        _finish_help(command, name)
    return commands


def _finish_help(command: Command, path: str) -> None:
    """Examples at the end of each command's help (pbem/cli/examples.py); and no type beside a
    flag: typer writes one beside every option, ``<bool>`` beside a flag too, which reads as
    if the flag took a value (``--verbose true``)."""
    from pbem.cli.examples import epilog

    command.epilog = command.epilog or epilog(path)
    for param in command.params:
        if getattr(param, "is_flag", False) and not getattr(param, "count", False):
            param.metavar = ""
    made_help = command.get_help_option

    def help_option(ctx: Context) -> TyperOption | None:
        option = made_help(ctx)
        if option is not None:
            option.metavar = ""
        return option

    command.get_help_option = help_option  # type: ignore[method-assign]  # this command's only
    for name, sub in getattr(command, "commands", {}).items():
        _finish_help(sub, f"{path} {name}")


def main(
    workspace: Annotated[
        Path | None,
        typer.Option("--workspace", "-w", help="Game workspace for every command (default: the current directory)"),
    ] = None,
    home: Annotated[
        Path | None,
        typer.Option("--home", help="Where identities live (default: $PBEM_HOME or your user config directory)"),
    ] = None,
) -> None:
    # Commands read these through their environment-variable defaults, so a global
    # option and the variable behave the same way everywhere.
    if workspace is not None:
        os.environ["PBEM_WORKSPACE"] = str(workspace)
    if home is not None:
        os.environ["PBEM_HOME"] = str(home)


def make_app() -> typer.Typer:
    """The root app: knows every command's name, builds a command when it is asked for."""
    import typer
    from typer.core import TyperGroup

    from pbem.cli.common import typer_names

    typer_names(globals())  # the global options' annotations name typer

    class LazyGroup(TyperGroup):
        def list_commands(self, ctx: Context) -> list[str]:
            return [*COMMANDS, *(name for name in self.commands if name not in COMMANDS)]

        def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
            if cmd_name not in self.commands and cmd_name in COMMANDS:
                for name, command in module_commands(COMMANDS[cmd_name]).items():
                    self.commands.setdefault(name, command)
            return super().get_command(ctx, cmd_name)

        def get_help_option(self, ctx: Context) -> TyperOption | None:
            option = super().get_help_option(ctx)
            if option is not None:
                option.metavar = ""  # a flag (see _finish_help)
            return option

    root = typer.Typer(
        name="pbem",
        cls=LazyGroup,
        help="World War 2 by e-mail: signed turn files, hidden deployment, fair dice without a referee.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    root.callback()(main)
    return root


def __getattr__(name: str) -> typer.Typer:
    # `from pbem.cli.main import app` (the tests, typer's runner) makes the app on first use.
    if name == "app":
        globals()["app"] = made = make_app()
        return made
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def run() -> None:
    # A plain command line runs without typer (see pbem/cli/plain.py).
    status = plain.run(main, COMMANDS, sys.argv[1:])
    if status is None:
        make_app()()
    else:
        sys.exit(status)


if __name__ == "__main__":
    run()

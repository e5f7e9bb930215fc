"""Running a command straight from its function, for command lines of the plainest shape.

From its version 0.2x on, typer checks every parameter's value with pydantic, whose
import alone takes longer than the 150 ms a look at a game may take
(docs/performance.md), and importing typer itself takes a third of that budget.  The
commands' parameters are plain: strings, whole numbers, paths, flags.  For a command
line made only of those, this module reads it from the same annotations typer reads and
calls the same function.  Whatever it does not take exactly (help, a mistake, a
parameter of another shape, a command group) makes :func:`run` return None, and typer
parses the command line as always, with its own messages: the two can differ in speed
only.

The annotations are read with light stand-ins for ``typer.Option`` and
``typer.Argument`` (:data:`STAND_IN`), so a command that a module lists in its
``PLAIN`` table runs without typer ever being imported (pbem/cli/show_cmd.py).
"""

from __future__ import annotations

import importlib
import inspect
import os
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.cli.basics import is_typer_exit, workspace_option

#: The value types read here; anything else is left to typer.
PLAIN = (str, int, Path, bool)


class _NotPlain(Exception):
    """The command line or the command is not of the shape read here: typer takes it."""


@dataclass
class _Param:
    name: str
    kind: type
    default: Any
    argument: bool
    flags: dict[str, Any]  # option spelling -> the value a flag gives (None: takes a value)
    envvar: str | None
    low: float | None
    high: float | None


class _Declared:
    """What ``typer.Option(...)`` or ``typer.Argument(...)`` declared, read as typer's
    own ``OptionInfo`` and ``ArgumentInfo`` are (what is not given reads as None)."""

    def __init__(self, default: object = ..., *param_decls: str, **given: object) -> None:
        self.default = default
        self.param_decls = param_decls
        self.given = given

    def __getattr__(self, name: str) -> object:
        return self.__dict__["given"].get(name)


class OptionInfo(_Declared):
    pass


class ArgumentInfo(_Declared):
    pass


class _StandIn:
    """The names of typer that the commands' annotations use; any other fails to
    evaluate, and typer reads that command."""

    Option = OptionInfo
    Argument = ArgumentInfo


STAND_IN = _StandIn()


def _option_kind(info: object) -> str | None:
    """ "option" or "argument" for typer's declarations or the stand-ins' (by class name:
    typer's own are met only in aliases made with typer, after it was imported)."""
    return {"OptionInfo": "option", "ArgumentInfo": "argument"}.get(type(info).__name__)


def _params(fn: Callable[..., object]) -> list[_Param]:
    names = {**inspect.unwrap(fn).__globals__, "typer": STAND_IN, "WorkspaceOpt": workspace_option(STAND_IN)}
    try:
        signature = inspect.signature(fn, globals=names, eval_str=True)
    except Exception:  # a name of typer that the stand-in lacks, say
        raise _NotPlain(fn.__name__) from None
    out = []
    for name, p in signature.parameters.items():
        hint = p.annotation
        meta = getattr(hint, "__metadata__", ())
        info: Any = meta[0] if meta else None
        kind = _option_kind(info)
        if kind is None or info.callback or info.parser or info.default_factory:
            raise _NotPlain(name)
        inner = hint.__origin__
        if typing.get_origin(inner) is list:  # a list of values (e.g. several files) is typer's to read
            raise _NotPlain(name)
        kinds = [t for t in typing.get_args(inner) or (inner,) if t is not type(None)]
        if len(kinds) != 1 or kinds[0] not in PLAIN:
            raise _NotPlain(name)
        default = p.default if p.default is not inspect.Parameter.empty else ...
        flags: dict[str, Any] = {}
        if kind == "option":
            if info.prompt or info.is_eager or info.count or info.exists or info.resolve_path:
                raise _NotPlain(name)
            decls = [d for d in (info.default, *(info.param_decls or ())) if isinstance(d, str)]
            if not decls:
                raise _NotPlain(name)
            for decl in decls:
                on, _, off = decl.partition("/")
                flags[on.strip()] = True if kinds[0] is bool else None
                if off:
                    flags[off.strip()] = False
        envvar = info.envvar if isinstance(info.envvar, str) else None
        out.append(_Param(name, kinds[0], default, kind == "argument", flags, envvar, info.min, info.max))
    return out


def _value(p: _Param, text: str) -> object:
    if p.kind is Path:
        return Path(text)
    if p.kind is int:
        try:
            number = int(text)
        except ValueError:
            raise _NotPlain(p.name) from None
        if (p.low is not None and number < p.low) or (p.high is not None and number > p.high):
            raise _NotPlain(p.name)
        return number
    return text


def parse(fn: Callable[..., object], args: list[str]) -> dict[str, object]:
    """The keyword arguments the command line ``args`` gives ``fn`` (raises _NotPlain)."""
    params = _params(fn)
    by_flag = {flag: p for p in params for flag in p.flags}
    positional = [p for p in params if p.argument]
    given: dict[str, object] = {}
    i = 0
    while i < len(args):
        word = args[i]
        if word.startswith("-") and word != "-":
            flag, eq, text = word.partition("=")
            p = by_flag.get(flag)
            if p is None or p.name in given:
                raise _NotPlain(word)
            if p.flags[flag] is not None:
                if eq:
                    raise _NotPlain(word)
                given[p.name] = p.flags[flag]
            else:
                if not eq:
                    i += 1
                    if i == len(args):
                        raise _NotPlain(word)
                    text = args[i]
                given[p.name] = _value(p, text)
        else:
            if not positional:
                raise _NotPlain(word)
            p = positional.pop(0)
            given[p.name] = _value(p, word)
        i += 1
    for p in params:
        if p.name in given:
            continue
        if p.envvar and os.environ.get(p.envvar):
            given[p.name] = _value(p, os.environ[p.envvar])
        elif p.default is ...:
            raise _NotPlain(p.name)
        else:
            given[p.name] = p.default
    return given


def command(module: str, name: str, rest: list[str]) -> tuple[Callable[..., object], list[str]]:
    """The function of command ``name``, which ``pbem.cli.<module>`` registers, and the
    words of the command line left for it.  The module's ``PLAIN`` table, if it has one,
    names it without typer, or names a command of a group with the group (``"scenario
    info"``: then the first word of ``rest`` is the command's name)."""
    found = importlib.import_module(f"pbem.cli.{module}")
    plain = getattr(found, "PLAIN", {})
    if rest and f"{name} {rest[0]}" in plain:
        return plain[f"{name} {rest[0]}"], rest[1:]
    if name in plain:
        return plain[name], rest
    import typer

    scratch = typer.Typer()
    found.register(scratch)
    for info in scratch.registered_commands:
        if info.name == name and info.callback is not None:
            return info.callback, rest
    raise _NotPlain(name)  # a command group


def run(root: Callable[..., object], commands: dict[str, str], argv: list[str]) -> int | None:
    """Run the command line ``argv`` (global options of ``root``, then a command of
    ``commands``) and return its exit status; None if typer must read it."""
    try:
        globals_ = {flag for p in _params(root) for flag in p.flags}
        at = 0
        while at < len(argv) and argv[at].partition("=")[0] in globals_:
            at += 1 if "=" in argv[at] else 2
        if at >= len(argv) or argv[at] not in commands:
            return None
        fn, rest = command(commands[argv[at]], argv[at], argv[at + 1 :])
        # As in typer, the global options take effect before the command's are read: they
        # set the variables that the command's options default to.
        root(**parse(root, argv[:at]))
        fn_args = parse(fn, rest)
    except _NotPlain:
        return None
    try:
        fn(**fn_args)
    except SystemExit as exc:
        if isinstance(exc.code, int):
            return exc.code
        raise
    except Exception as exc:
        if is_typer_exit(exc):
            return exc.exit_code  # type: ignore[attr-defined,no-any-return]
        raise
    return 0

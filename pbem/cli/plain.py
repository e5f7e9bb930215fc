"""Running a command straight from its function, for command lines of the plainest shape.

From its version 0.2x on, typer checks every parameter's value with pydantic, whose
import alone takes longer than the 150 ms a look at a game may take
(docs/performance.md).  The commands' parameters are plain: strings, whole numbers,
paths, flags.  For a command line made only of those, this module reads it from the
same annotations typer reads and calls the same function.  Whatever it does not take
exactly (help, a mistake, a parameter of another shape, a command group) makes
:func:`run` return None, and typer parses the command line as always, with its own
messages: the two can differ in speed only.
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

import typer
from typer.models import ArgumentInfo, OptionInfo

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


def _params(fn: Callable[..., Any]) -> list[_Param]:
    hints = typing.get_type_hints(fn, include_extras=True)
    out = []
    for name, p in inspect.signature(fn).parameters.items():
        hint = hints.get(name)
        meta = getattr(hint, "__metadata__", ())
        info = meta[0] if meta else None
        if not isinstance(info, ArgumentInfo | OptionInfo) or info.callback or info.parser or info.default_factory:
            raise _NotPlain(name)
        inner = hint.__origin__  # type: ignore[union-attr]
        if typing.get_origin(inner) is list:  # a list of values (e.g. several files) is typer's to read
            raise _NotPlain(name)
        kinds = [t for t in typing.get_args(inner) or (inner,) if t is not type(None)]
        if len(kinds) != 1 or kinds[0] not in PLAIN:
            raise _NotPlain(name)
        default = p.default if p.default is not inspect.Parameter.empty else ...
        flags: dict[str, Any] = {}
        if isinstance(info, OptionInfo):
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
        out.append(_Param(name, kinds[0], default, isinstance(info, ArgumentInfo), flags, envvar, info.min, info.max))
    return out


def _value(p: _Param, text: str) -> Any:
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


def parse(fn: Callable[..., Any], args: list[str]) -> dict[str, Any]:
    """The keyword arguments the command line ``args`` gives ``fn`` (raises _NotPlain)."""
    params = _params(fn)
    by_flag = {flag: p for p in params for flag in p.flags}
    positional = [p for p in params if p.argument]
    given: dict[str, Any] = {}
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


def command(module: str, name: str) -> Callable[..., Any]:
    """The function of command ``name``, which ``pbem.cli.<module>`` registers."""
    scratch = typer.Typer()
    importlib.import_module(f"pbem.cli.{module}").register(scratch)
    for info in scratch.registered_commands:
        if info.name == name and info.callback is not None:
            return info.callback
    raise _NotPlain(name)  # a command group


def run(root: Callable[..., Any], commands: dict[str, str], argv: list[str]) -> int | None:
    """Run the command line ``argv`` (global options of ``root``, then a command of
    ``commands``) and return its exit status; None if typer must read it."""
    try:
        globals_ = {flag for p in _params(root) for flag in p.flags}
        at = 0
        while at < len(argv) and argv[at].partition("=")[0] in globals_:
            at += 1 if "=" in argv[at] else 2
        if at >= len(argv) or argv[at] not in commands:
            return None
        fn = command(commands[argv[at]], argv[at])
        # As in typer, the global options take effect before the command's are read: they
        # set the variables that the command's options default to.
        root(**parse(root, argv[:at]))
        fn_args = parse(fn, argv[at + 1 :])
    except _NotPlain:
        return None
    try:
        fn(**fn_args)
    except typer.Exit as exc:
        return exc.exit_code
    return 0

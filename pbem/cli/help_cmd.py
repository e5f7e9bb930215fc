"""`pbem help orders [KIND]`: the order reference, drawn from the engine's own table of
order kinds; docs/orders.md is the same reference written as Markdown (a test keeps the
two in step). `pbem help rules [TOPIC]`: the players' rules reference shipped with the
program (pbem/play/rules.md), whose copy is docs/rules.md."""

from __future__ import annotations

from typing import Annotated

import typer

from pbem.cli.common import user_errors
from pbem.errors import PbemError
from pbem.play import rules_reference
from pbem.protocol import engine_link

HOW_TO_GIVE = (
    "Orders are lines of text, one per line, given with `pbem orders GAME FILE` (or typed in "
    "the page of `pbem play`); `pbem legal GAME` lists the ones allowed now and `pbem suggest "
    "GAME` writes the computer player's proposal as a file to edit. A line starting with `# ` "
    "is a comment; so is the rest of a line after ` # `. The orders of a coming hidden step of "
    "the month (war_declaration, deployment, income, build) may be given in the sitting of the "
    "first with `pbem orders GAME --ahead STEP FILE [--fallback ask|bot|none]`: your program "
    "seals them when the step comes, and the fallback says what to do with orders the real "
    "position no longer allows. A whole hidden list takes one command: `pbem orders GAME "
    "--suggested [FILE]` lists the computer player's proposal, with the lines of FILE instead "
    "of its orders on the units they name, and `pbem orders GAME --as-last-month` lists your "
    "orders of the same step a month ago; orders that no longer fit are named and left out. "
    "`pbem where GAME --free [#UNIT|PLACE]` shows where the units waiting to be placed may go, "
    "with the room each hex has left, and an order refused because its hex is full names the "
    "free hexes nearest it."
)


def text_reference(kind: str | None = None) -> list[str]:
    """The reference for a terminal: every kind in one line each, or one kind in full."""
    kinds = engine_link.api().order_reference()
    if kind is None:
        width = max(len(k.usage) for k in kinds)
        return [
            *(f"{k.usage:<{width}}  {k.help}" for k in kinds),
            "",
            "`pbem help orders KIND` explains each argument of KIND and shows an example.",
            "`pbem orders GAME --ahead STEP FILE [--fallback ask|bot|none]` gives the orders of a coming hidden "
            "step of the month (war_declaration, deployment, income, build) in the sitting of the first; "
            "your program seals them when the step comes.",
        ]
    found = [k for k in kinds if k.kind == kind.lower()]
    if not found:
        known = ", ".join(k.kind for k in kinds)
        raise PbemError(f"there is no order '{kind}'; orders are: {known}", "usage")
    (k,) = found
    return [k.usage, f"  {k.help}", *(f"  {name} {meaning}" for name, meaning in k.arguments), f"  e.g. {k.example}"]


def markdown_reference() -> str:
    """docs/orders.md: the same reference as a page."""
    out = [
        "# Orders",
        "",
        "<!-- Made by `pbem help orders --markdown` from the engine's table of order kinds; do not edit by hand. -->",
        "",
        HOW_TO_GIVE,
        "",
    ]
    for k in engine_link.api().order_reference():
        out += [f"## `{k.kind}`", "", f"`{k.usage}`: {k.help}.", ""]
        if k.arguments:
            out += [*(f"- `{name}` {meaning}" for name, meaning in k.arguments), ""]
        out += [f"Example: `{k.example}`", ""]
    return "\n".join(out)


@user_errors
def orders_cmd(
    kind: Annotated[str | None, typer.Argument(help="One kind of order (move, attack, place_land, ...)")] = None,
    markdown: Annotated[bool, typer.Option("--markdown", help="The whole reference as Markdown")] = False,
) -> None:
    """Every kind of order with its arguments in words, or one kind in full with an example."""
    if markdown:
        typer.echo(markdown_reference(), nl=False)
        return
    for line in text_reference(kind):
        typer.echo(line)


def rules_text(slug: str | None = None) -> list[str]:
    """The rules for a terminal: the list of topics, or one topic's section."""
    if slug is None:
        topics = rules_reference.topics()
        width = max(len(t.slug) for t in topics)
        return [
            *(f"{t.slug:<{width}}  {t.title}" for t in topics),
            "",
            "`pbem help rules TOPIC` prints one topic; docs/rules.md holds them all.",
        ]
    t = rules_reference.topic(slug)
    return [t.title, "=" * len(t.title), *t.lines]


@user_errors
def rules_cmd(
    topic: Annotated[str | None, typer.Argument(help="One topic (supply, land-combat, ...)")] = None,
    markdown: Annotated[bool, typer.Option("--markdown", help="The whole reference as Markdown")] = False,
) -> None:
    """The rules of the game by topic, in the order of the month, or one topic in full."""
    if markdown:
        typer.echo(rules_reference.source(), nl=False)
        return
    try:
        lines = rules_text(topic)
    except PbemError as exc:
        # a wrong topic is a usage error, like a wrong option: exit status 2
        typer.echo(f"error: {exc.head}", err=True)
        raise typer.Exit(2) from None
    for line in lines:
        typer.echo(line)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    group = typer.Typer(
        name="help", help="References: the orders a player may give, the rules of the game.", no_args_is_help=True
    )
    group.command("orders")(orders_cmd)
    group.command("rules")(rules_cmd)
    app.add_typer(group, name="help")

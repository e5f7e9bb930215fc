"""`pbem mail check`: every problem with the configuration, one line each."""

from __future__ import annotations

from pathlib import Path

from pbem.errors import PbemError
from pbem.mail.config import load_config
from pbem.mail.imap import check_imap
from pbem.mail.smtp import check_smtp


def check_all(path: Path) -> list[str]:
    try:
        config = load_config(path)
    except PbemError as err:
        return [str(err)]
    problems = []
    if not config.workspace.is_dir():
        problems.append(f"workspace {config.workspace} does not exist — check the workspace setting")
    for server in (config.imap, config.smtp):
        try:
            server.password()
        except PbemError as err:
            problems.append(str(err))
    if problems:
        return problems  # talking to the servers without a password only repeats the problem
    imap_problem = check_imap(config.imap, config.imap_options, config.workspace)
    if imap_problem:
        problems.append(imap_problem)
    smtp_problem = check_smtp(config.smtp)
    if smtp_problem:
        problems.append(smtp_problem)
    return problems

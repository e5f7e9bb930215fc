"""The game layer a mail configuration names: a file written before pbem was grouped into
rooms names ``pbem.exchange``, which still loads (as ``pbem.play.exchange``); a wrong name
is one line naming the setting."""

from __future__ import annotations

import pytest

from pbem.errors import PbemError
from pbem.mail.exchange_api import load_module
from pbem.play import exchange

FUNCTIONS = ("import_file", "game_info")


def test_the_old_name_of_the_game_layer_still_loads() -> None:
    assert load_module("pbem.exchange", FUNCTIONS, "exchange", "mail.exchange", "config") is exchange
    assert load_module("pbem.play.exchange", FUNCTIONS, "exchange", "mail.exchange", "config") is exchange


def test_a_wrong_module_is_one_line_naming_the_setting() -> None:
    with pytest.raises(PbemError, match=r"cannot load exchange 'pbem.nowhere': .* check mail.exchange$"):
        load_module("pbem.nowhere", FUNCTIONS, "exchange", "mail.exchange", "config")

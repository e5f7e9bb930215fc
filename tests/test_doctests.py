"""The runnable examples in the engine's interface documentation stay true."""

from __future__ import annotations

import doctest

import pytest

from engine import api, orders


@pytest.mark.parametrize("module", [api, orders], ids=["engine.api", "engine.orders"])
def test_examples_in_the_documentation_run(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0

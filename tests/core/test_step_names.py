"""A step is named once, where its handler is registered: scheduling one by a written-out
name, or by a function no step table registered, fails where it is scheduled."""
from __future__ import annotations

import pytest

from core import Registry, create_table
from core.errors import EngineError
from core.flow import Ctx, step_name
from tests.core import kernel_lab


def test_a_registered_handler_is_scheduled_by_its_registered_name():
    assert step_name(kernel_lab.turn) == "lab.turn"


@pytest.mark.parametrize("step", ["lab.turn", lambda ctx: None])
def test_a_written_out_name_or_an_unregistered_function_is_refused(step):
    table = create_table("kernel-lab", 3, seed=1, registry=Registry([kernel_lab], load_entry_points=False))
    ctx = Ctx(table.state, table.rules)
    before = list(table.state.stack)
    with pytest.raises(EngineError, match="not a registered step handler"):
        ctx.push(step)
    with pytest.raises(EngineError, match="not a registered step handler"):
        ctx.prompt(0, "x", [], step, decision="lab.move")
    assert table.state.stack == before

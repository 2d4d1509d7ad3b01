"""daemon/eager.py: a coroutine started at once runs on the caller's stack up to its first wait,
raises there to the caller, and is driven on by a task from that wait (sends, cancels)."""

from __future__ import annotations

import asyncio

import pytest

from app.errors import InputError
from daemon.eager import start_eagerly


async def _request(gate: asyncio.Event, steps: list[str], *, bad: bool = False) -> None:
    steps.append("arrived")
    if bad:
        raise InputError("the cursor is outside the text")
    await gate.wait()
    steps.append("started")
    try:
        await asyncio.sleep(30)
    except asyncio.CancelledError:
        steps.append("cancelled")
        raise


def test_runs_now_up_to_its_first_wait_then_in_a_task() -> None:
    async def main() -> None:
        gate, steps = asyncio.Event(), list[str]()
        rest = start_eagerly(_request(gate, steps))
        assert steps == ["arrived"] and rest is not None  # before the loop ran anything
        task = asyncio.get_running_loop().create_task(rest)
        await asyncio.sleep(0)
        assert steps == ["arrived"]
        gate.set()
        await asyncio.sleep(0.01)
        assert steps == ["arrived", "started"]
        task.cancel()  # reaches the coroutine where it waits
        with pytest.raises(asyncio.CancelledError):
            await task
        assert steps[-1] == "cancelled" and task.cancelled()

    asyncio.run(main())


def test_an_error_before_the_first_wait_reaches_the_caller() -> None:
    async def main() -> None:
        steps: list[str] = []
        with pytest.raises(InputError, match="outside the text"):
            start_eagerly(_request(asyncio.Event(), steps, bad=True))
        assert steps == ["arrived"]

    asyncio.run(main())


def test_a_coroutine_that_never_waits_is_done_at_once() -> None:
    async def main() -> None:
        gate, steps = asyncio.Event(), list[str]()
        gate.set()  # an event already set does not suspend

        async def quick() -> None:
            await gate.wait()
            steps.append("answered")

        assert start_eagerly(quick()) is None
        assert steps == ["answered"]

    asyncio.run(main())

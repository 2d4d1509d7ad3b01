"""Start a coroutine at once, on the caller's stack, up to its first wait (what asyncio's eager
tasks do from Python 3.12, with one difference: an error raised before that wait reaches the
caller). ``Service.dispatch`` starts a request's coroutine this way: its arrival stages run
while the server handles the message, so an ``InputError`` there is the server's to answer
(``error`` reply), and the request is queued before the next message (a ``cancel`` of it) is
read. The part before the first wait must not need ``asyncio.current_task()`` (no
``asyncio.timeout`` there): it runs in the caller's task.
"""

from __future__ import annotations

from collections.abc import Coroutine, Generator
from typing import Any

__all__ = ["start_eagerly"]


def start_eagerly(coro: Coroutine[Any, Any, None]) -> Coroutine[Any, Any, None] | None:
    """Run ``coro`` now up to its first suspension. None when it returned before one (what it
    raised propagates), else a coroutine that runs the rest, for a task."""
    try:
        waiting_on = coro.send(None)
    except StopIteration:
        return None
    return _rest(_Resumed(coro, waiting_on))


async def _rest(resumed: _Resumed) -> None:
    await resumed


class _Resumed:
    """A started coroutine, driven on by the task that awaits this: what the coroutine waits on
    goes to the task, what the task sends or throws (a cancel) goes to the coroutine."""

    __slots__ = ("_coro", "_waiting_on")

    def __init__(self, coro: Coroutine[Any, Any, None], waiting_on: Any) -> None:
        self._coro = coro
        self._waiting_on = waiting_on  # the future (or None: a bare yield) it suspended on

    def __await__(self) -> Generator[Any, Any, None]:
        coro, waiting_on = self._coro, self._waiting_on
        while True:
            try:
                sent = yield waiting_on
            except BaseException as exc:  # thrown into the task: a cancel, or close()
                try:
                    waiting_on = coro.throw(exc)
                except StopIteration:
                    return
            else:
                try:
                    waiting_on = coro.send(sent)
                except StopIteration:
                    return

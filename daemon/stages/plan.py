"""Plan: a request's ``NewRequest`` for the scheduler (prompt-size and cached-token estimates per
tier, the deadline it works to). Called on the event loop when a request arrives; the scheduler
then decides its tier, or sheds it (``Scheduler.add_request``, ``Scheduler.schedule``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.config import ContextConfig
from daemon.hints import Cursor, PromptHints
from daemon.scheduler import NewRequest
from engine.base import Priority

TICK_S = 0.05  # scheduler step while requests are live (deadlines, expiry)
# this long before its deadline, a running request is answered with what it has: the reply is
# on time even when the engine is in the middle of a prefill step (the ticker runs every TICK_S)
BACKSTOP_S = 2 * TICK_S


def scheduling_deadline(deadline_ms: float) -> float:
    """The deadline the scheduler works to: BACKSTOP_S early, so that its expiries and cuts reach
    the client before the deadline the client asked for."""
    return max(1.0, float(deadline_ms) - BACKSTOP_S * 1000)


@dataclass(frozen=True, slots=True)
class PlanInput:
    """A completion to plan."""

    key: str  # the request's internal id (peer key + "/" + client id)
    cursor: Cursor  # the document and the cursor in it
    budgets: tuple[int, int]  # context budgets of the normal and the fast tier
    context: ContextConfig  # config [context]
    max_new_tokens: int  # the request's token cap
    deadline_ms: float  # the client's deadline
    hints: PromptHints  # the per-document estimates and the warm documents (read only)


@dataclass(frozen=True, slots=True)
class Planned:
    """The scheduler's view of the completion."""

    request: NewRequest  # for Scheduler.add_request
    # budgets the document was warm at -> its FIM suffix hint there (for PromptHints.learn)
    warm_suffix: dict[int, int] = field(default_factory=dict)


def plan_completion(inp: PlanInput) -> Planned:
    """The completion's NewRequest, deadline BACKSTOP_S before the client's."""
    request, warm_suffix = inp.hints.completion(
        inp.key, inp.cursor, inp.budgets, inp.context, max_new_tokens=inp.max_new_tokens,
        deadline_ms=scheduling_deadline(inp.deadline_ms))
    return Planned(request, warm_suffix)


def plan_conversation(key: str, document: str, prompt: str, *, max_new_tokens: int,
                      deadline_ms: float) -> NewRequest:
    """A ``generate`` round's NewRequest (its prompt size estimated at 3 characters a token)."""
    return NewRequest(
        request_id=key, document=document, priority=Priority.INTERACTIVE,
        num_prompt_tokens=max(1, len(prompt) // 3), max_new_tokens=max_new_tokens,
        deadline_ms=scheduling_deadline(deadline_ms))

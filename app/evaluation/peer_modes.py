"""The peers' context strategies as eval modes: one entry point over ``peer_llamavim``,
``peer_continue`` and ``peer_tabby`` (docs/quality.md, "Peer modes")."""

from __future__ import annotations

from collections.abc import Callable

from app.config import ContextConfig
from app.evaluation.peer_common import PeerInput, SessionLike
from app.evaluation.peer_continue import build_continue
from app.evaluation.peer_llamavim import build_llamavim
from app.evaluation.peer_tabby import build_tabby
from app.evaluation.sampling import EvalPoint
from daemon.context import summarize_stable
from daemon.index import ProjectIndex
from engine.base import PromptParts, TokenCounter

BUILDERS: dict[str, Callable[[PeerInput], tuple[PromptParts, int]]] = {
    "llamavim": build_llamavim,
    "continue": build_continue,
    "tabby": build_tabby,
}


def build_peer_prompt(
    mode: str,
    point: EvalPoint,
    *,
    index: ProjectIndex,
    config: ContextConfig,
    counter: TokenCounter,
    session: SessionLike | None = None,
) -> tuple[PromptParts, int]:
    """The prompt of peer ``mode`` for ``point`` at ``config.budget_tokens`` and its tokens as
    the peer counts them. ``index`` is the corpus index; the point's own file is read only from
    its buffer (parsed as the daemon parses it), never from disk."""
    summary = summarize_stable(point.path, point.buffer, point.line, point.language)
    peer = PeerInput(point=point, index=index, summary=summary, counter=counter,
                     budget=config.budget_tokens, session=session)
    return BUILDERS[mode](peer)

"""Post-process: the text a finished completion shows, from what the engine generated
(``engine.postprocess``: whole lines, the block's end, no repeat of the suffix), and the text of
a ``generate`` answer. Called by ``Service._shown`` (stage 7 of ``Service._complete``) and by
``Service._backstop``."""

from __future__ import annotations

from dataclasses import dataclass

from daemon.live import Live
from daemon.replies import clean_generated
from engine.postprocess import postprocess


@dataclass(frozen=True, slots=True)
class PostprocessInput:
    """What the engine generated for a request."""

    live: Live  # the request: its kind, prompt prefix and suffix, language, line mode
    text: str  # the generated text
    cut_short: bool  # the engine stopped it before its end: shown up to its last whole line


def postprocess_text(inp: PostprocessInput) -> str:
    """The text the client gets: post-processed for a completion, the code of a ``generate``
    answer, nothing for a warm-up."""
    live = inp.live
    if live.kind == "complete":
        return postprocess(inp.text, live.prompt_prefix, live.prompt_suffix, live.language,
                           bool(live.multiline), cut_short=inp.cut_short)
    if live.kind == "generate":
        return clean_generated(inp.text)
    return inp.text

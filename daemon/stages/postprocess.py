"""Post-process: the text a finished completion shows, from what the engine generated
(``engine.postprocess``: whole lines, the block's end, no repeat of the suffix; then
``daemon.import_names``: an import list stops before a name its project module lacks), and the
text of a ``generate`` answer. Called by ``Service._shown`` (stage 7 of ``Service._complete``)
and by ``Service._backstop``."""

from __future__ import annotations

from dataclasses import dataclass

from daemon.import_names import cut_unknown_names, line_before_cursor
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
        shown = postprocess(inp.text, live.prompt_prefix, live.prompt_suffix, live.language,
                            bool(live.multiline), cut_short=inp.cut_short)
        known = live.context.import_names if live.context is not None else None
        return cut_unknown_names(line_before_cursor(live.prompt_prefix), shown, known)
    if live.kind == "generate":
        return clean_generated(inp.text)
    return inp.text

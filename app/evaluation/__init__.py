"""``nospin eval``: completion quality on real code, per prompt mode (design.md §5).

Modules, in pipeline order: ``corpus`` (index a folder, hide the ground truth), ``sampling``
(seeded completion points), ``modes`` (the prompt of each mode), ``runner`` (engine, scoring,
aggregation), ``metrics`` (pure scores), ``report`` (markdown, chart, comparison).

The names below are imported from their module on first use, so that importing one submodule
(the CLI's ``eval`` registration reads ``modes.MODES``) does not load the runner and numpy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: The modes run when none are named.
DEFAULT_MODES: tuple[str, ...] = ("nospin", "naive_full", "naive_tail")
#: The peers' context strategies (``peer_*.py``), run when named.
PEER_MODES: tuple[str, ...] = ("llamavim", "continue", "tabby")
#: The prompt modes (``modes.MODES`` is this tuple; the CLI reads it without importing modes).
MODE_NAMES: tuple[str, ...] = DEFAULT_MODES + PEER_MODES

_EXPORTS: dict[str, str] = {
    "CompileChecker": "metrics", "edit_similarity": "metrics", "exact_match": "metrics",
    "extract_identifiers": "metrics", "identifier_f1": "metrics",
    "MODES": "modes",
    "compare": "report", "render_chart": "report", "render_markdown": "report",
    "EvalOptions": "runner", "run_eval": "runner",
    "EvalPoint": "sampling", "SamplingPlan": "sampling", "sample_points": "sampling",
}

if TYPE_CHECKING:
    from app.evaluation.metrics import (
        CompileChecker,
        edit_similarity,
        exact_match,
        extract_identifiers,
        identifier_f1,
    )
    from app.evaluation.modes import MODES
    from app.evaluation.report import compare, render_chart, render_markdown
    from app.evaluation.runner import EvalOptions, run_eval
    from app.evaluation.sampling import EvalPoint, SamplingPlan, sample_points


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [
    "DEFAULT_MODES",
    "MODES",
    "MODE_NAMES",
    "PEER_MODES",
    "CompileChecker",
    "EvalOptions",
    "EvalPoint",
    "SamplingPlan",
    "compare",
    "edit_similarity",
    "exact_match",
    "extract_identifiers",
    "identifier_f1",
    "render_chart",
    "render_markdown",
    "run_eval",
    "sample_points",
]

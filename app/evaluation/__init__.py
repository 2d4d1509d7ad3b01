"""``nospin eval``: completion quality on real code, per prompt mode (design.md §5).

Modules, in pipeline order: ``corpus`` (index a folder, hide the ground truth), ``sampling``
(seeded completion points), ``modes`` (the prompt of each mode), ``runner`` (engine, scoring,
aggregation), ``metrics`` (pure scores), ``report`` (markdown, chart, comparison).
"""

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

__all__ = [
    "MODES",
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

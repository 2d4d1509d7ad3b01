"""Which model (and draft) this machine serves within the typing targets: measured, not guessed.

``nospin model choose`` runs the typing replay through a real daemon (``bench.latency``, the
daemon pipeline: the same editor-shaped requests, debounce, supersession and tiers a user's
editor sees) once per candidate, largest model first, and keeps the first that meets both
typing targets (finished p50 <= 300 ms, p95 <= 1,100 ms); among the setups of one model, the
fastest that meets them. A candidate whose model is not installed is skipped with the pip
command that installs it. When none meets them, the last candidate (the embedded 0.5B, the
default) is kept: it is the fastest there is.

This module is the pure part: candidates, what a trial found, the choice. The command
(app/commands/model_choose.py) runs the trials.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.errors import ConfigError

# largest first; "model+draft" ("" no speculation, "auto" the engine's measured default)
DEFAULT_CANDIDATES = (
    "qwen2.5-coder-1.5b+embedded",
    "qwen2.5-coder-1.5b+prompt-lookup",
    "qwen2.5-coder-1.5b+",
    "embedded+auto",
)
P50_TARGET_MS = 300.0
P95_TARGET_MS = 1100.0


@dataclass(frozen=True, slots=True)
class Candidate:
    model: str  # an engine.model spec
    draft: str  # an engine.draft_model spec ("" none)

    @property
    def label(self) -> str:
        return f"{self.model}+{self.draft}"

    def settings(self) -> dict[str, str]:
        """The config changes that select it."""
        return {"engine.model": self.model, "engine.draft_model": self.draft}


@dataclass(frozen=True, slots=True)
class Trial:
    """What the typing replay measured for one candidate (or why it did not run)."""

    candidate: Candidate
    p50_ms: float | None = None  # finished p50 / p95 of the replay's completions
    p95_ms: float | None = None
    completed: int = 0
    skipped: str = ""  # why it did not run (the model is not installed ...)

    @property
    def meets_targets(self) -> bool:
        return (
            not self.skipped and self.p50_ms is not None and self.p95_ms is not None
            and self.p50_ms <= P50_TARGET_MS and self.p95_ms <= P95_TARGET_MS
        )


def parse_candidates(text: str) -> tuple[Candidate, ...]:
    """``"model+draft,..."`` (a bare model: no draft) to candidates, in the given order."""
    out: list[Candidate] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        model, _, draft = item.partition("+")
        if not model.strip():
            raise ConfigError(f"a candidate needs a model: {item!r}")
        out.append(Candidate(model.strip(), draft.strip()))
    if not out:
        raise ConfigError("no candidates")
    return tuple(out)


def choose(trials: list[Trial]) -> Trial:
    """The first model (in trial order) with a setup that meets the targets, that model's
    fastest such setup (lowest p50); else the last trial that ran (the fallback)."""
    if not trials:
        raise ValueError("no trials")
    for trial in trials:
        if not trial.meets_targets:
            continue
        same = [t for t in trials if t.candidate.model == trial.candidate.model
                and t.meets_targets]
        return min(same, key=lambda t: (t.p50_ms or 0.0, t.p95_ms or 0.0))
    ran = [t for t in trials if not t.skipped]
    return ran[-1] if ran else trials[-1]

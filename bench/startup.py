"""Start-up: README's first completion with no daemon running, the CLI's start, an idle daemon.

Each run uses a private ``NOSPIN_HOME`` (the embedded model from the user's cache) and times,
as a user sees them:

- ``nospin complete FILE:LINE:COL --json`` in a new process with no daemon: the wall time to
  its output (the client starts the daemon, which loads the model) and the daemon's timings;
- ``nospin status --json`` once that daemon runs: the CLI's start plus one round trip;
- the daemon's CPU while nothing is asked of it for ``--idle-s`` seconds (``/proc``), once the
  project's first scan is over.

Then, in this process, a model load beside a thread spinning in Python, the way the engine
loads (``load_llama``, llama.cpp's log muted natively) and with llama-cpp-python's own log
callback, alternately ``--loads`` times each: the callback needs the GIL for each of the load's
~2,200 log lines (docs/engine.md, "llama.cpp's log without the GIL"). And the token-healing
table built at once and in the engine's idle steps (docs/engine.md, "Token healing").
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.daemon_proc import REPO, code_version


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--location", default=str(REPO / "docs" / "example.py") + ":12:12",
                        help="FILE:LINE:COL of the completion (default: README's)")
    parser.add_argument("--runs", type=int, default=3, help="fresh starts")
    parser.add_argument("--idle-s", type=float, default=10.0,
                        help="seconds the idle daemon's CPU is measured over")
    parser.add_argument("--loads", type=int, default=2,
                        help="model loads beside a busy thread, each way (0: none)")


def _cli(home: Path, *argv: str) -> tuple[float, str]:
    """Wall seconds of ``nospin ARGV`` (a new process, as a user runs it) and its stdout."""
    env = {**os.environ, "NOSPIN_HOME": str(home), "PYTHONPATH": str(REPO)}
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "app.cli", *argv], env=env, cwd=REPO,
                         capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - t0, out


def _cpu_s(pid: int) -> float:
    """A process's user + system CPU seconds so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _one_start(location: str, idle_s: float) -> dict[str, Any]:
    from app import config as cfg
    from engine.models import embedded_model_path

    home = Path(tempfile.mkdtemp(prefix="nsstart", dir="/tmp"))
    try:
        (home / "config").mkdir()
        config = cfg.with_changes(cfg.Config(), {"engine.model": str(embedded_model_path())})
        cfg.save(config, home / "config" / "config.toml")
        wall_s, out = _cli(home, "complete", location, "--json")
        done = json.loads(out)
        status_s, out = _cli(home, "status", "--json")
        pid = int(json.loads(out)["pid"])
        deadline = time.monotonic() + 300
        while json.loads(out).get("indexing") and time.monotonic() < deadline:
            time.sleep(0.5)  # the project's first scan follows the first completion
            out = _cli(home, "status", "--json")[1]
        idle_cpu = None
        if Path(f"/proc/{pid}/stat").exists():
            before = _cpu_s(pid)
            time.sleep(idle_s)
            idle_cpu = round((_cpu_s(pid) - before) / idle_s * 100, 2)
        _cli(home, "stop")
        return {
            "first_completion_wall_ms": round(wall_s * 1000),
            "timings": done["timings"], "tier": done["tier"], "text": done["text"],
            "status_cli_ms": round(status_s * 1000),
            "idle_cpu_percent_of_a_core": idle_cpu,
        }
    finally:
        shutil.rmtree(home, ignore_errors=True)


def _loads_beside_python(num: int) -> dict[str, Any]:
    import llama_cpp

    from engine.llamacpp_session import load_llama
    from engine.models import embedded_model_path

    path = embedded_model_path()
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            pass

    spinner = threading.Thread(target=spin, daemon=True)
    spinner.start()
    muted: list[float] = []
    callback: list[float] = []
    try:
        for _ in range(num):
            t0 = time.perf_counter()
            load_llama(path, n_ctx=4096, n_threads=0).close()
            muted.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            llama_cpp.Llama(str(path), n_ctx=4096, n_batch=512, n_ubatch=512,
                            type_k=llama_cpp.GGML_TYPE_Q8_0, type_v=llama_cpp.GGML_TYPE_Q8_0,
                            flash_attn=True, verbose=False).close()
            callback.append(time.perf_counter() - t0)
    finally:
        stop.set()
        spinner.join()
    return {
        "model": path.name,
        "load_ms_muted": [round(s * 1000) for s in muted],
        "load_ms_log_callback": [round(s * 1000) for s in callback],
        "ratio_median": round(statistics.median(callback) / statistics.median(muted), 2),
    }


def _healing_table() -> dict[str, Any]:
    """The token-healing table of the embedded model's vocabulary (the one the engine that
    runs reads: llama.cpp's where llama-cpp-python is installed, else the GGUF metadata's):
    built at once (what the first completion inside a word paid before the engine built it
    while idle) and in the engine's idle steps (``IDLE_PIECES_STEP`` texts each; the last one
    sorts)."""
    import contextlib

    from engine.llamacpp import IDLE_PIECES_STEP
    from engine.models import embedded_model_path
    from engine.profiles import QWEN25_CODER
    from engine.tokenizer import Tokenizer, open_vocab

    vocab = open_vocab(embedded_model_path())
    with contextlib.ExitStack() as stack:
        close = getattr(vocab, "close", None)
        if close is not None:
            stack.callback(close)
        t0 = time.perf_counter()
        Tokenizer(vocab, QWEN25_CODER).piece_table()
        at_once = time.perf_counter() - t0
        stepped = Tokenizer(vocab, QWEN25_CODER)
        steps: list[float] = []
        while True:
            t0 = time.perf_counter()
            done = stepped.build_piece_table(IDLE_PIECES_STEP) is not None
            steps.append(time.perf_counter() - t0)
            if done:
                break
    return {
        "vocabulary": type(vocab).__name__,
        "at_once_ms": round(at_once * 1000),
        "steps": len(steps),
        "step_ms_max_before_last": round(max(steps[:-1], default=0.0) * 1000),
        "last_step_ms": round(steps[-1] * 1000),  # the last texts and the sort
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    code = code_version()  # before the runs: the tree may move while they go
    runs = [_one_start(args.location, args.idle_s) for _ in range(args.runs)]
    out: dict[str, Any] = {
        "code": code,
        "location": args.location,
        "first_completion_wall_ms": [r["first_completion_wall_ms"] for r in runs],
        "status_cli_ms": [r["status_cli_ms"] for r in runs],
        "idle_cpu_percent_of_a_core": [r["idle_cpu_percent_of_a_core"] for r in runs],
        "runs": runs,
    }
    out["healing_table"] = _healing_table()
    if args.loads > 0:
        out["load_beside_a_python_thread"] = _loads_beside_python(args.loads)
    return out

"""``nospin status [--json]``: is the daemon running, its engine, latency and tiers."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import msgspec

from app.client import Client
from app.errors import DaemonError
from daemon import lifecycle
from daemon.crashlog import describe as describe_crash
from engine.cpu_load import BUSY_CORES


def register(sub: Any) -> None:
    parser = sub.add_parser("status", help="show the daemon's state, latency and tiers")
    parser.add_argument("--json", action="store_true", help="print the status as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if lifecycle.read_daemon_info() is None:
        if args.json:
            print(json.dumps({"running": False, "socket": str(lifecycle.socket_path())}))
        else:
            print(f"nospin daemon: not running (socket {lifecycle.socket_path()})")
        return 3
    try:
        with Client(autostart=False, idle_timeout_s=5.0) as client:
            status = client.status()
    except DaemonError as exc:
        print(f"nospin daemon: not answering ({exc})")
        return 3
    data = msgspec.to_builtins(status)
    data.pop("type", None)
    data.pop("id", None)
    if args.json:
        print(json.dumps({"running": True, **data}, indent=2))
        return 0
    print(format_status(data))
    return 0


def _ms(value: Any) -> str:
    return f"{value:.0f} ms" if isinstance(value, int | float) else "-"


def format_status(data: dict[str, Any]) -> str:
    engine = data["engine"]
    m = data["metrics"]
    lines = [
        f"nospin daemon {data['version']}: running, pid {data['pid']}, "
        f"up {data['uptime_s']:.0f} s",
        f"  listening  {', '.join(data['endpoints'])}",
        f"  log        {data['log_path'] or '(terminal)'}",
        f"  engine     {engine.get('kind')} {engine.get('model', '')} - {engine.get('state')}"
        + (f", {engine['restarts']} restarts" if engine.get("restarts") else "")
        + (_last_error(engine) if engine.get("last_error") else ""),
        f"  fast mode  {'on' if data['fast_mode'] else 'off'}"
        + ("   completions PAUSED" if data["paused"] else ""),
        f"  clients    {data['num_clients']}, documents {data['num_documents']}, "
        f"queued {data['num_queued']}",
    ]
    if (engine.get("extra") or {}).get("llama_extra_buffers") == 0:  # engine/cpu_build.py
        lines.append("  WARNING    llama.cpp runs without its extra buffer types: its AMX kernels "
                     "crash on this machine; `nospin doctor` says how to rebuild it")
    if data.get("last_crash"):  # the daemon before this one died of a fatal signal
        lines.append("  CRASHED    the previous daemon: "
                     f"{describe_crash(data['last_crash'], time.time())}; `nospin doctor`")
    if data.get("roots"):
        lines.append(f"  projects   {', '.join(data['roots'])}"
                     + ("   (indexing...)" if data.get("indexing") else ""))
        for root, problem in sorted((data.get("root_problems") or {}).items()):
            lines.append(f"  WARNING    {root}: {problem}")
    if m.get("num_requests"):
        ft, tt = m.get("first_token_ms") or {}, m.get("total_ms") or {}
        tiers = m.get("tiers") or {}
        lines += [
            f"  requests   {m['num_requests']} in the window"
            + (f" (and {m['num_warmups']} warm-ups)" if m.get("num_warmups") else ""),
            f"  first tok  p50 {_ms(ft.get('p50'))}, p95 {_ms(ft.get('p95'))}",
            f"  finished   p50 {_ms(tt.get('p50'))}, p95 {_ms(tt.get('p95'))}",
        ]
        phases = m.get("phases_ms") or {}
        if phases.get("num"):
            lines.append(
                f"  time in    p50: held {_ms(phases.get('held'))} (for a warm-up or a slot), "
                f"to engine {_ms(phases.get('to_engine'))}, queue {_ms(phases.get('queue'))}, "
                f"prefill {_ms(phases.get('prefill'))}, decode {_ms(phases.get('decode'))} "
                f"({phases['num']:.0f} run by the engine)")
        lines.append("  tiers      " + ", ".join(f"{k} {v}" for k, v in tiers.items()))
        cache = m.get("cache") or {}
        saved = [f"{m.get('num_tokens_saved', 0)} prompt tokens trimmed"]
        if cache.get("hits"):
            saved.append(f"{cache['hits']} answers from the completion cache")
        lines.append("  saved      " + ", ".join(saved))
    else:
        lines.append("  requests   none yet")
    spec = _speculation_line(engine, m.get("speculation") or {})
    if spec:
        lines.append(f"  drafting   {spec}")
    speed = _speed_line((m.get("queue") or {}).get("model") or {})
    if speed:
        lines.append(f"  speed      {speed}")
    fast_budget = (m.get("queue") or {}).get("fast_budget")
    if fast_budget:  # the fast tier's context, fitted to the engine's speed (daemon.fast_budget)
        lines.append(f"  fast tier  context {fast_budget}")
    threads = _threads_line(engine.get("extra") or {})
    if threads:
        lines.append(f"  threads    {threads}")
    return "\n".join(lines)


def _speed_line(model: dict[str, Any]) -> str:
    """The scheduler's model of the engine's speed (what it picks tiers from), and where it
    comes from: the priors, an earlier daemon with these settings, and this one's requests."""
    if "prefill_ms_per_token" not in model:
        return ""
    samples, restored = int(model.get("num_samples") or 0), int(model.get("num_restored") or 0)
    source = [f"{samples} request{'s' if samples > 1 else ''} here"] if samples else []
    if restored:
        source.append("learnt by an earlier daemon with these settings")
    return (f"prefill {model['prefill_ms_per_token']:.1f} ms/token, decode "
            f"{model.get('decode_ms_per_token', 0):.1f} ms/token, completions fill "
            f"{100 * model.get('fill_ratio', 1):.0f}% of max_tokens ("
            + (" + ".join(source) if source else "priors: nothing learnt yet") + ")")


def _last_error(engine: dict[str, Any]) -> str:
    """The engine's last error: why it is not ready, or, once it is again, what happened
    earlier (a restart after a crash, a refused engine change)."""
    error = engine["last_error"]
    return f" ({error})" if engine.get("state") != "ready" else f"; earlier: {error}"


def _threads_line(extra: dict[str, Any]) -> str:
    """The thread counts in use per phase and, where measured, each count's time per token."""
    parts = []
    for phase, verb in (("decode", "decoding"), ("prefill", "prefilling")):
        if f"{phase}_threads" not in extra:
            continue
        prefix = f"{phase}_ms_per_token_"
        measured = sorted(
            (int(k[len(prefix):]), v) for k, v in extra.items() if k.startswith(prefix)
        )
        part = f"{verb} on {extra[f'{phase}_threads']:.0f}"
        if measured:
            part += " (per token: " + ", ".join(f"{n} -> {ms:.1f} ms" for n, ms in measured) + ")"
        parts.append(part)
    busy = extra.get("busy_cores_at_start")
    if parts and busy is not None and busy >= BUSY_CORES:
        parts.append(f"started on fewer: other work kept {busy:.1f} cores busy")
    return "; ".join(parts)


def _speculation_line(engine: dict[str, Any], window: dict[str, Any]) -> str:
    """On/off with the engine's reason, and the acceptance over the metrics window."""
    caps = engine.get("capabilities") or {}
    if "speculation_enabled" not in engine:
        return ""  # engine not loaded yet
    note = engine.get("speculation_note") or ""
    if not caps.get("speculation") and not engine.get("speculation_enabled"):
        return note or "off"
    state = "on" if engine.get("speculation_enabled") else "off"
    parts = [state + (f" ({note})" if note else "")]
    if window.get("proposed"):
        parts.append(
            f"acceptance {window['acceptance']:.2f} "
            f"({window['accepted']} of {window['proposed']} draft tokens)"
        )
    return ", ".join(parts)

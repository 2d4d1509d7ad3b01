"""What the tray shows, computed from the daemon's events: pure data, no Qt.

The bridge (``ui/bridge.py``) folds every message it gets into one immutable :class:`DaemonView`
with the ``apply_*`` functions below; the icon, tooltip, menu figures and latency chart are
functions of that view. Everything here is testable without a display or a daemon::

    view = DaemonView()                                   # daemon not running
    view = apply_status(view, status_dict)                # connected: engine, model, figures
    view = apply_event(view, "state", {...})              # fast_mode, paused, engine_state ...
    view = apply_event(view, "requests", {...})           # last tier, a new chart point
    tray_state(view)  -> TrayState.FAST
    tooltip(view)     -> "nospin: fast mode (forced)\nfirst token p50 120 ms · p95 340 ms ..."
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from daemon.crashlog import summary as crash_summary
from daemon.metrics import percentile

__all__ = [
    "MAX_POINTS",
    "STATE_TITLES",
    "DaemonView",
    "Figure",
    "RequestPoint",
    "TrayState",
    "apply_config",
    "apply_event",
    "apply_status",
    "connected",
    "current_tier",
    "disconnected",
    "figures",
    "format_ms",
    "headline",
    "not_responding",
    "percentiles",
    "points_from_log",
    "responding",
    "tooltip",
    "tray_state",
    "with_history",
]

MAX_POINTS = 200  # recent requests kept for the latency chart
TIER_NUMBERS = {"normal": 1, "cap": 2, "fast": 3}  # requests-event tier names -> tier numbers
ENGINE_NAMES = {"llamacpp": "llama.cpp", "xllamacpp": "llama.cpp server (xllamacpp)",
                "exllamav2": "ExLlamaV2", "remote": "remote server"}
_BUSY_ENGINE_STATES = frozenset({"loading", "restarting"})


class TrayState(enum.Enum):
    """The look of the tray icon, in order of precedence (first match wins)."""

    HUNG = "hung"  # the daemon runs but answers nothing, not even a probe (stopped, stuck)
    DOWN = "down"  # no daemon answers
    FAILED = "failed"  # the daemon runs but its engine failed to load
    BUSY = "busy"  # engine loading / restarting, or projects being indexed
    PAUSED = "paused"  # completions paused from the tray
    FAST = "fast"  # fast mode: forced, or the latest completion ran at tier 3
    DEGRADED = "degraded"  # the latest completion was capped (tier 2)
    READY = "ready"  # serving at tier 1


STATE_TITLES: dict[TrayState, str] = {
    TrayState.HUNG: "Daemon not responding",
    TrayState.DOWN: "Daemon not running",
    TrayState.FAILED: "Engine failed",
    TrayState.BUSY: "Busy",
    TrayState.PAUSED: "Completions paused",
    TrayState.FAST: "Fast mode",
    TrayState.DEGRADED: "Degraded",
    TrayState.READY: "Ready",
}


@dataclass(frozen=True, slots=True)
class RequestPoint:
    """One finished request, a point of the latency chart."""

    time: float  # wall-clock seconds when the tray saw it (or the log's time)
    tier: int  # 1 normal, 2 capped, 3 fast; 0 when no tier applied (cache, shed, paused)
    first_token_ms: float | None  # None when no text came
    total_ms: float  # arrival to final reply
    served: bool  # False for shed, cancelled and failed requests (left out of p50/p95)


@dataclass(frozen=True, slots=True)
class DaemonView:
    """Everything the tray knows about the daemon at one moment."""

    running: bool = False  # connected to a daemon that answers
    pid: int = 0  # daemon process id (0 when not running)
    version: str = ""  # daemon's nospin version
    engine_kind: str = ""  # the engine kind that runs ("llamacpp", ...; "auto" resolved)
    engine_name: str = ""  # loaded engine's name
    model: str = ""  # loaded model (file name or id)
    engine_state: str = ""  # loading | ready | restarting | failed | stopped
    engine_error: str = ""  # the engine's last error, when any
    log_path: str = ""  # the daemon's log file ("" when it logs to a terminal)
    fast_mode: bool = False  # tiers.force_fast
    paused: bool = False  # completion.paused
    speculation: bool = False  # engine.speculation (configured)
    speculation_active: bool | None = None  # engine reports speculation running (None: unknown)
    speculation_note: str = ""  # the engine's reason when speculation is off ("no draft model")
    indexing: bool = False  # projects being indexed
    # project root -> why its changes on disk are not (all) followed (an inotify limit)
    root_problems: Mapping[str, str] = field(default_factory=dict)
    # how the daemon before this one died (error, where, path: daemon/crashlog.py); {} if not
    last_crash: Mapping[str, Any] = field(default_factory=dict)
    last_tier: int = 0  # tier of the latest completion that ran (0: none yet)
    metrics: Mapping[str, Any] = field(default_factory=dict)  # the latest metrics snapshot
    config: Mapping[str, Any] = field(default_factory=dict)  # the daemon's configuration
    points: tuple[RequestPoint, ...] = ()  # recent requests, oldest first
    error: str = ""  # why the tray is not connected (for the tooltip), "" when fine
    hung: str = ""  # why the daemon is taken as not responding (the client's probe), "" when not


def connected(view: DaemonView, *, pid: int, engine_kind: str, engine_state: str) -> DaemonView:
    """A hello was answered: the daemon runs (figures follow with status and events)."""
    return dataclasses.replace(view, running=True, pid=pid, engine_kind=engine_kind,
                               engine_state=engine_state, error="", hung="")


def not_responding(view: DaemonView, why: str) -> DaemonView:
    """The daemon said nothing, not even to a probe (``AsyncClient.hung``): stopped or stuck.
    Everything else is kept: it may run again (``responding``)."""
    return dataclasses.replace(view, hung=why)


def responding(view: DaemonView) -> DaemonView:
    """The daemon that was not responding answers again."""
    return dataclasses.replace(view, hung="")


def disconnected(view: DaemonView, error: str = "") -> DaemonView:
    """The daemon went away: keep the chart's points and the last config, drop the rest."""
    return DaemonView(points=view.points, config=view.config, error=error)


def apply_status(view: DaemonView, status: Mapping[str, Any]) -> DaemonView:
    """Fold a ``status`` reply (as plain data) into the view."""
    engine = status.get("engine") or {}
    return dataclasses.replace(
        view,
        running=True,
        error="",
        pid=int(status.get("pid", view.pid)),
        version=str(status.get("version", view.version)),
        engine_kind=str(engine.get("kind", view.engine_kind)),
        engine_name=str(engine.get("name", "")),
        model=str(engine.get("model", "")),
        engine_state=str(engine.get("state", view.engine_state)),
        engine_error=str(engine.get("last_error", "")),
        speculation_active=engine.get("speculation_enabled"),
        speculation_note=str(engine.get("speculation_note") or ""),
        log_path=str(status.get("log_path", view.log_path)),
        fast_mode=bool(status.get("fast_mode", view.fast_mode)),
        paused=bool(status.get("paused", view.paused)),
        metrics=dict(status.get("metrics") or {}),
        root_problems=dict(status.get("root_problems") or {}),
        last_crash=dict(status.get("last_crash") or {}),
    )


def apply_config(view: DaemonView, values: Mapping[str, Any]) -> DaemonView:
    """Fold the whole configuration (``config.get`` / ``config.set`` reply) into the view."""
    tiers = values.get("tiers") or {}
    completion = values.get("completion") or {}
    engine = values.get("engine") or {}
    return dataclasses.replace(
        view,
        config=dict(values),
        fast_mode=bool(tiers.get("force_fast", view.fast_mode)),
        paused=bool(completion.get("paused", view.paused)),
        speculation=bool(engine.get("speculation", view.speculation)),
        engine_kind=str(engine.get("kind", view.engine_kind)),
    )


def apply_event(view: DaemonView, topic: str, data: Mapping[str, Any], *, now: float
                ) -> DaemonView:
    """Fold one subscription event (``state``, ``requests`` or ``metrics``) into the view."""
    if topic == "state":
        return dataclasses.replace(
            view,
            engine_state=str(data.get("engine_state", view.engine_state)),
            fast_mode=bool(data.get("fast_mode", view.fast_mode)),
            paused=bool(data.get("paused", view.paused)),
            speculation=bool(data.get("speculation", view.speculation)),
            indexing=bool(data.get("indexing", view.indexing)),
            root_problems=dict(data.get("root_problems", view.root_problems)),
        )
    if topic == "metrics":
        return dataclasses.replace(view, metrics=dict(data))
    if topic == "requests":
        if data.get("kind") == "warmup":
            return view
        tier = TIER_NUMBERS.get(str(data.get("tier") or ""), 0)
        point = RequestPoint(
            time=now,
            tier=tier,
            first_token_ms=_float_or_none(data.get("first_token_ms")),
            total_ms=float(data.get("total_ms") or 0.0),
            served=not data.get("error_code"),
        )
        points = (*view.points, point)[-MAX_POINTS:]
        return dataclasses.replace(view, points=points,
                                   last_tier=tier if tier else view.last_tier)
    return view


def with_history(view: DaemonView, points: tuple[RequestPoint, ...]) -> DaemonView:
    """Seed the chart (and the latest tier) with requests from before the tray connected."""
    tiers = [pt.tier for pt in points if pt.tier]
    return dataclasses.replace(view, points=points[-MAX_POINTS:],
                               last_tier=tiers[-1] if tiers else view.last_tier)


def points_from_log(lines: list[str]) -> tuple[RequestPoint, ...]:
    """Chart points from the daemon's JSON-lines request log (the history before the tray came).

    Lines that do not parse, and the daemon's own warm-ups, are skipped.
    """
    import json

    points: list[RequestPoint] = []
    for line in lines:
        try:
            rec = json.loads(line)
            if rec.get("kind") == "warmup":
                continue
            points.append(RequestPoint(
                time=float(rec["time"]),
                tier=TIER_NUMBERS.get(str(rec.get("tier") or ""), 0),
                first_token_ms=_float_or_none(rec.get("first_token_ms")),
                total_ms=float(rec["total_ms"]),
                served=not rec.get("error_code"),
            ))
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
    return tuple(points[-MAX_POINTS:])


def _float_or_none(value: Any) -> float | None:
    return None if value is None else float(value)


# --------------------------------------------------------------------------- derived
def tray_state(view: DaemonView) -> TrayState:
    """The icon's state: see :class:`TrayState` for the precedence."""
    if view.hung:
        return TrayState.HUNG
    if not view.running:
        return TrayState.DOWN
    if view.engine_state == "failed":
        return TrayState.FAILED
    if view.engine_state in _BUSY_ENGINE_STATES or view.indexing:
        return TrayState.BUSY
    if view.paused:
        return TrayState.PAUSED
    if view.fast_mode or view.last_tier >= 3:
        return TrayState.FAST
    if view.last_tier == 2:
        return TrayState.DEGRADED
    return TrayState.READY


def current_tier(view: DaemonView) -> int:
    """The tier completions get now: 3 when forced, else the latest completion's (1 if none)."""
    if view.fast_mode:
        return 3
    return view.last_tier or 1


def headline(view: DaemonView) -> str:
    """One line saying the state and why: "Fast mode (forced)", "Busy: loading the model"."""
    state = tray_state(view)
    title = STATE_TITLES[state]
    if state is TrayState.HUNG:
        return f"{title} (stopped or stuck)"
    if state is TrayState.DOWN:
        return title
    if state is TrayState.FAILED:
        return f"{title}: {view.engine_error}" if view.engine_error else title
    if state is TrayState.BUSY:
        if view.engine_state == "loading":
            return f"{title}: loading the model"
        if view.engine_state == "restarting":
            return f"{title}: restarting the engine"
        return f"{title}: indexing projects"
    if state is TrayState.FAST:
        return f"{title} (forced)" if view.fast_mode else f"{title} (tier 3, slow answers)"
    if state is TrayState.DEGRADED:
        cap = (view.config.get("tiers") or {}).get("cap_tokens")
        return f"{title}: tier 2, at most {cap} tokens" if cap else f"{title}: tier 2"
    return title


def format_ms(value: float | None) -> str:
    """``"120 ms"``, ``"1.25 s"``, or an en dash when unknown."""
    if value is None:
        return "–"
    if value >= 1000:
        return f"{value / 1000:.2f} s"
    return f"{value:.0f} ms"


def _pair(summary: Any) -> str:
    summary = summary if isinstance(summary, Mapping) else {}
    p50, p95 = summary.get("p50"), summary.get("p95")
    if p50 is None and p95 is None:
        return "no answers yet"
    return f"p50 {format_ms(p50)} · p95 {format_ms(p95)}"


@dataclass(frozen=True, slots=True)
class Figure:
    """One row of live figures: a label and its value."""

    label: str
    value: str


def figures(view: DaemonView) -> list[Figure]:
    """The live figures of the menu and the status window, in display order."""
    if view.hung and not view.running:
        return [Figure("Daemon", "not responding")]
    if not view.running:
        return [Figure("Daemon", "not running")]
    m = view.metrics
    spec = m.get("speculation") if isinstance(m.get("speculation"), Mapping) else {}
    acceptance = spec.get("acceptance") if spec else None
    if not view.speculation:
        spec_text = "off"
    elif view.speculation_active is False:
        spec_text = f"inactive · {view.speculation_note or 'not available with this engine'}"
    elif acceptance is None:
        spec_text = "on · no drafts yet"
    else:
        spec_text = f"{acceptance * 100:.0f}% accepted"
    cache = m.get("cache") if isinstance(m.get("cache"), Mapping) else {}
    hits = int(cache.get("hits") or 0) if cache else 0
    num = int(m.get("num_requests") or 0)
    tier = current_tier(view)
    tier_names = {1: "1 · normal", 2: "2 · capped", 3: "3 · fast"}
    engine = ENGINE_NAMES.get(view.engine_kind, view.engine_kind) + (
        f" ({view.engine_state})" if view.engine_state != "ready" else "")
    rows = [
        Figure("First token", _pair(m.get("first_token_ms"))),
        Figure("Finished", _pair(m.get("total_ms"))),
        Figure("Tier", tier_names[tier] + (" (forced)" if view.fast_mode else "")
               + _fast_context(m, tier)),
        Figure("Speculation", spec_text),
        Figure("Tokens saved", f"{int(m.get('num_tokens_saved') or 0):,}"),
        Figure("Cache hits", f"{hits} of {num}" if num else "0"),
        Figure("Model", _short_model(view.model) or "(loading)"),
        Figure("Engine", engine or "–"),
    ]
    phases = _phases(m.get("phases_ms"))
    if phases:
        rows.insert(2, Figure("Time (p50)", phases))
    if view.root_problems:  # the index goes stale there: say so, and where to read why
        names = ", ".join(sorted(r.rstrip("/").rsplit("/", 1)[-1] for r in view.root_problems))
        rows.append(Figure("Watching", f"changes in {names} not followed · `nospin doctor`"))
    if view.last_crash:  # a native fault ended the previous daemon: say how, and what to run
        rows.append(Figure("Last crash", f"{crash_summary(view.last_crash)} · `nospin doctor`"))
    return rows


def _phases(phases: Any) -> str:
    """Where the time of engine-run completions went (medians): waiting (held for a warm-up
    or a slot, to the engine, its queue), prefill, decode; "" before any."""
    if not isinstance(phases, Mapping) or not phases.get("num"):
        return ""
    waiting = sum(float(phases.get(k) or 0.0) for k in ("held", "to_engine", "queue"))
    return (f"waiting {format_ms(waiting)} · prefill {format_ms(phases.get('prefill'))} · "
            f"decode {format_ms(phases.get('decode'))}")


def _fast_context(metrics: Mapping[str, Any], tier: int) -> str:
    """At tier 3, the context budget the daemon fits to the engine's speed (daemon.fast_budget)."""
    queue = metrics.get("queue") if isinstance(metrics.get("queue"), Mapping) else {}
    tokens = queue.get("fast_budget_tokens") if queue else None
    return f" · {int(tokens)}-token context" if tier == 3 and tokens else ""


def _short_model(model: str) -> str:
    name = model.rstrip("/").rsplit("/", 1)[-1]
    return name if len(name) <= 40 else name[:18] + "…" + name[-20:]


def tooltip(view: DaemonView) -> str:
    """The tray icon's tooltip: state, p50/p95 and tier."""
    if view.hung:
        return f"nospin: daemon not responding\n{view.hung}"
    if not view.running:
        return "nospin: daemon not running" + (f"\n{view.error}" if view.error else "")
    m = view.metrics
    return (
        f"nospin: {headline(view)}\n"
        f"first token {_pair(m.get('first_token_ms'))}\n"
        f"finished {_pair(m.get('total_ms'))}\n"
        f"tier {current_tier(view)}" + (" (forced)" if view.fast_mode else "")
    )


def percentiles(points: tuple[RequestPoint, ...]) -> dict[str, float | None]:
    """p50/p95 of the served points' finished and first-token times (what the chart shows)."""
    served = [pt for pt in points if pt.served]
    total = [pt.total_ms for pt in served]
    first = [pt.first_token_ms for pt in served if pt.first_token_ms is not None]
    return {
        "total_p50": percentile(total, 50),
        "total_p95": percentile(total, 95),
        "first_p50": percentile(first, 50),
        "first_p95": percentile(first, 95),
    }

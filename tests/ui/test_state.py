"""Pure tray state: from daemon events to icon state, tooltip and figures (no Qt)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ui import state as st
from ui.state import DaemonView, TrayState


def running(**fields: object) -> DaemonView:
    base = st.connected(DaemonView(), pid=42, engine_kind="llamacpp", engine_state="ready")
    return st.apply_event(base, "state", {"engine_state": "ready", **fields}, now=0.0)


def request(view: DaemonView, tier: str, total_ms: float = 300.0, **extra: object
            ) -> DaemonView:
    data = {"request_id": "r", "kind": "complete", "tier": tier, "watch": False,
            "finish_reason": "stop", "first_token_ms": total_ms / 3, "total_ms": total_ms,
            "cache_hit": False, "error_code": "", **extra}
    return st.apply_event(view, "requests", data, now=100.0)


@pytest.mark.parametrize(("view", "expected"), [
    (DaemonView(), TrayState.DOWN),
    (running(), TrayState.READY),
    (running(engine_state="failed", fast_mode=True), TrayState.FAILED),
    (running(engine_state="loading"), TrayState.BUSY),
    (running(engine_state="restarting"), TrayState.BUSY),
    (running(indexing=True, fast_mode=True), TrayState.BUSY),
    (running(paused=True, fast_mode=True), TrayState.PAUSED),
    (running(fast_mode=True), TrayState.FAST),
    (request(running(), "fast"), TrayState.FAST),
    (request(running(), "cap"), TrayState.DEGRADED),
    (request(request(running(), "cap"), "normal"), TrayState.READY),
    (request(request(running(), "cap"), ""), TrayState.DEGRADED),  # cache/shed keep the tier
    (st.not_responding(running(engine_state="failed"), "stopped"), TrayState.HUNG),
    (st.not_responding(DaemonView(), "stopped"), TrayState.HUNG),  # hung at the hello
    (st.responding(st.not_responding(running(), "stopped")), TrayState.READY),
], ids=lambda v: v.value if isinstance(v, TrayState) else "")
def test_tray_state_precedence(view: DaemonView, expected: TrayState) -> None:
    assert st.tray_state(view) is expected


def test_requests_become_chart_points_and_warmups_are_ignored() -> None:
    view = request(running(), "normal", 200.0)
    view = request(view, "fast", 2600.0)
    view = request(view, "", 900.0, error_code="overloaded")
    view = st.apply_event(view, "requests", {"kind": "warmup", "tier": "normal",
                                             "total_ms": 5.0}, now=1.0)
    assert [pt.tier for pt in view.points] == [1, 3, 0]
    assert [pt.served for pt in view.points] == [True, True, False]
    assert view.last_tier == 3
    pct = st.percentiles(view.points)
    assert pct["total_p50"] == 1400.0  # the shed request is left out
    for _ in range(st.MAX_POINTS + 5):
        view = request(view, "normal")
    assert len(view.points) == st.MAX_POINTS


def test_disconnect_keeps_history_and_config() -> None:
    view = st.apply_config(request(running(), "normal"), {"tiers": {"force_fast": True}})
    down = st.disconnected(view, "no reply")
    assert not down.running and down.points == view.points and down.config == view.config
    assert st.tray_state(down) is TrayState.DOWN
    assert st.tooltip(down) == "nospin: daemon not running\nno reply"


def test_status_and_metrics_make_figures_and_tooltip() -> None:
    status: dict[str, Any] = {
        "pid": 7, "version": "0.1.0", "log_path": "/tmp/d.log", "fast_mode": False,
        "paused": False,
        "engine": {"kind": "llamacpp", "state": "ready", "name": "llamacpp",
                   "model": "/cache/qwen2.5-coder-0.5b-q4_k_m.gguf",
                   "speculation_enabled": True},
        "metrics": {"num_requests": 10, "first_token_ms": {"p50": 120.4, "p95": 340.0},
                    "total_ms": {"p50": 650.0, "p95": 1830.0},
                    "speculation": {"acceptance": 0.62}, "num_tokens_saved": 12345,
                    "cache": {"hits": 3}},
    }
    view = st.apply_config(st.apply_status(DaemonView(), status),
                           {"engine": {"speculation": True, "kind": "llamacpp"}})
    rows = {f.label: f.value for f in st.figures(view)}
    assert rows["First token"] == "p50 120 ms · p95 340 ms"
    assert rows["Finished"] == "p50 650 ms · p95 1.83 s"
    assert rows["Tier"] == "1 · normal"
    assert rows["Speculation"] == "62% accepted"
    assert rows["Tokens saved"] == "12,345"
    assert rows["Cache hits"] == "3 of 10"
    assert rows["Model"] == "qwen2.5-coder-0.5b-q4_k_m.gguf"
    assert rows["Engine"] == "llama.cpp"
    assert "Time (p50)" not in rows  # a daemon without the figure (or no engine-run answer)
    status["metrics"]["phases_ms"] = {"num": 8, "held": 300.0, "to_engine": 8.0, "queue": 2.0,
                                      "prefill": 180.0, "decode": 1250.0}
    timed = st.figures(st.apply_status(view, status))
    assert [f.label for f in timed][:3] == ["First token", "Finished", "Time (p50)"]
    assert timed[2].value == "waiting 310 ms · prefill 180 ms · decode 1.25 s"
    tip = st.tooltip(st.apply_event(view, "state", {"fast_mode": True}, now=0))
    assert tip.splitlines() == ["nospin: Fast mode (forced)", "first token p50 120 ms · p95 340 ms",
                                "finished p50 650 ms · p95 1.83 s", "tier 3 (forced)"]
    inactive = st.apply_status(view, {**status, "engine": {
        **status["engine"], "speculation_enabled": False, "speculation_note": "no draft model"}})
    assert {f.label: f.value for f in st.figures(inactive)}["Speculation"] == \
        "inactive · no draft model"
    off = st.apply_event(view, "state", {"speculation": False}, now=0)
    assert {f.label: f.value for f in st.figures(off)}["Speculation"] == "off"
    assert "Watching" not in rows
    unwatched = st.apply_status(view, {**status, "root_problems": {
        "/home/u/big": "not watched (Too many open files): ..."}})
    assert {f.label: f.value for f in st.figures(unwatched)}["Watching"] == \
        "changes in big not followed · `nospin doctor`"
    crashed = st.apply_status(view, {**status, "last_crash": {
        "when": 1.0, "error": "Segmentation fault",
        "where": "llama_cpp/_internals.py:329 in decode", "path": "/s/last-crash.txt"}})
    assert {f.label: f.value for f in st.figures(crashed)}["Last crash"] == \
        "Segmentation fault in llama_cpp/_internals.py:329 in decode · `nospin doctor`"
    assert "Last crash" not in rows
    assert st.figures(DaemonView()) == [st.Figure("Daemon", "not running")]


def test_the_tier_row_names_the_fast_tiers_context() -> None:
    view = request(running(), "fast")
    view = st.apply_event(view, "metrics", {"queue": {"fast_budget_tokens": 128}}, now=1.0)
    assert {f.label: f.value for f in st.figures(view)}["Tier"] == "3 · fast · 128-token context"
    normal = request(view, "normal")
    assert {f.label: f.value for f in st.figures(normal)}["Tier"] == "1 · normal"


def test_headlines_say_why() -> None:
    capped = st.apply_config(request(running(), "cap"), {"tiers": {"cap_tokens": 30}})
    assert st.headline(capped) == "Degraded: tier 2, at most 30 tokens"
    assert st.headline(running(engine_state="loading")) == "Busy: loading the model"
    assert st.headline(running(indexing=True)) == "Busy: indexing projects"
    assert st.headline(request(running(), "fast")) == "Fast mode (tier 3, slow answers)"
    assert st.format_ms(None) == "–" and st.format_ms(999.6) == "1000 ms"


def test_points_from_the_request_log() -> None:
    lines = [
        json.dumps({"time": 10.0, "kind": "complete", "tier": "cap", "first_token_ms": 90.0,
                    "total_ms": 400.0, "error_code": ""}),
        json.dumps({"time": 11.0, "kind": "warmup", "tier": "normal", "total_ms": 5.0}),
        "{not json",
        json.dumps({"time": 12.0, "kind": "complete", "tier": "", "first_token_ms": None,
                    "total_ms": 3.0, "error_code": "cancelled"}),
    ]
    points = st.points_from_log(lines)
    assert [(pt.time, pt.tier, pt.served) for pt in points] == [(10.0, 2, True),
                                                                 (12.0, 0, False)]
    seeded = st.with_history(running(), points)
    assert seeded.points == points and st.tray_state(seeded) is TrayState.DEGRADED


def test_state_events_carry_indexing_and_watch_problems() -> None:
    view = st.apply_event(DaemonView(running=True, engine_state="ready"), "state",
                          {"indexing": True, "root_problems": {}}, now=0)
    assert st.tray_state(view) is TrayState.BUSY
    view = st.apply_event(view, "state", {"indexing": False, "root_problems": {
        "/p/big": "not watched"}}, now=0)
    assert st.tray_state(view) is TrayState.READY
    assert {f.label: f.value for f in st.figures(view)}["Watching"] == \
        "changes in big not followed · `nospin doctor`"


def test_a_daemon_not_responding_keeps_its_figures_and_says_so() -> None:
    view = st.apply_status(running(), {"metrics": {"num_requests": 3}})
    hung = st.not_responding(view, "the daemon is not responding (...)")
    assert st.headline(hung) == "Daemon not responding (stopped or stuck)"
    assert st.tooltip(hung) == "nospin: daemon not responding\nthe daemon is not responding (...)"
    assert st.figures(hung) == st.figures(view)  # the last figures stay
    assert st.responding(hung) == view
    assert st.connected(hung, pid=7, engine_kind="llamacpp", engine_state="ready").hung == ""
    assert st.figures(st.not_responding(DaemonView(), "x")) == [
        st.Figure("Daemon", "not responding")]

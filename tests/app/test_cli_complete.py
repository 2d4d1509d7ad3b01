"""``nospin complete FILE:LINE:COL``: the newcomer's path, with a daemon started on demand."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.commands.complete import parse_location
from app.errors import InputError
from daemon import lifecycle
from tests.daemon.harness import short_home, write_project

REPO = Path(__file__).parents[2]


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_home(monkeypatch) as path:
        yield path
        lifecycle.stop_daemon(20.0)  # the daemon a test started


def nospin(home: Path, *args: str, fake: bool = True, timeout: float = 120,
           cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NOSPIN_HOME": str(home), "PYTHONPATH": str(REPO)}
    if fake:
        env["NOSPIN_ENGINE_FACTORY"] = "tests.daemon.fakes:make_engine"
    # -P: as the `nospin` script runs, without the working directory on sys.path
    return subprocess.run([sys.executable, "-P", "-m", "app.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_parse_location() -> None:
    path, line, col = parse_location("a/b.py:3:7")
    assert path.endswith("/a/b.py") and (line, col) == (2, 6)
    for bad in ("a.py", "a.py:0:1", "a.py:x:1"):
        with pytest.raises(InputError):
            parse_location(bad)


def test_the_summary_line_says_why_a_completion_was_degraded() -> None:
    from app.commands.complete import summary_line
    from daemon import protocol as p

    times = p.Timings(queue_ms=1.0, context_ms=2.0, first_token_ms=1329.0, prefill_ms=864.0,
                      decode_ms=608.0, total_ms=1937.0)
    why = "predicted 2101 ms at full settings, 0 ahead > 1500 ms: at most 30 tokens"
    capped = p.DoneReply(id="c", text="x", finish_reason="newline", tier=2, tier_reason=why,
                         cache="miss", num_tokens=18, timings=times,
                         context=p.NO_CONTEXT, speculation=p.NO_SPECULATION)
    assert summary_line(capped).startswith(f"-- tier 2 (cap): {why}, first token 1329 ms, "
                                           "total 1937 ms, 18 tokens, newline, cache miss")
    normal = p.DoneReply(id="c", text="x", finish_reason="stop", tier=1,
                         tier_reason="predicted 300 ms at full settings, 0 ahead: normal",
                         cache="miss", num_tokens=3, timings=times,
                         context=p.NO_CONTEXT, speculation=p.NO_SPECULATION)
    assert summary_line(normal).startswith("-- tier 1 (normal), first token")


def test_complete_starts_a_daemon_then_reuses_it(home: Path) -> None:
    src = write_project(home / "proj")
    first = nospin(home, "complete", f"{src}:2:5", "--json", "--multiline", "false")
    assert first.returncode == 0, first.stderr
    assert "started a daemon" in first.stderr and str(lifecycle.log_path()) in first.stderr
    done = json.loads(first.stdout)
    assert done["type"] == "done" and done["text"] == "return a + b"
    assert done["tier"] in (1, 2, 3) and done["timings"]["total_ms"] > 0
    third = nospin(home, "complete", f"{src}:6:5", "--multiline", "false")  # another place
    assert third.returncode == 0 and "-- tier" in third.stderr, third.stderr
    second = nospin(home, "complete", f"{src}:2:5", "--multiline", "false")  # asked the same
    assert second.returncode == 0, second.stderr
    assert "started a daemon" not in second.stderr
    assert second.stdout.startswith("return a + b")
    assert "cache hit" in second.stderr and "total" in second.stderr  # same place again
    status = nospin(home, "status", "--json")
    data = json.loads(status.stdout)
    assert data["running"] is True and data["metrics"]["num_requests"] >= 2
    text = nospin(home, "status")
    assert "running, pid" in text.stdout and "p95" in text.stdout
    assert f"projects   {src.parent}" in text.stdout  # the root it indexes


def test_a_project_with_its_own_app_package_gets_a_daemon(home: Path) -> None:
    """The daemon was started as ``python -m app.cli`` in the caller's directory: a project's
    own ``app`` package (a Flask layout) stood in for nospin's and the daemon failed to start
    (had it an ``app/cli.py``, the project's code would have run as the daemon); the parse
    workers the same with a ``daemon`` package."""
    src = write_project(home / "proj")
    for package in ("app", "daemon", "engine"):
        (home / "proj" / package).mkdir()
        (home / "proj" / package / "__init__.py").write_text(
            f"raise ImportError('the project\'s own {package} package')\n")
    out = nospin(home, "complete", f"{src}:2:5", "--multiline", "false", cwd=home / "proj")
    assert out.returncode == 0 and "started a daemon" in out.stderr, out.stderr
    assert "own" not in lifecycle.log_path().read_text()


def test_snapshot_commands_after_config_changes(home: Path) -> None:
    from app.client import Client

    src = write_project(home / "proj")
    assert nospin(home, "complete", f"{src}:2:5").returncode == 0  # starts the daemon
    with Client(autostart=False) as client:
        first = client.config_set({"tiers.cap_tokens": 20}, note="fewer tokens when capped")
        client.complete(str(src), 1, 4)
        second = client.config_set({"tiers.fast_ms": 2000.0})
    listing = nospin(home, "snapshot", "list")
    assert listing.returncode == 0, listing.stderr
    assert first.snapshot and second.snapshot
    assert first.snapshot in listing.stdout and second.snapshot in listing.stdout
    assert "fewer tokens when capped" in listing.stdout
    diff = nospin(home, "snapshot", "diff", "--json")
    data = json.loads(diff.stdout)
    assert data["old"] == first.snapshot and data["new"] == second.snapshot
    assert {"key": "tiers.fast_ms", "old": 2500.0, "new": 2000.0} in data["config_changes"]
    show = json.loads(nospin(home, "snapshot", "show", "latest").stdout)
    assert show["config"]["tiers"]["fast_ms"] == 2000.0


def _status(engine: dict[str, Any], metrics: dict[str, Any], **more: Any) -> str:
    from app.commands.status import format_status

    return format_status({
        "version": "0", "pid": 1, "uptime_s": 2.0, "endpoints": ["ipc://x"], "log_path": "",
        "engine": {"kind": "llamacpp", "state": "ready", **engine}, "metrics": metrics,
        "fast_mode": False, "paused": False, "num_clients": 1, "num_documents": 1,
        "num_queued": 0, **more,
    })


def test_status_text_warns_about_roots_not_watched() -> None:
    text = _status({}, {}, roots=["/p", "/q"],
                   root_problems={"/q": "not watched (too many open files): ..."})
    assert "  projects   /p, /q\n  WARNING    /q: not watched (too many open files)" in text
    assert "WARNING" not in _status({}, {}, roots=["/p"], root_problems={})


def test_status_text_says_the_engines_last_error_as_why_or_as_earlier() -> None:
    failed = _status({"state": "failed", "last_error": "no model at /m.gguf"}, {})
    assert "  engine     llamacpp  - failed (no model at /m.gguf)" in failed
    ready = _status({"restarts": 1, "last_error": "the engine died and is being restarted"}, {})
    assert "- ready, 1 restarts; earlier: the engine died and is being restarted" in ready


def test_status_text_warns_when_llama_cpp_runs_without_extra_buffers() -> None:
    """engine/cpu_build.py: a build whose AMX kernels crash here loads without them."""
    text = _status({"extra": {"llama_extra_buffers": 0.0, "kv_tokens": 10.0}}, {})
    assert "  WARNING    llama.cpp runs without its extra buffer types: its AMX kernels" in text
    assert "WARNING" not in _status({"extra": {"llama_extra_buffers": 1.0}}, {})
    crashed = _status({}, {}, last_crash={"when": 0.0, "error": "Segmentation fault",
                                          "where": "llama_cpp/_internals.py:329 in decode"})
    assert "  CRASHED    the previous daemon: Segmentation fault in llama_cpp/_internals.py:" \
        "329 in decode, " in crashed and crashed.splitlines()[-2].endswith("`nospin doctor`")


def test_status_text_says_where_the_time_went() -> None:
    metrics = {
        "num_requests": 4, "first_token_ms": {"p50": 80.0, "p95": 200.0},
        "total_ms": {"p50": 650.0, "p95": 900.0}, "tiers": {"normal": 4, "cap": 0, "fast": 0},
        "phases_ms": {"num": 3, "held": 310.4, "to_engine": 7.0, "queue": 0.2,
                      "prefill": 180.0, "decode": 250.0},
    }
    text = _status({}, metrics)
    assert ("  time in    p50: held 310 ms (for a warm-up or a slot), to engine 7 ms, queue 0 ms, "
            "prefill 180 ms, decode 250 ms (3 run by the engine)\n  tiers      normal 4") in text
    assert "time in" not in _status({}, {**metrics, "phases_ms": {"num": 0}})


def test_status_text_shows_speculation_and_what_was_saved() -> None:
    metrics = {
        "num_requests": 4, "first_token_ms": {"p50": 80.0, "p95": 200.0},
        "total_ms": {"p50": 150.0, "p95": 400.0}, "tiers": {"normal": 4, "cap": 0, "fast": 0},
        "num_tokens_saved": 1234, "cache": {"hits": 2, "hit_rate": 0.5},
        "speculation": {"proposed": 200, "accepted": 130, "acceptance": 0.65},
    }
    on = _status({"speculation_enabled": True, "speculation_note": "",
                  "capabilities": {"speculation": True}}, metrics)
    assert "drafting   on, acceptance 0.65 (130 of 200 draft tokens)" in on
    assert "saved      1234 prompt tokens trimmed, 2 answers from the completion cache" in on
    off = _status({"speculation_enabled": False, "capabilities": {"speculation": False},
                   "speculation_note": "off: acceptance 0.31 < 0.40 over the last 420 draft "
                   "tokens; probing again after 32 requests"}, metrics)
    assert "drafting   off: acceptance 0.31 < 0.40 over the last 420" in off
    none = _status({"speculation_enabled": False, "speculation_note": "",
                    "capabilities": {"speculation": False}}, {"num_requests": 0})
    assert "drafting   off" in none and "requests   none yet" in none
    loading = _status({}, {"num_requests": 0})
    assert "drafting" not in loading


def test_status_text_shows_the_measured_thread_counts() -> None:
    extra = {"decode_threads": 2.0, "decode_ms_per_token_1": 51.4, "decode_ms_per_token_2": 33.2,
             "prefill_threads": 1.0, "prefill_ms_per_token_1": 9.04}
    text = _status({"extra": extra}, {"num_requests": 0})
    assert ("threads    decoding on 2 (per token: 1 -> 51.4 ms, 2 -> 33.2 ms); "
            "prefilling on 1 (per token: 1 -> 9.0 ms)") in text
    fixed = _status({"extra": {"decode_threads": 1.0, "prefill_threads": 1.0}}, {})
    assert "threads    decoding on 1; prefilling on 1\n" in fixed + "\n"
    assert "threads" not in _status({"extra": {}}, {"num_requests": 0})
    busy = _status({"extra": {**extra, "busy_cores_at_start": 1.04}}, {"num_requests": 0})
    assert "; started on fewer: other work kept 1.0 cores busy" in busy
    idle = _status({"extra": {**extra, "busy_cores_at_start": 0.1}}, {"num_requests": 0})
    assert "started on fewer" not in idle


def test_status_when_not_running(home: Path) -> None:
    result = nospin(home, "status")
    assert result.returncode == 3 and "not running" in result.stdout


def _running(pid: int) -> bool:
    """Alive and not a zombie (an exited daemon whose parent has not reaped it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z")


def test_stop_and_restart(home: Path) -> None:
    assert nospin(home, "stop").stdout.strip() == "nospin daemon: not running"
    started = nospin(home, "restart")  # none ran: restart starts one
    assert started.returncode == 0, started.stderr
    first = lifecycle.read_daemon_info()
    assert first is not None and f"started, pid {first.pid}" in started.stdout
    assert "was pid" not in started.stdout
    src = write_project(home / "proj")
    assert nospin(home, "complete", f"{src}:2:5", "--no-start").returncode == 0
    again = nospin(home, "restart")
    second = lifecycle.read_daemon_info()
    assert again.returncode == 0 and second is not None and second.pid != first.pid
    assert f"(was pid {first.pid})" in again.stdout
    assert not _running(first.pid)  # the old one exited
    # a config the new daemon could not start with: the running one is kept (it was stopped
    # first, and then none ran)
    config = home / "config" / "config.toml"
    config.parent.mkdir(exist_ok=True)
    config.write_text("[context]\nbudget_tokenz = 1\n")
    kept = nospin(home, "restart")
    assert kept.returncode != 0 and "left as it is" in kept.stderr, kept.stderr
    assert "budget_tokenz" in kept.stderr
    info = lifecycle.read_daemon_info()
    assert info is not None and info.pid == second.pid and _running(second.pid)
    config.unlink()
    stopped = nospin(home, "stop")
    assert stopped.stdout.strip() == f"nospin daemon: stopped (pid {second.pid})"
    assert lifecycle.read_daemon_info() is None and not lifecycle.socket_path().exists()
    assert nospin(home, "status").returncode == 3


def test_failed_start_names_the_log(home: Path) -> None:
    src = write_project(home / "proj")
    (home / "config").mkdir()
    (home / "config" / "config.toml").write_text("[tiers]\nnormal_ms = -5\n")
    result = nospin(home, "complete", f"{src}:2:5", timeout=60)
    assert result.returncode == 1
    assert "the daemon exited with status 1 while starting" in result.stderr
    assert str(lifecycle.log_path()) in result.stderr


def test_bad_cursor_is_a_clear_error(home: Path) -> None:
    src = write_project(home / "proj")
    result = nospin(home, "complete", f"{src}:40:1")
    assert result.returncode == 1 and "outside" in result.stderr
    assert "line 40, column 1 (1-based)" in result.stderr  # as the user wrote it
    for bad in (["--max-tokens", "0"], ["--deadline-ms", "-5"]):
        wrong = nospin(home, "complete", f"{src}:2:5", *bad)
        assert wrong.returncode == 2 and "must be at least 1" in wrong.stderr
    (home / "proj" / "sub").mkdir()
    rel = nospin(home, "complete", f"{src}:2:5", "--root", ".", "--multiline", "false",
                 cwd=home / "proj")  # a relative root was sent as is: "must be absolute"
    assert rel.returncode == 0 and rel.stdout.startswith("return a + b"), rel.stderr
    missing = nospin(home, "complete", f"{src}:2:5", "--root", "nope", cwd=home / "proj")
    assert missing.returncode == 1 and "is not a folder" in missing.stderr


@pytest.mark.slow
def test_complete_with_the_embedded_model(home: Path) -> None:
    """End to end: CLI -> auto-started daemon -> real llama.cpp engine and embedded model."""
    from engine.models import embedded_model_path

    old_home = os.environ.pop("NOSPIN_HOME")
    try:
        model = embedded_model_path()  # the user's assembled copy (not re-assembled per test)
    except Exception as exc:
        pytest.skip(f"embedded model not installed: {exc}")
    finally:
        os.environ["NOSPIN_HOME"] = old_home
    (home / "config").mkdir()
    (home / "config" / "config.toml").write_text(f'[engine]\nmodel = "{model}"\n')
    src = write_project(home / "proj")
    result = nospin(home, "complete", f"{src}:2:5", "--json", "--multiline", "false",
                    fake=False, timeout=300)
    assert result.returncode == 0, result.stderr
    done = json.loads(result.stdout)
    assert done["type"] == "done" and done["finish_reason"] in ("stop", "newline", "length")
    assert done["text"].strip(), "the model produced nothing"
    assert done["context"]["num_prompt_tokens"] > 0
    print("embedded model:", json.dumps(done))
    # a multi-line completion stopped by its token cap is shown up to its last whole line
    # (the same request with room for more goes on after that line), and the file still parses
    # with it in place
    stats = home / "proj" / "stats.py"
    stats.write_text(STATS)
    shown = {}
    for cap in ("20", "64"):
        result = nospin(home, "complete", f"{stats}:4:5", "--json", "--multiline", "true",
                        "--max-tokens", cap, fake=False, timeout=300)
        assert result.returncode == 0, result.stderr
        shown[cap] = json.loads(result.stdout)
        print(f"max {cap} tokens:", json.dumps(shown[cap]))
    short, longer = shown["20"]["text"], shown["64"]["text"]
    assert shown["20"]["finish_reason"] == "length" and short.strip()
    assert longer == short or longer.startswith(short + "\n"), (short, longer)
    head, tail = STATS.split("    \n", 1)
    ast.parse(f"{head}    {short}\n{tail}")
    status = json.loads(nospin(home, "status", "--json", fake=False).stdout)
    assert status["engine"]["state"] == "ready" and status["engine"]["name"] != "fake"


STATS = (
    "def summarize(rows):\n"
    '    """Count, total and largest amount of the rows, as a dict."""\n'
    "    count = 0\n"
    "    \n"
    "\n"
    "\n"
    "def report(rows):\n"
    "    print(summarize(rows))\n"
)


def test_status_text_shows_the_fitted_fast_budget() -> None:
    note = ("128 tokens: a cold prompt predicted 1500 ms (15.0 ms per prompt token), "
            "deadline 2400 ms; 256 tokens: 2900 ms")
    text = _status({}, {"num_requests": 0, "queue": {"fast_budget": note}})
    assert f"fast tier  context {note}" in text
    assert "fast tier" not in _status({}, {"num_requests": 0, "queue": {"fast_budget": ""}})


def test_status_text_shows_the_speed_model_and_where_it_comes_from() -> None:
    model = {"prefill_ms_per_token": 5.24, "decode_ms_per_token": 20.7, "fill_ratio": 0.313,
             "num_samples": 11.0, "num_restored": 5.0}
    text = _status({}, {"num_requests": 0, "queue": {"model": model}})
    assert ("  speed      prefill 5.2 ms/token, decode 20.7 ms/token, completions fill 31% of "
            "max_tokens (11 requests here + learnt by an earlier daemon with these settings)"
            ) in text
    fresh = {**model, "num_samples": 0.0, "num_restored": 0.0}
    assert "(priors: nothing learnt yet)" in _status({}, {"num_requests": 0,
                                                          "queue": {"model": fresh}})
    assert "speed" not in _status({}, {"num_requests": 0, "queue": {}})

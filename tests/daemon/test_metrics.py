"""Rolling metrics and the request log: percentiles on known data, log fields, I/O failures."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from daemon.metrics import Metrics, RequestLog, RequestRecord, hash_path, percentile

LOG_FIELDS = {
    "time",
    "request_id",
    "path_hash",
    "tier",
    "first_token_ms",
    "total_ms",
    "num_prompt_tokens",
    "num_tokens_saved",
    "cache_hit",
    "num_draft_proposed",
    "num_draft_accepted",
    "acceptance",
    "finish_reason",
}


def rec(i: int = 0, **kw: object) -> RequestRecord:
    base: dict[str, object] = {
        "time": 1000.0 + i,
        "request_id": f"r{i}",
        "path_hash": hash_path("src/app.py"),
        "kind": "complete",
        "tier": "normal",
        "watch": False,
        "finish_reason": "stop",
        "first_token_ms": float(i),
        "total_ms": float(10 * i),
    }
    base.update(kw)
    return RequestRecord(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [
        ([], 50, None),
        ([7.0], 95, 7.0),
        ([1.0, 2.0, 3.0, 4.0], 50, 2.5),
        ([4.0, 1.0, 3.0, 2.0], 0, 1.0),
        ([4.0, 1.0, 3.0, 2.0], 100, 4.0),
        ([float(v) for v in range(1, 101)], 95, 95.05),
        ([float(v) for v in range(1, 101)], 50, 50.5),
    ],
)
def test_percentile_on_known_data(values: list[float], q: float, expected: float | None) -> None:
    result = percentile(values, q)
    assert result == (None if expected is None else pytest.approx(expected))


def test_snapshot_percentiles_counts_and_rates() -> None:
    m = Metrics()
    for i in range(1, 101):
        m.record(rec(i))
    m.record(rec(200, tier="cap", cache_hit=True, num_draft_proposed=10, num_draft_accepted=6))
    m.record(rec(201, tier="fast", watch=False, num_tokens_saved=500))
    m.record(rec(202, tier="", finish_reason="shed", error_code="overloaded", total_ms=1.0))
    m.record(rec(203, finish_reason="superseded", error_code="cancelled"))
    m.record(rec(204, finish_reason="error", error_code="engine"))
    m.record(rec(205, watch=True, num_draft_proposed=10, num_draft_accepted=2))
    snap = m.snapshot(now=1300.0)
    assert snap["num_requests"] == 106
    served_first = [float(i) for i in range(1, 101)] + [200.0, 201.0, 205.0]
    assert snap["first_token_ms"]["p50"] == pytest.approx(
        round(percentile(served_first, 50) or 0, 1)
    )
    assert snap["tiers"] == {"normal": 103, "cap": 1, "fast": 1}
    assert snap["watch"] == 1
    assert snap["speculation"] == {"proposed": 20, "accepted": 8, "acceptance": 0.4}
    assert snap["num_tokens_saved"] == 500
    assert snap["cache"]["hits"] == 1
    assert (snap["num_shed"], snap["num_cancelled"], snap["num_errors"]) == (1, 1, 1)
    assert snap["num_served"] == 103
    json.dumps(snap)  # plain data


def test_the_phases_say_where_the_time_of_engine_run_requests_went() -> None:
    m = Metrics()
    assert m.snapshot(now=1000.0)["phases_ms"]["num"] == 0
    for i in range(1, 4):  # held for the cursor's warm-up, then a short prefill
        m.record(rec(i, held_ms=300.0 * i, submit_ms=300.0 * i + 8, engine_queue_ms=1.0,
                     prefill_ms=150.0, decode_ms=200.0 + i))
    m.record(rec(10, cache_hit=True))  # answered from the cache: no engine, no phases
    m.record(rec(11, finish_reason="superseded", error_code="cancelled", held_ms=5000.0,
                 submit_ms=5000.0))  # not served
    m.record(rec(12, kind="warmup", held_ms=0.0, submit_ms=3.0, prefill_ms=1500.0))
    m.record(rec(13))  # an older record, written before the fields: no submit_ms
    phases = m.snapshot(now=1100.0)["phases_ms"]
    assert phases == {"num": 3, "held": 600.0, "to_engine": 8.0, "queue": 1.0,
                      "prefill": 150.0, "decode": 202.0}


def test_background_warmups_stay_out_of_what_users_waited_for() -> None:
    m = Metrics()
    for i in range(1, 11):
        m.record(rec(i))
    for i in range(20, 30):  # slow prefills of the daemon's own, no user waiting on them
        m.record(rec(i, kind="warmup", tier="fast", finish_reason="prefilled",
                     first_token_ms=None, total_ms=9000.0))
    snap = m.snapshot(now=1100.0)
    assert (snap["num_requests"], snap["num_warmups"], snap["num_served"]) == (10, 10, 10)
    assert snap["total_ms"]["p95"] == pytest.approx(round(percentile(
        [10.0 * i for i in range(1, 11)], 95) or 0, 1))
    assert snap["tiers"] == {"normal": 10, "cap": 0, "fast": 0}
    assert "prefilled" not in snap["finish_reasons"]


def test_window_by_count_and_by_time_and_reset() -> None:
    m = Metrics(window_requests=10, window_s=60.0)
    for i in range(20):
        m.record(rec(i, total_ms=float(i)))
    snap = m.snapshot(now=1019.0)
    assert snap["num_requests"] == 10
    assert snap["total_ms"]["p50"] == pytest.approx(14.5)
    assert m.snapshot(now=1075.0)["num_requests"] == 5  # times 1015..1019 are within 60 s
    m.reset()
    assert m.snapshot(now=1019.0)["num_requests"] == 0
    assert m.snapshot(now=1019.0)["total_ms"] == {"p50": None, "p95": None}


def test_log_lines_carry_the_fields_and_no_source(tmp_path: Path) -> None:
    log = RequestLog(tmp_path / "state" / "requests.jsonl")
    m = Metrics(log=log)
    m.record(rec(1, num_draft_proposed=5, num_draft_accepted=4, num_tokens_saved=12))
    m.record(rec(2, cache_hit=True))
    log.close()
    lines = (tmp_path / "state" / "requests.jsonl").read_text().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert set(first) >= LOG_FIELDS
    assert first["acceptance"] == pytest.approx(0.8) and second["acceptance"] is None
    assert first["num_tokens_saved"] == 12 and second["cache_hit"] is True
    assert first["path_hash"] == hash_path("src/app.py") and "src/app.py" not in lines[0]
    mode = stat.S_IMODE(os.stat(tmp_path / "state" / "requests.jsonl").st_mode)
    assert mode == 0o600


def test_log_rotates_by_size(tmp_path: Path) -> None:
    path = tmp_path / "requests.jsonl"
    log = RequestLog(path, max_bytes=1000, backups=2)
    for i in range(40):
        assert log.write(rec(i))
    log.close()
    assert path.exists() and path.with_name("requests.jsonl.1").exists()
    assert path.with_name("requests.jsonl.2").exists()
    assert not path.with_name("requests.jsonl.3").exists()
    for p in (path, path.with_name("requests.jsonl.1")):
        assert p.stat().st_size <= 1000
        for line in p.read_text().splitlines():
            json.loads(line)


def test_unwritable_log_dir_does_not_raise(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the folder should be")
    log = RequestLog(blocker / "requests.jsonl")
    m = Metrics(log=log)
    m.record(rec(1))
    m.record(rec(2))
    snap = m.snapshot(now=1010.0)
    assert snap["num_requests"] == 2  # serving and counting go on
    assert snap["log"]["errors"] == 2
    assert snap["log"]["last_error"]


def test_full_disk_is_counted(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    log = RequestLog(Path("/dev/full"))
    assert log.write(rec(1)) is False
    assert log.num_errors == 1 and "OSError" in log.last_error


def test_hash_path_is_stable_and_short() -> None:
    assert hash_path("a.py") == hash_path("a.py") != hash_path("b.py")
    assert len(hash_path("a.py")) == 16


def test_record_repr_hides_detail() -> None:
    assert "detail" not in repr(rec(1, detail="x"))

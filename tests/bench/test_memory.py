"""``nospin bench memory`` end to end with the tests' scripted engine on a small project."""

from __future__ import annotations

import argparse
from pathlib import Path

from bench.memory import pick_documents, run, slope_per_1000


def test_slope() -> None:
    assert slope_per_1000([100, 200, 300], [10.0, 10.5, 11.0]) == 5.0
    assert slope_per_1000([100], [10.0]) is None


def small_project(tmp_path: Path, files: int) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for i in range(files):
        body = "".join(f"    value_{j} = {j} * scale\n" for j in range(60))
        (root / f"mod{i}.py").write_text(f"def build_{i}(scale):\n{body}    return value_0\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_x.py").write_text("x = 1\n" * 80)  # tests are not picked
    return root


def bench_args(root: Path, **changes: object) -> argparse.Namespace:
    args = argparse.Namespace(root=str(root), docs=3, rounds=2, engine="fake", max_tokens=4,
                              seed=0, index_timeout_s=120.0, minutes=0.0, churn=0, set=[])
    vars(args).update(changes)
    return args


def test_a_small_run_reads_the_daemons_memory_at_each_step(tmp_path: Path) -> None:
    root = small_project(tmp_path, 4)
    import random

    picked = pick_documents(root, 10, random.Random(0))
    assert sorted(p.name for p, _, _ in picked) == [f"mod{i}.py" for i in range(4)]
    out = run(bench_args(root))
    rss = out["rss_mb"]
    assert out["docs"] == 3 and out["requests"] == 6 and out["completions_nonempty"] == 6
    assert all(rss[k] and rss[k] > 10 for k in ("ready", "indexed", "opened", "closed", "peak"))
    assert len(rss["rounds"]) == 2 and rss["peak"] >= max(rss["rounds"])
    assert out["documents_open"] == 3
    assert out["rounds"] == 2 and "churned" not in out and out["timeline"] is None
    assert out["home_mb"]["end"] > 0


def test_a_soak_churns_buffers_supersedes_and_edits_files_on_disk(tmp_path: Path) -> None:
    """``--minutes`` with ``--churn``: rounds until the time is up; each closes a buffer and
    opens another, supersedes a completion with the next keystroke's (an incremental edit) and
    appends to a file on disk no buffer holds, while the daemon keeps serving."""
    root = small_project(tmp_path, 12)
    before = {p.name: p.read_text() for p in root.glob("*.py")}
    out = run(bench_args(root, minutes=0.1, churn=1, set=["engine.kv_state_slots=0"]),
              edit_disk=True)
    assert out["config_overrides"] == {"engine.kv_state_slots": 0}
    n = out["rounds"]
    assert n >= 2 and len(out["timeline"]) == n and out["rss_mb"]["rounds"][-1] > 10
    churned = out["churned"]
    assert churned["buffers_swapped"] == churned["disk_edits"] == n
    assert churned["superseded"] >= 1
    # every round: 3 buffers + the superseded pair
    assert out["requests"] == 5 * n and out["documents_open"] == 3
    assert out["completions_nonempty"] >= 4 * n
    edited = [name for name, text in before.items() if (root / name).read_text() != text]
    assert edited and all("soak_value_" in (root / name).read_text() for name in edited)
    assert [row[1] for row in out["timeline"]] == [5 * (i + 1) for i in range(n)]
    assert all(row[4] is None for row in out["timeline"])  # no exact tokenizer: no line cache
    # the largest buffer opened and file edited on disk so far (tests/test_x.py may be one),
    # never falling
    at_least = {3: min(len(t) for t in before.values()), 5: len("x = 1\n" * 80)}
    for column, low in at_least.items():
        seen = [row[column] for row in out["timeline"]]
        assert seen == sorted(seen) and seen[0] >= low, (column, seen)
    assert isinstance(out["growth_mb_per_hour"], float)

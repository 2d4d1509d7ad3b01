"""``nospin bench memory`` end to end with the tests' scripted engine on a small project."""

from __future__ import annotations

import argparse
from pathlib import Path

from bench.memory import pick_documents, run, slope_per_1000


def test_slope() -> None:
    assert slope_per_1000([100, 200, 300], [10.0, 10.5, 11.0]) == 5.0
    assert slope_per_1000([100], [10.0]) is None


def test_a_small_run_reads_the_daemons_memory_at_each_step(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for i in range(4):
        body = "".join(f"    value_{j} = {j} * scale\n" for j in range(60))
        (root / f"mod{i}.py").write_text(f"def build_{i}(scale):\n{body}    return value_0\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_x.py").write_text("x = 1\n" * 80)  # tests are not picked
    import random

    picked = pick_documents(root, 10, random.Random(0))
    assert sorted(p.name for p, _, _ in picked) == [f"mod{i}.py" for i in range(4)]
    args = argparse.Namespace(root=str(root), docs=3, rounds=2, engine="fake", max_tokens=4,
                              seed=0, index_timeout_s=120.0)
    out = run(args)
    rss = out["rss_mb"]
    assert out["docs"] == 3 and out["requests"] == 6 and out["completions_nonempty"] == 6
    assert all(rss[k] and rss[k] > 10 for k in ("ready", "indexed", "opened", "closed", "peak"))
    assert len(rss["rounds"]) == 2 and rss["peak"] >= max(rss["rounds"])
    assert out["documents_open"] == 3

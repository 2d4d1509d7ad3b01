"""`nospin bench body-end`: its points sit on the last statement line of long functions."""

from __future__ import annotations

from pathlib import Path

from bench.body_end import sample_points


def test_points_are_on_the_last_statement_line_of_long_functions(tmp_path: Path) -> None:
    body = "".join(f"    step_{i} = compute({i})\n" for i in range(30))
    long = "def long_one(alpha, beta):\n" + body + "    return step_29 + alpha\n"
    short = "def short_one(x):\n    return x\n"
    (tmp_path / "a.py").write_text("import os\n\n\n" + short + "\n\n" + long)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.py").write_text(long)  # test folders are left out
    points = sample_points(tmp_path, ["a.py", "tests/t.py"], count=5, seed=0, min_lines=25)
    assert len(points) == 1
    point = points[0].point
    assert point.path == "a.py" and points[0].signature == "def long_one(alpha, beta):"
    assert point.kind == "line" and point.original() == (tmp_path / "a.py").read_text()
    lines = point.buffer.split("\n")
    assert lines[point.line - 1] == "    step_29 = compute(29)"
    assert point.hidden and lines[point.line] + point.hidden == "    return step_29 + alpha"
    assert 4 < point.column < len("    return step_29 + alpha")
    assert sample_points(tmp_path, ["a.py"], count=5, seed=0, min_lines=40) == []

"""``nospin context`` end to end: a real project folder, the real command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def _nospin(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NOSPIN_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
    )


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "shapes.py").write_text(
        "class Circle:\n    \"\"\"A circle.\"\"\"\n\n    def area(self, scale: float) -> float:\n"
        "        return 3.14 * self.r ** 2 * scale\n"
    )
    (root / "main.py").write_text(
        "from pkg.shapes import Circle\n\n\ndef total(shapes):\n    c = Circle()\n"
        "    return c.area(2.0)\n"
    )
    (root / "blob.bin").write_bytes(b"\x00\x01" * 100)
    return root


def test_context_shows_segments_with_tier_source_and_tokens(project: Path, tmp_path: Path) -> None:
    out = _nospin("context", "main.py:6:12", "--root", str(project), "--budget", "512",
                  "--json", cwd=project, home=tmp_path / "home")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["num_tokens"] <= 512 and data["path"] == "main.py"
    kinds = {s["kind"] for s in data["segments"]}
    assert {"cursor_window", "suffix", "related"} <= kinds
    related = next(s for s in data["segments"] if s["kind"] == "related")
    assert related["source"].startswith("pkg/shapes.py:") and related["tier"] in ("P0", "P1")
    assert "def area(self, scale: float) -> float:" in related["text"]
    assert all(isinstance(s["num_tokens"], int) for s in data["segments"])

    text = _nospin("context", "main.py:6:12", "--root", str(project), cwd=project,
                   home=tmp_path / "home")
    assert text.returncode == 0
    assert "--- related P" in text.stdout and "tokens" in text.stdout


def test_context_reports_bad_locations_clearly(project: Path, tmp_path: Path) -> None:
    bad = _nospin("context", "main.py:60:1", cwd=project, home=tmp_path / "home")
    assert bad.returncode == 1 and "outside the document" in bad.stderr
    malformed = _nospin("context", "main.py", cwd=project, home=tmp_path / "home")
    assert malformed.returncode == 1 and "FILE:LINE:COL" in malformed.stderr
    missing = _nospin("context", "nope.py:1:1", cwd=project, home=tmp_path / "home")
    assert missing.returncode == 1 and "cannot read" in missing.stderr
    os.mkfifo(project / "pipe.py")  # read until a writer came (the whole file, blocking)
    fifo = _nospin("context", "pipe.py:1:1", cwd=project, home=tmp_path / "home")
    assert fifo.returncode == 1 and "not a regular file" in fifo.stderr
    for args, needle in (
        (["--budget", "-5"], "must be at least 64"),  # gave "0/-5 tokens", everything dropped
        (["--root", "nowhere"], "is not a folder"),
        (["--root", "main.py"], "is not a folder"),  # labelled the file "." as [text]
    ):
        out = _nospin("context", "main.py:6:12", *args, cwd=project, home=tmp_path / "home")
        assert out.returncode != 0 and needle in out.stderr, (args, out.stderr)

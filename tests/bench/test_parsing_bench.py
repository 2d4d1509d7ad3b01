"""``nospin bench parse``: runs through the CLI; every generated file parses without errors
and gives the definitions its units hold."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.parsing import UNITS, generated


def test_bench_parse_prints_json_for_every_language() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "app.cli", "bench", "parse", "--lines", "120", "--runs", "1"],
        capture_output=True, text=True, check=True, timeout=120,
    )
    data = json.loads(out.stdout)
    assert sorted(data["languages"]) == sorted(UNITS)
    for language, figures in data["languages"].items():
        assert not figures["syntax_errors"], language
        assert figures["lines"] >= 120 and figures["definitions"] >= 5, (language, figures)
        # both timed; not their order: one run each, so a pause of the machine in the bare
        # parse made it 11.7 ms against summarize's 3.0 (a timing, not a behaviour)
        assert figures["summarize_ms_median"] > 0 and figures["parse_ms_median"] > 0


def test_generated_files_number_their_names() -> None:
    text = generated("swift", 60)
    assert "class Store0 {" in text and "class Store2 {" in text


def test_bench_parse_root_times_a_projects_own_files(tmp_path: Path) -> None:
    """``--root``: every file of the languages asked for, once per run; the Rust item macro's
    function counts among the definitions."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.rs").write_text(
        "mod a;\nif_std! {\n    pub fn inside() {}\n}\npub fn outside() {}\n"
    )
    (tmp_path / "src" / "a.rs").write_text("pub struct A;\n")
    (tmp_path / "src" / "broken.rs").write_text("pub fn half(\n")
    (tmp_path / "notes.py").write_text("def skipped():\n    pass\n")
    out = subprocess.run(
        [sys.executable, "-m", "app.cli", "bench", "parse", "--root", str(tmp_path),
         "--languages", "rust", "--runs", "2"],
        capture_output=True, text=True, check=True, timeout=120,
    )
    data = json.loads(out.stdout)
    assert list(data["languages"]) == ["rust"]
    rust = data["languages"]["rust"]
    assert rust["files"] == 3 and rust["definitions"] >= 3
    assert rust["files_with_syntax_errors"] == 1
    assert rust["summarize_ms_best"] > 0

"""``nospin eval`` end to end with the embedded model on a tiny corpus (CI smoke, ``slow``).

The corpus is written by the test: a module of geometry helpers and a module that uses them (so
there are cross-file points), plus a JavaScript file (tree-sitter compile check). Three points,
all three modes, top-2: the JSON shape, sane values, the stored result and snapshot, the
report, and ``--against`` exiting non-zero on a doctored earlier result.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.evaluation import DEFAULT_MODES as MODES
from app.evaluation.sampling import SamplingPlan, sample_points

SHAPES = '''"""Shapes and their measures."""

import math
from dataclasses import dataclass


@dataclass
class Circle:
    radius: float

    def area(self) -> float:
        return math.pi * self.radius ** 2

    def perimeter(self) -> float:
        return 2 * math.pi * self.radius


@dataclass
class Rectangle:
    width: float
    height: float

    def area(self) -> float:
        return self.width * self.height

    def perimeter(self) -> float:
        return 2 * (self.width + self.height)


def scale_rectangle(rect: Rectangle, factor: float) -> Rectangle:
    """A copy of ``rect`` with both sides multiplied by ``factor``."""
    if factor <= 0:
        raise ValueError("factor must be positive")
    return Rectangle(rect.width * factor, rect.height * factor)


def total_area(shapes: list[Circle | Rectangle]) -> float:
    total = 0.0
    for shape in shapes:
        total += shape.area()
    return total
'''

REPORT = '''"""A report of shapes, using the shapes module."""

from shapes import Circle, Rectangle, scale_rectangle, total_area


def describe_circle(circle: Circle) -> str:
    area = circle.area()
    perimeter = circle.perimeter()
    return f"circle r={circle.radius}: area {area:.2f}, perimeter {perimeter:.2f}"


def describe_rectangle(rect: Rectangle) -> str:
    area = rect.area()
    return f"rectangle {rect.width}x{rect.height}: area {area:.2f}"


def grow_all(rects: list[Rectangle], factor: float) -> list[Rectangle]:
    grown = []
    for rect in rects:
        grown.append(scale_rectangle(rect, factor))
    return grown


def summary(circles: list[Circle], rects: list[Rectangle]) -> str:
    lines = [describe_circle(c) for c in circles]
    lines += [describe_rectangle(r) for r in rects]
    lines.append(f"total area {total_area([*circles, *rects]):.2f}")
    return "\\n".join(lines)


if __name__ == "__main__":
    print(summary([Circle(1.0)], [Rectangle(2.0, 3.0)]))
'''

COUNTER = '''// A tiny counter with listeners.
export class Counter {
  constructor(start) {
    this.value = start;
    this.listeners = [];
  }

  subscribe(listener) {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  increment(step) {
    this.value += step;
    for (const listener of this.listeners) {
      listener(this.value);
    }
    return this.value;
  }

  reset() {
    this.value = 0;
    this.listeners.forEach((l) => l(0));
  }
}
'''


def write_corpus(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "shapes.py").write_text(SHAPES, encoding="utf-8")
    (root / "report.py").write_text(REPORT, encoding="utf-8")
    (root / "counter.js").write_text(COUNTER, encoding="utf-8")
    return root


def test_sampling_is_seeded_and_hides_the_ground_truth(tmp_path: Path) -> None:
    from app.config import Config
    from app.evaluation.corpus import build_index

    corpus = write_corpus(tmp_path / "corpus")
    index, _ = build_index(corpus, Config())
    plan = SamplingPlan(num_samples=8, seed=3)
    first, _ = sample_points(index, corpus, plan)
    again, _ = sample_points(index, corpus, plan)
    assert [p.id for p in first] == [p.id for p in again]
    assert {p.kind for p in first} == {"line", "block"}
    assert any(p.cross_file for p in first)
    for p in first:
        assert p.original() == (corpus / p.path).read_text(encoding="utf-8")
        assert p.hidden.strip()
        if len(p.hidden.strip()) >= 16:  # long enough to be unique: not in the buffer
            assert p.hidden not in p.buffer
        assert p.num_hidden_lines == p.hidden.count("\n") + 1
        if p.kind == "line":
            assert "\n" not in p.hidden and p.after.startswith("\n")


def test_points_of_an_earlier_result_are_cut_again_from_the_files(tmp_path: Path) -> None:
    """--points-from: a change to the index (a parse that now finds a file's definitions)
    changes what sampling draws; an A/B needs the same points."""
    from app.config import Config
    from app.errors import InputError
    from app.evaluation.corpus import build_index
    from app.evaluation.sampling import points_from

    corpus = write_corpus(tmp_path / "corpus")
    index, _ = build_index(corpus, Config())
    drawn, _ = sample_points(index, corpus, SamplingPlan(num_samples=8, seed=3))
    stored = [{"id": p.id, "path": p.path, "language": p.language, "kind": p.kind,
               "cross_file": p.cross_file, "cross_names": list(p.cross_names),
               "hidden": p.hidden} for p in drawn]  # as a result stores them
    assert points_from(stored, corpus) == drawn
    assert {p.path for p in drawn} == {"shapes.py", "report.py", "counter.js"}  # seeded
    (corpus / "shapes.py").write_text("# rewritten\n" + SHAPES, encoding="utf-8")
    with pytest.raises(InputError, match="no longer holds its hidden text"):
        points_from(stored, corpus)
    (corpus / "counter.js").unlink()
    with pytest.raises(InputError, match="cannot read"):
        points_from([s for s in stored if s["path"] == "counter.js"], corpus)


def model_and_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test corpus under a fresh NOSPIN_HOME; skips when the embedded model is missing."""
    from engine.models import embedded_model_path

    try:
        embedded_model_path()
    except Exception as exc:  # the model packages are not installed here
        pytest.skip(str(exc))
    monkeypatch.setenv("NOSPIN_HOME", str(tmp_path / "home"))
    return write_corpus(tmp_path / "corpus")


@pytest.mark.slow
def test_smoke_eval_with_the_embedded_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = model_and_corpus(tmp_path, monkeypatch)
    config = tmp_path / "config.toml"  # a small context: quick on 2 cores
    config.write_text("[engine]\nn_ctx = 2048\nspeculation = false\n\n"
                      "[context]\nbudget_tokens = 1024\n", encoding="utf-8")
    out, report = tmp_path / "result.json", tmp_path / "report.md"
    code = main([
        "eval", "--corpus", str(corpus), "--samples", "3", "--seed", "1", "--top-k", "2",
        "--config", str(config), "--line-tokens", "16", "--block-tokens", "40",
        "--json", "--out", str(out), "--report", str(report),
    ])
    assert code == 0
    brief = json.loads(capsys.readouterr().out)
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    assert brief["summary"] == result["summary"]
    assert result["num_points"] == 3 and len(result["points"]) == 3
    assert result["num_line"] == 2 and result["num_block"] == 1 and result["num_cross_file"] >= 1
    assert result["checks"] == {"history_entries": 0, "leak_suspects": 0}
    assert result["snapshot_id"] and result["config"]["engine"]["n_ctx"] == 2048
    assert result["engine"]["budget_counter"] == "exact"  # counted as the daemon counts
    nospin_tokens = [r["num_prompt_tokens"] for r in result["results"] if r["mode"] == "nospin"]
    budget = result["config"]["context"]["budget_tokens"]
    assert all(0 < n <= budget for n in nospin_tokens)  # the engine's count: within the budget
    assert set(result["summary"]) == set(MODES)
    assert len(result["results"]) == 3 * len(MODES)
    for mode, figures in result["summary"].items():
        assert set(figures) >= {"all", "line", "block", "cross_file", "full_subset", "run_s"}
        s = figures["all"]
        assert s["n"] == 3 and s["errors"] == 0
        for metric in ("exact_match", "edit_similarity", "identifier_f1", "compile_pass",
                       "top_k_hit", "empty"):
            assert 0.0 <= s[metric] <= 1.0, (mode, metric)
        assert s["top_k_hit"] >= s["exact_match"]
        # accepted characters: in every mode and group, the pooled share of the real text
        for group in ("all", "line", "block", "cross_file", "full_subset"):
            assert {"accepted_chars_mean", "accepted_share"} <= set(figures[group]), group
        assert 0.0 <= s["accepted_share"] <= 1.0 and s["accepted_chars_mean"] >= 0.0
        assert s["prompt_tokens_mean"] > 0 and s["latency_ms_p95"] >= s["latency_ms_p50"] > 0
        assert figures["run_s"] > 0
    hidden = {p["id"]: p["hidden"] for p in result["points"]}
    for r in result["results"]:  # the prefix of the prediction the real text starts with
        want = hidden[r["point"]]
        assert r["target_chars"] == len(want)
        assert want.startswith(r["prediction"][: r["accepted_chars"]])
        assert r["accepted_chars"] == len(r["prediction"]) or r["accepted_chars"] == len(
            want) or r["prediction"][r["accepted_chars"]] != want[r["accepted_chars"]]
    # the whole tiny file fits: naive_full sees more than nospin's slim prompt or the same
    assert (result["summary"]["naive_full"]["all"]["prompt_tokens_mean"]
            >= result["summary"]["naive_tail"]["all"]["prompt_tokens_mean"])
    text = report.read_text(encoding="utf-8")
    assert "| nospin |" in text and "## targets" in text
    assert "![quality" in text or "skipped: matplotlib" in text
    from daemon.snapshots import SnapshotStore

    assert SnapshotStore().show(result["snapshot_id"]).reason.startswith("eval corpus")

    # --unchanged-from: the same requests are not run again, their results are taken; a
    # context change (here the budget) runs the points whose prompts it changed
    assert all(r["prompt_digest"] and not r["reused"] for r in result["results"])
    same, smaller = tmp_path / "same.json", tmp_path / "smaller.json"
    (tmp_path / "small.toml").write_text(
        config.read_text(encoding="utf-8").replace("1024", "160"), encoding="utf-8")
    for conf, written in ((config, same), (tmp_path / "small.toml", smaller)):
        assert main([
            "eval", "--corpus", str(corpus), "--samples", "3", "--seed", "1", "--top-k", "2",
            "--config", str(conf), "--line-tokens", "16", "--block-tokens", "40",
            "--modes", "nospin", "--no-snapshot", "--out", str(written),
            "--unchanged-from", str(out),
        ]) == 0
    capsys.readouterr()
    first = {r["point"]: r for r in result["results"] if r["mode"] == "nospin"}
    rerun = json.loads(same.read_text(encoding="utf-8"))
    assert rerun["unchanged_from"]["reused"] == {"nospin": 3}
    for r in rerun["results"]:
        assert r["reused"] and r["prediction"] == first[r["point"]]["prediction"]
        assert r["prompt_digest"] == first[r["point"]]["prompt_digest"]
    changed = json.loads(smaller.read_text(encoding="utf-8"))
    assert changed["unchanged_from"]["reused"]["nospin"] < 3
    assert all(r["num_prompt_tokens"] <= 160 for r in changed["results"] if not r["reused"])
    assert all(r["reused"] == (r["prompt_digest"] == first[r["point"]]["prompt_digest"])
               for r in changed["results"])

    # --as-shown: block points run to their end and are compile-checked as the editor shows
    # them; their scored prediction is the shown completion's first lines; an earlier result
    # run without it cannot stand in for this one
    shown_out = tmp_path / "shown.json"
    assert main([
        "eval", "--corpus", str(corpus), "--samples", "3", "--seed", "1", "--modes", "nospin",
        "--config", str(config), "--line-tokens", "16", "--block-tokens", "40", "--as-shown",
        "--no-snapshot", "--out", str(shown_out), "--report", str(tmp_path / "shown.md"),
    ]) == 0
    capsys.readouterr()
    shown = json.loads(shown_out.read_text(encoding="utf-8"))
    for r in shown["results"]:
        assert r["compile_pass_shown"] is not None
        assert (r["copies_below"] is None) == (r["kind"] == "line")
        if r["kind"] == "line":
            assert r["shown"] == r["prediction"] and r["prediction"].strip() in r["raw"]
            assert r["compile_pass_shown"] == r["compile_pass"]
        else:  # scored as without --as-shown: the same prediction as the first run's
            assert r["shown"].split("\n", 1)[0].strip() in r["raw"]
            assert r["prediction"] == first[r["point"]]["prediction"]
    rate = shown["summary"]["nospin"]["all"]["compile_pass_shown"]
    assert 0.0 <= rate <= 1.0 and result["summary"]["nospin"]["all"]["compile_pass_shown"] is None
    assert "as the editor shows them" in (tmp_path / "shown.md").read_text(encoding="utf-8")
    # with --unchanged-from an --as-shown result's engine text is post-processed and scored
    # again (here: doctored so that the change shows), the requests not run again
    doctored_shown = json.loads(shown_out.read_text(encoding="utf-8"))
    for r in doctored_shown["results"]:
        r["raw"] = "zq_doctored(1)\n" if r["kind"] == "line" else "zq_doctored(1)\nzq(2)\nzq(3"
        r["finish_reason"] = "length"
    (tmp_path / "doctored_shown.json").write_text(json.dumps(doctored_shown), encoding="utf-8")
    again_out = tmp_path / "again.json"
    assert main([
        "eval", "--corpus", str(corpus), "--samples", "3", "--seed", "1", "--modes", "nospin",
        "--config", str(config), "--line-tokens", "16", "--block-tokens", "40", "--as-shown",
        "--no-snapshot", "--out", str(again_out),
        "--unchanged-from", str(tmp_path / "doctored_shown.json"),
    ]) == 0
    capsys.readouterr()
    again = json.loads(again_out.read_text(encoding="utf-8"))
    assert again["unchanged_from"]["reused"] == {"nospin": 3}
    for r in again["results"]:
        assert r["prediction"].startswith("zq_doctored(1)")
        if r["kind"] == "block":  # cut short by the cap: its open last line goes
            assert r["shown"].startswith("zq_doctored(1)") and "zq(3" not in r["shown"]
    assert main(["eval", "--corpus", str(corpus), "--samples", "3", "--seed", "1", "--top-k",
                 "2", "--modes", "nospin", "--config", str(config), "--as-shown",
                 "--no-snapshot", "--unchanged-from", str(out)]) != 0
    assert "the earlier result differs in --as-shown" in capsys.readouterr().err

    # --against: an earlier result 10 points better in exact match -> exit 3, named in stderr
    doctored = json.loads(out.read_text(encoding="utf-8"))
    doctored["summary"]["nospin"]["all"]["exact_match"] += 0.10
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doctored), encoding="utf-8")
    from app.evaluation.report import compare

    comparison = compare(doctored, result)
    assert [(r.mode, r.metric) for r in comparison.regressions] == [("nospin", "exact_match")]
    assert compare(result, result).ok
    import app.evaluation.runner as runner  # the CLI path, without running the model again

    monkeypatch.setattr(runner, "run_eval", lambda *a, **k: json.loads(out.read_text("utf-8")))
    again = tmp_path / "again.md"
    code = main(["eval", "--corpus", str(corpus), "--samples", "3", "--no-snapshot",
                 "--out", str(tmp_path / "again.json"), "--report", str(again),
                 "--against", str(old)])
    assert code == 3
    assert "REGRESSION nospin: exact_match dropped" in capsys.readouterr().err
    assert "**REGRESSION** nospin: exact_match" in again.read_text(encoding="utf-8")


def test_ruby_block_points_start_after_a_keyword_line() -> None:
    """Block points came only after a line ending with ``{`` or ``:``: in Ruby, hash literals
    (rack's mime table, its gemspec's metadata); a method's or an ``if``'s body is one now."""
    import random

    from app.evaluation.sampling import _block_point

    source = "class Cart\n  def initialize\n    @items = []\n  end\n\n" + "".join(
        f"  def total_{i}(xs)\n    if xs.empty?\n      0\n    else\n      xs.sum\n"
        "    end\n  end\n\n"
        for i in range(4)
    ) + "end\n"
    lines = source.splitlines(keepends=True)
    rng = random.Random(0)
    points = [p for p in (_block_point(rng, "lib/cart.rb", "ruby", lines) for _ in range(20)) if p]
    assert points
    for p in points:
        opener = lines[p.line - 1].strip()
        assert opener.startswith(("def ", "if ", "else")) or opener == "else", opener
        assert not p.hidden.lstrip().startswith("end")


@pytest.mark.slow
def test_smoke_eval_of_the_peer_modes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The three peer modes through the engine on two points: scored, their prompt tokens the
    engine's count and within the budget, nothing leaked, side by side in the report."""
    from app.evaluation import PEER_MODES
    corpus = model_and_corpus(tmp_path, monkeypatch)
    config = tmp_path / "config.toml"
    config.write_text("[engine]\nn_ctx = 2048\nspeculation = false\n\n"
                      "[context]\nbudget_tokens = 256\n", encoding="utf-8")
    out, report = tmp_path / "result.json", tmp_path / "report.md"
    assert main([
        "eval", "--corpus", str(corpus), "--samples", "2", "--seed", "1",
        "--config", str(config), "--line-tokens", "16", "--block-tokens", "40",
        "--modes", ",".join(("nospin", *PEER_MODES)), "--no-snapshot",
        "--out", str(out), "--report", str(report),
    ]) == 0
    capsys.readouterr()
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    assert set(result["summary"]) == {"nospin", *PEER_MODES}
    assert result["checks"]["leak_suspects"] == 0
    for r in result["results"]:
        assert not r["error"], r["mode"]
        assert 0 < r["num_prompt_tokens"] <= 256 + 8, r["mode"]  # the engine's count
        assert 0 < r["num_budgeted_tokens"] <= 256, r["mode"]
    for mode, figures in result["summary"].items():  # accepted characters in every mode
        assert 0.0 <= figures["all"]["accepted_share"] <= 1.0, mode
    text = report.read_text(encoding="utf-8")
    assert all(f"| {mode} |" in text for mode in PEER_MODES)
    assert "## targets against the peer modes" in text and "accepted share (all, n=2)" in text

"""``nospin eval --reuse``: baselines copied from an earlier result only when comparable."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from app.errors import InputError
from app.evaluation.report import render_markdown, targets
from app.evaluation.runner import reuse_modes


def _summary(em: float, tokens: float) -> dict[str, Any]:
    figures = {
        "n": 2, "exact_match": em, "edit_similarity": 0.5, "identifier_f1": 0.5,
        "identifier_em": 0.0, "compile_pass": 1.0, "compile_counted": 2, "compile_skipped": 0,
        "top_k_hit": None, "prompt_tokens_mean": tokens, "cached_tokens_mean": 0.0,
        "latency_ms_p50": 10.0, "latency_ms_p95": 20.0, "first_token_ms_p50": 5.0,
        "first_token_ms_p95": 9.0, "empty": 0.0, "errors": 0, "leak_suspects": 0,
    }
    groups = ("all", "line", "block", "cross_file", "full_subset")
    return {"num_points": 2, "run_s": 1.0, "top_k_extra_s": 0.0,
            **{g: dict(figures) for g in groups}}


def _result(modes: list[str], budget: int = 384) -> dict[str, Any]:
    return {
        "created": 1.7e9,
        "result_path": "/tmp/old.json",
        "options": {"modes": modes, "corpus": "/c", "seed": 0, "num_samples": 2, "top_k": 1,
                    "temperature": 0.8, "line_max_tokens": 32, "block_max_tokens": 96},
        "config": {"context": {"budget_tokens": budget, "suffix_max_lines": 2}},
        "engine": {"name": "llamacpp", "model": "m.gguf", "n_ctx": 4096},
        "corpus": {"num_files": 3, "index_build_s": 0.1, "sampling": {}},
        "checks": {"history_entries": 0, "leak_suspects": 0},
        "timing": {"model_load_s": 1.0, "total_s": 2.0},
        "num_points": 2, "num_line": 1, "num_block": 1, "num_cross_file": 1,
        "naive_full_subset": ["a:1"],
        "summary": {m: _summary(0.5, 300.0 if m == "nospin" else 1000.0) for m in modes},
        "points": [{"id": "a:1"}, {"id": "b:2"}],
        "results": [{"mode": m, "point": pid} for m in modes for pid in ("a:1", "b:2")],
    }


def test_missing_modes_are_copied_and_reported() -> None:
    old = _result(["naive_full", "naive_tail"])
    new = _result(["nospin"])
    assert reuse_modes(new, old) == ["naive_full", "naive_tail"]
    assert set(new["summary"]) == {"nospin", "naive_full", "naive_tail"}
    assert new["summary"]["naive_full"]["reused_from"] == "/tmp/old.json"
    assert sum(1 for r in new["results"] if r["mode"] == "naive_tail") == 2
    assert new["options"]["modes"] == ["nospin", "naive_full", "naive_tail"]
    assert any("prompt tokens" in t for t in targets(new))  # the targets now have baselines
    assert "reused from `/tmp/old.json`" in render_markdown(new)


def test_modes_run_here_are_never_overwritten() -> None:
    old = _result(["nospin", "naive_full"])
    old["summary"]["nospin"]["all"]["exact_match"] = 0.0
    new = _result(["nospin"])
    assert reuse_modes(new, old) == ["naive_full"]
    assert new["summary"]["nospin"]["all"]["exact_match"] == 0.5


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r["points"].append({"id": "c:3"}), "points"),
        (lambda r: r["engine"].update(model="other.gguf"), "model"),
        (lambda r: r["options"].update(line_max_tokens=16), "--line-max-tokens"),
        (lambda r: r["config"]["context"].update(budget_tokens=2048), "budget_tokens"),
        (lambda r: r["config"].update(engine={"token_healing": True}), "token_healing"),
        (lambda r: r["engine"].update(budget_counter="exact"), "how the budget was counted"),
    ],
)
def test_results_that_differ_are_refused_with_the_reason(change: Any, message: str) -> None:
    old = _result(["naive_full", "naive_tail"])
    change(old)
    new = _result(["nospin"])
    before = copy.deepcopy(new)
    with pytest.raises(InputError, match=message):
        reuse_modes(new, old)
    assert new == before  # nothing half-copied


def test_a_different_budget_still_reuses_naive_full() -> None:
    old = _result(["naive_full"], budget=2048)
    new = _result(["nospin"], budget=384)
    assert reuse_modes(new, old) == ["naive_full"]


def test_from_merges_baselines_into_a_stored_result_without_running(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``nospin eval --from R --reuse B --out M --report M.md``: no corpus, no model."""
    from app.cli import main

    stored, baselines = tmp_path / "nospin.json", tmp_path / "naive.json"
    stored.write_text(json.dumps(_result(["nospin"])), encoding="utf-8")
    baselines.write_text(json.dumps(_result(["naive_full", "naive_tail"])), encoding="utf-8")
    merged, report = tmp_path / "merged.json", tmp_path / "merged.md"
    code = main(["eval", "--from", str(stored), "--reuse", str(baselines), "--out", str(merged),
                 "--report", str(report), "--chart", str(tmp_path / "c.png")])
    assert code == 0
    result = json.loads(merged.read_text(encoding="utf-8"))
    assert set(result["summary"]) == {"nospin", "naive_full", "naive_tail"}
    assert "reused from" in report.read_text(encoding="utf-8")
    assert "reused naive_full, naive_tail" in capsys.readouterr().err
    assert main(["eval", "--modes", "nospin"]) != 0  # neither --corpus nor --from
    assert "--corpus is required" in capsys.readouterr().err


def test_results_stored_gzipped_read_and_write_as_plain_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``bench/results`` keeps results as ``.json.gz``: ``--from``/``--reuse`` read them, ``--out``
    with ``.gz`` writes one, and a truncated file is refused with the path."""
    import gzip

    from app.cli import main

    stored, baselines = tmp_path / "nospin.json.gz", tmp_path / "naive.json"
    stored.write_bytes(gzip.compress(json.dumps(_result(["nospin"])).encode("utf-8")))
    baselines.write_text(json.dumps(_result(["naive_tail"])), encoding="utf-8")
    merged = tmp_path / "merged.json.gz"
    assert main(["eval", "--from", str(stored), "--reuse", str(baselines),
                 "--out", str(merged), "--no-snapshot"]) == 0
    result = json.loads(gzip.decompress(merged.read_bytes()))
    assert set(result["summary"]) == {"nospin", "naive_tail"}
    broken = tmp_path / "broken.json.gz"
    broken.write_bytes(merged.read_bytes()[:40])
    assert main(["eval", "--from", str(broken), "--no-snapshot"]) != 0
    assert "cannot read the result" in capsys.readouterr().err


def test_a_history_corpus_is_the_same_by_its_pins_wherever_it_is_checked_out(
    tmp_path: Path,
) -> None:
    from app.commands.eval import check_reusable
    from app.evaluation.history import pins_digest

    def corpus(where: str, base: str) -> Path:
        folder = tmp_path / where
        folder.mkdir()
        (folder / "lib.json").write_text(json.dumps({"base": base}))
        (folder / "lib.tar.xz").write_bytes(b"archive")
        (folder / "package.json").write_text("{}")  # not a pin: no corpus beside it
        return folder

    here, there, other = corpus("a", "abc"), corpus("b", "abc"), corpus("c", "def")
    assert pins_digest(here) == pins_digest(there) != pins_digest(other) != ""
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "package.json").write_text("{}")
    assert pins_digest(plain) == ""
    earlier = {"options": {"num_samples": 8, "seed": 0, "naive_full_max": 60,
                           "corpus": str(here), "corpus_pins": pins_digest(here)}}
    sampling = {"num_samples": 8, "seed": 0, "naive_full_max": 60}
    check_reusable(Path("old.json"), earlier, there, **sampling)  # another checkout: reused
    with pytest.raises(InputError, match="other pinned commits"):
        check_reusable(Path("old.json"), earlier, other, **sampling)
    with pytest.raises(InputError, match="seed"):
        check_reusable(Path("old.json"), earlier, there, **{**sampling, "seed": 1})
    # a result from before the digest was kept, or a plain corpus: by path
    earlier["options"].pop("corpus_pins")
    with pytest.raises(InputError, match="corpus"):
        check_reusable(Path("old.json"), earlier, there, **sampling)
    check_reusable(Path("old.json"), earlier, here, **sampling)

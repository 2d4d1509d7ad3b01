"""``nospin bench context`` on the vendored Go corpus (bench/corpora/chi), character counts."""

from __future__ import annotations

import argparse
from pathlib import Path

from bench import context

CHI = Path(__file__).resolve().parents[2] / "bench" / "corpora" / "chi"


def test_context_bench_reports_cross_file_definition_recall_on_a_go_project() -> None:
    parser = argparse.ArgumentParser()
    context.add_arguments(parser)
    result = context.run(parser.parse_args([
        "--root", str(CHI), "--samples", "40", "--budget", "896", "--tokenizer", "estimate",
    ]))
    assert result["files_indexed"] >= 55 and result["samples"] == 40
    assert result["over_budget"] == 0
    assert result["cross_file_names"] > 0
    # chi's own packages are imported by module path (github.com/go-chi/chi/v5/...): before
    # go.mod was read, none of their definitions reached a prompt through an import (0.0 of
    # these 40 points' 20 cross-file names; 0.1 since)
    assert 0.05 < result["cross_file_definition_recall"] <= 1.0
    assert result["identifier_recall"] >= result["identifier_recall_naive_tail"]

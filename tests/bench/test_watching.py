"""`nospin bench watching` on a small generated project, with the real inotify watcher."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest

from bench import watching


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify: Linux only")
def test_reads_and_installs_cost_the_watcher_nothing_and_edits_all_arrive() -> None:
    parser = argparse.ArgumentParser()
    watching.add_arguments(parser)
    result = watching.run(parser.parse_args(["--files", "60", "--dep-files", "400",
                                             "--edits", "30"]))
    json.dumps(result)
    assert result["pruned"]
    # root, src, its 3 packages and .git (for .git/info/exclude): no dependency folder
    assert result["kernel_watches"] == 6, result["kernel_watches"]
    assert result["read"]["events"] == 0 and result["install"]["events"] == 0
    assert result["install"]["batches"] == 0
    assert result["edit"]["new_paths"] == 30 and result["edit"]["all_edits_seen"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify: Linux only")
def test_an_existing_project_is_only_read(tmp_path: Path) -> None:
    watching.make_project(tmp_path, 40, 80)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    parser = argparse.ArgumentParser()
    watching.add_arguments(parser)
    result = watching.run(parser.parse_args(["--root", str(tmp_path)]))
    assert set(result) >= {"kernel_watches", "start_cpu_s", "read"}
    assert "install" not in result and "edit" not in result
    assert result["kernel_watches"] == 5  # root, src, its 2 packages, .git
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before

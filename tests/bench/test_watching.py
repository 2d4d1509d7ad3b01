"""`nospin bench watching` on a small generated project, with the real inotify watcher."""

from __future__ import annotations

import argparse
import json
import sys

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

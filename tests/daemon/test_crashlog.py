"""daemon/crashlog.py: faulthandler's report of a fatal crash, read by the next daemon."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from daemon.crashlog import (
    CRASH_FILE,
    LAST_CRASH_FILE,
    CrashWatch,
    collect,
    describe,
    parse_crash,
)

REPO = Path(__file__).parents[2]

# the head of the report a llama.cpp built with AMX left on 2026-12-02 (paths shortened)
LLAMA_REPORT = """\
Fatal Python error: Segmentation fault

Thread 0x00007fad769d9b80 (most recent call first):
  File "/usr/lib/python3.11/threading.py", line 331 in wait
  File "/v/engine/base.py", line 251 in generate_sync

Current thread 0x00007fad6c0a06c0 (most recent call first):
  File "/v/site-packages/llama_cpp/_internals.py", line 329 in decode
  File "/v/engine/llamacpp_session.py", line 284 in decode
  File "/usr/lib/python3.11/threading.py", line 1002 in _bootstrap

Extension modules: msgspec._core, zmq.backend.cython._zmq (total: 2)
"""


def test_parse_names_the_signal_and_the_crashing_threads_innermost_frame() -> None:
    assert parse_crash(LLAMA_REPORT) == ("Segmentation fault",
                                         "llama_cpp/_internals.py:329 in decode")
    assert parse_crash("Fatal Python error: Aborted\n\nStack (most recent call first):\n") == \
        ("Aborted", "")
    assert parse_crash("garbage\x00") == ("unknown fatal error", "")


def test_collect_keeps_the_report_once_and_ignores_an_empty_file(tmp_path: Path) -> None:
    assert collect(tmp_path) is None  # a clean exit left no file
    (tmp_path / CRASH_FILE).write_text("")  # killed outright (SIGKILL): nothing to say
    assert collect(tmp_path) is None and not (tmp_path / CRASH_FILE).exists()
    (tmp_path / CRASH_FILE).write_text(LLAMA_REPORT)
    os.utime(tmp_path / CRASH_FILE, (1000.0, 1000.0))
    record = collect(tmp_path)
    assert record is not None and record.when == 1000.0
    assert record.path == str(tmp_path / LAST_CRASH_FILE)
    assert (tmp_path / LAST_CRASH_FILE).read_text() == LLAMA_REPORT
    assert collect(tmp_path) is None  # reported once
    assert describe(record.to_dict(), now=1000.0 + 180) == (
        "Segmentation fault in llama_cpp/_internals.py:329 in decode, 3 min ago "
        f"({tmp_path / LAST_CRASH_FILE})")
    assert describe({"when": 0, "error": "Aborted"}, now=3 * 86400).startswith(
        "Aborted, 3 days ago")


def test_the_watch_writes_a_real_crash_and_a_clean_exit_removes_the_file(
        tmp_path: Path) -> None:
    code = textwrap.dedent(f"""
        import faulthandler, sys
        from pathlib import Path
        from daemon.crashlog import CrashWatch
        with CrashWatch(Path({str(tmp_path)!r})):
            if sys.argv[1] == "crash":
                faulthandler._sigsegv()
    """)
    clean = subprocess.run([sys.executable, "-c", code, "clean"], cwd=REPO, timeout=60)
    assert clean.returncode == 0 and not (tmp_path / CRASH_FILE).exists()
    crash = subprocess.run([sys.executable, "-c", code, "crash"], cwd=REPO, timeout=60,
                           capture_output=True)
    assert crash.returncode < 0
    error, where = parse_crash((tmp_path / CRASH_FILE).read_text())
    assert error == "Segmentation fault" and where == "<string>:7 in <module>"


def test_an_unwritable_state_folder_runs_without_a_report(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    with CrashWatch(blocked / "state") as watch:  # no error: the daemon still serves
        assert watch.path == blocked / "state" / CRASH_FILE
    assert blocked.read_text() == "not a folder"

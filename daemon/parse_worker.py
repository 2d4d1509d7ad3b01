"""Bulk reading and parsing, in this process or in worker processes (``python -m`` this module).

The indexer sends large amounts of work (the initial scan, a branch switch) to a few worker
processes: parsing holds the GIL, so a thread would slow down serving and cannot use a second
core. Workers are plain child processes of ``sys.executable`` speaking pickle over their
stdin/stdout, one task at a time; unlike ``multiprocessing``'s spawn they never re-import the
parent's ``__main__`` and never fork the daemon's threads.

Workers run at a lower CPU priority (``nice`` 10; below-normal priority class on Windows): they
share the cores with the engine, and at the same priority two workers made the engine prefill
4x slower (6.5 -> 25.7-29.2 ms per token on 2 cores while the standard library was indexed;
nice 10: 7.7). Idle cores still go to them; with the engine busy without a pause the scan took
42 s instead of 10 (docs/context.md, "Indexing beside the engine").

A task is ``(items, max_bytes)`` with items ``(absolute path, rel, keep_text)``; the answer is
what :func:`parse_files` returns.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from app.errors import SkippedFile
from daemon.discovery import read_source
from daemon.parse import summarize
from daemon.symbols import FileSummary

#: What one task returns: results in input order, seconds spent reading, seconds parsing.
TaskResult = tuple[list["Parsed"], float, float]


@dataclass(frozen=True, slots=True)
class Parsed:
    """The answer for one file: a summary, or the reason it was skipped."""

    rel: str
    summary: FileSummary | None
    skip_reason: str  # "" when summary is set
    text: str | None  # the text read, only when asked for (the watcher keeps texts for diffs)


#: One file to parse: absolute path, project-relative path, whether to send its text back.
Item = tuple[str, str, bool]


def parse_files(items: Sequence[Item], max_bytes: int) -> TaskResult:
    """Read and summarise ``items``; never raises for one bad file."""
    results: list[Parsed] = []
    read_s = parse_s = 0.0
    for path, rel, keep_text in items:
        t0 = time.perf_counter()
        try:
            text = read_source(path, max_bytes=max_bytes)
        except SkippedFile as exc:
            read_s += time.perf_counter() - t0
            results.append(Parsed(rel, None, exc.reason, None))
            continue
        t1 = time.perf_counter()
        summary = summarize(rel, text)
        parse_s += time.perf_counter() - t1
        read_s += t1 - t0
        results.append(Parsed(rel, summary, "", text if keep_text else None))
    return results, read_s, parse_s


#: How much lower than the daemon a worker runs (Unix ``nice`` increment; on Windows any value
#: above 0 means the below-normal priority class). 0: the daemon's own priority.
WORKER_NICE = 10


class WorkerProcess:
    """One worker child process; :meth:`run` sends a task and waits for its answer."""

    def __init__(self, *, nice: int = WORKER_NICE) -> None:
        package_root = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        flags = 0
        if sys.platform == "win32" and nice > 0:
            flags = subprocess.BELOW_NORMAL_PRIORITY_CLASS
        self._proc = subprocess.Popen(
            # -P: the daemon's working directory (a user's project) stays off sys.path
            [sys.executable, "-P", "-m", "daemon.parse_worker", str(nice)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            creationflags=flags,
        )

    @property
    def pid(self) -> int:
        return self._proc.pid

    def run(self, items: Sequence[Item], max_bytes: int) -> TaskResult:
        """Send one task; raise OSError or EOFError when the worker died."""
        assert self._proc.stdin is not None and self._proc.stdout is not None
        pickle.dump((list(items), max_bytes), self._proc.stdin, pickle.HIGHEST_PROTOCOL)
        self._proc.stdin.flush()
        result: TaskResult = pickle.load(self._proc.stdout)
        return result

    def close(self, timeout: float = 5.0) -> None:
        """Let the worker finish (end of its input) or kill it after ``timeout``."""
        try:
            if self._proc.stdin is not None:
                self._proc.stdin.close()
            self._proc.wait(timeout)
        except (OSError, subprocess.TimeoutExpired):
            self._proc.kill()
            self._proc.wait()
        finally:
            if self._proc.stdout is not None:
                self._proc.stdout.close()


def _serve(stdin: IO[bytes], stdout: IO[bytes]) -> None:
    while True:
        try:
            items, max_bytes = pickle.load(stdin)
        except EOFError:
            return
        pickle.dump(parse_files(items, max_bytes), stdout, pickle.HIGHEST_PROTOCOL)
        stdout.flush()


if __name__ == "__main__":
    # Run the imported module's copy, so that answers pickle as daemon.parse_worker.Parsed.
    from daemon.parse_worker import _serve as serve

    if len(sys.argv) > 1 and hasattr(os, "nice"):
        os.nice(int(sys.argv[1]))  # below the engine (the module docstring says why)
    # Answers go to a private copy of stdout; anything a library prints goes to stderr.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    serve(sys.stdin.buffer, answers)


__all__ = ["WORKER_NICE", "Item", "Parsed", "TaskResult", "WorkerProcess", "parse_files"]

"""The previous daemon's fatal crash, kept for ``nospin status``, the tray and ``nospin doctor``.

A native fault (a segfault in llama.cpp, an abort in a C extension) ends the process before
Python can log anything: the daemon's log just stops, and an editor starts a new daemon that
knows nothing of it (seen 2026-12-02: a llama.cpp built with AMX faulted at every prompt on a VM,
engine/cpu_build.py). While a daemon runs, Python's faulthandler writes the fatal signal and
every thread's stack to ``<state>/crash.txt``; a clean exit removes that file. The next daemon
finds it non-empty, keeps it as ``last-crash.txt`` and reports it (:class:`CrashRecord`).

A process killed outright (SIGKILL, the OOM killer) leaves an empty file: nothing to report.
"""

from __future__ import annotations

import faulthandler
import logging
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

log = logging.getLogger(__name__)

CRASH_FILE = "crash.txt"  # written by faulthandler while a daemon runs
LAST_CRASH_FILE = "last-crash.txt"  # the previous daemon's, kept for the user
_FRAME = re.compile(r'^\s*File "(?P<path>[^"]+)", line (?P<line>\d+) in (?P<func>\S+)')


@dataclass(frozen=True, slots=True)
class CrashRecord:
    """How the previous daemon died."""

    when: float  # unix time the crash was written (the file's modification time)
    error: str  # faulthandler's "Fatal Python error: ..." text, e.g. "Segmentation fault"
    where: str  # innermost frame of the crashing thread: "llama_cpp/_internals.py:329 in decode"
    path: str  # the kept report (last-crash.txt)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def parse_crash(text: str) -> tuple[str, str]:
    """(error, where) from a faulthandler report; where is "" when no frame is shown."""
    error = ""
    where = ""
    current = False
    for line in text.splitlines():
        if not error and line.startswith("Fatal Python error:"):
            error = line.partition(":")[2].strip()
        elif line.startswith(("Current thread", "Thread 0x")):
            current = line.startswith("Current thread")
        elif current and not where:
            m = _FRAME.match(line)
            if m:
                short = "/".join(Path(m["path"]).parts[-2:])
                where = f"{short}:{m['line']} in {m['func']}"
    return error or "unknown fatal error", where


def collect(folder: Path) -> CrashRecord | None:
    """The previous daemon's crash report, moved to ``last-crash.txt``; None when it ended
    cleanly (no file) or was killed without a report (an empty file)."""
    crash = folder / CRASH_FILE
    try:
        text = crash.read_text(encoding="utf-8", errors="replace")
        when = crash.stat().st_mtime
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("cannot read the previous daemon's crash report %s: %s", crash, exc)
        return None
    if not text.strip():
        crash.unlink(missing_ok=True)
        return None
    kept = folder / LAST_CRASH_FILE
    try:
        crash.replace(kept)
    except OSError as exc:
        log.warning("cannot keep the crash report as %s: %s", kept, exc)
        kept = crash
    error, where = parse_crash(text)
    return CrashRecord(when=when, error=error, where=where, path=str(kept))


class CrashWatch:
    """While open, a fatal signal's report goes to ``<folder>/crash.txt`` (process-wide: use
    it in the daemon's own process only, after the per-user lock is taken)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / CRASH_FILE
        self._file: IO[str] | None = None

    def __enter__(self) -> CrashWatch:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "w", encoding="utf-8")
            faulthandler.enable(file=self._file, all_threads=True)
        except OSError as exc:  # a full disk or a read-only state folder: run without it
            log.warning("no crash report this time (%s): %s", self.path, exc)
            self._close()
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._file is not None:
            faulthandler.disable()
            self._close()
            self.path.unlink(missing_ok=True)

    def _close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def describe(record: Mapping[str, Any], now: float) -> str:
    """One line for people: "Segmentation fault in llama_cpp/_internals.py:329 in decode,
    3 min ago (last-crash.txt)"."""
    ago = max(0.0, now - float(record.get("when", now)))
    if ago < 90:
        age = f"{ago:.0f} s ago"
    elif ago < 5400:
        age = f"{ago / 60:.0f} min ago"
    elif ago < 172800:
        age = f"{ago / 3600:.0f} h ago"
    else:
        age = f"{ago / 86400:.0f} days ago"
    kept = f" ({record['path']})" if record.get("path") else ""
    return f"{summary(record)}, {age}{kept}"


def summary(record: Mapping[str, Any]) -> str:
    """"Segmentation fault in llama_cpp/_internals.py:329 in decode" (the tray's row)."""
    where = f" in {record['where']}" if record.get("where") else ""
    return f"{record.get('error', 'crashed')}{where}"

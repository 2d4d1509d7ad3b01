"""The replayed typing session of ``nospin bench latency``: seeded cursor points in real files and
the keystroke schedule at each (docs/latency.md, "What it replays")."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path

SKIP_DIRS = frozenset({"site-packages", "test", "tests", "idle_test", "__pycache__"})


@dataclass(frozen=True, slots=True)
class Point:
    """A cursor line where the user types ``typed``, starting at the line's indentation."""

    path: str  # relative to the root
    text: str  # the file as on disk
    line: int  # 0-based
    column: int  # where typing starts
    typed: str  # the characters typed, one per keystroke
    rest: str  # the real line after ``column`` (ground truth for the match figures)

    def buffer(self, num_typed: int) -> tuple[str, int]:
        """The editor buffer after ``num_typed`` keystrokes (the line's rest not written yet)."""
        lines = self.text.split("\n")
        current = lines[self.line][: self.column] + self.typed[:num_typed]
        lines[self.line] = current
        return "\n".join(lines), len(current)


@dataclass(frozen=True, slots=True)
class Key:
    at_ms: float  # keystroke time after the cursor arrived
    send: bool  # the pause after it reaches the debounce: a request is sent


def typing_schedule(
    num_keys: int,
    *,
    think_ms: float,
    typing_ms: float,
    jitter: float,
    debounce_ms: float,
    rng: random.Random,
) -> list[Key]:
    """Keystrokes after the cursor arrives; the last one is always followed by a pause."""
    times = [think_ms]
    for _ in range(num_keys - 1):
        times.append(times[-1] + typing_ms * rng.uniform(1 - jitter, 1 + jitter))
    return [
        Key(t, i == len(times) - 1 or times[i + 1] - t >= debounce_ms) for i, t in enumerate(times)
    ]


def _candidate_files(root: Path, min_lines: int) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = Path(folder) / name
            try:
                if path.stat().st_size > 200_000:
                    continue
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if text.count("\n") >= min_lines and "\r" not in text:
                found.append((path.relative_to(root).as_posix(), text))
    return found


def _in_string(text_before: str) -> bool:
    return (text_before.count('"""') + text_before.count("'''")) % 2 == 1


def sample_points(
    root: Path, *, files: int, points: int, keys: int, min_lines: int, rng: random.Random
) -> list[Point]:
    """Seeded cursor lines: code lines (no comment, no string) with more than ``keys`` chars."""
    candidates = _candidate_files(root, min_lines)
    rng.shuffle(candidates)
    out: list[Point] = []
    for rel, text in candidates:
        if len(out) >= files * points:
            break
        lines = text.split("\n")
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line) + 1)
        usable = []
        for i in range(20, len(lines) - 3):
            stripped = lines[i].strip()
            if len(stripped) < keys + 6 or not (stripped[0].isalpha() or stripped[0] == "_"):
                continue
            if _in_string(text[: offsets[i]]):
                continue
            usable.append(i)
        if len(usable) < points:
            continue
        for i in sorted(rng.sample(usable, points)):
            content = lines[i]
            column = len(content) - len(content.lstrip())
            out.append(
                Point(rel, text, i, column, content[column : column + keys], content[column:])
            )
    return out

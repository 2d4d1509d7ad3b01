"""Unified diffs as ``git diff`` writes them: parsed into hunks, applied to texts (pure).

The history replay (``app/evaluation/history.py``) stores a repository's commits as the diffs
of the files it keeps, and replays them: a whole diff brings the checkout from one commit to the
next (``apply_diff``), and each hunk of a commit is one editor change (``edit_between``).
Hunks are those ``git diff`` prints (3 lines of context, nearby changes in one hunk), in its
order: files by path, hunks from the top of the file down.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.errors import InputError
from daemon.documents import Edit

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass(frozen=True, slots=True)
class Hunk:
    """One hunk of one file: ``old`` lines from ``old_start`` become ``new`` lines."""

    path: str  # repository-relative, forward slashes (the new path; the old one if deleted)
    old_start: int  # 0-based first line of ``old`` in the file before the commit
    old: tuple[str, ...]  # lines before, line breaks kept (context lines included)
    new: tuple[str, ...]  # lines after, line breaks kept (context lines included)
    num_context_head: int  # leading context lines (in both ``old`` and ``new``)
    created: bool = False  # the file is new in this diff
    deleted: bool = False  # the file is gone after this diff

    @property
    def added(self) -> tuple[int, int]:
        """The changed part of ``new`` as [start, stop) indexes into ``new``: the lines
        between the leading and the trailing context."""
        tail = _common_tail(self.old[self.num_context_head :], self.new[self.num_context_head :])
        return self.num_context_head, len(self.new) - tail


@dataclass(frozen=True, slots=True)
class FileDiff:
    """One file of a diff: its hunks in order, and whether the diff creates or deletes it."""

    path: str
    hunks: tuple[Hunk, ...]
    created: bool
    deleted: bool


def parse_diff(text: str) -> list[FileDiff]:
    """The files of a ``git diff`` (no renames: ``--no-renames``), in its order. Raises
    InputError on a malformed diff."""
    files: list[FileDiff] = []
    lines = split_lines(text)
    i = 0
    while i < len(lines):
        if not lines[i].startswith("diff --git "):
            i += 1
            continue
        i += 1
        old_path = new_path = ""
        while i < len(lines) and not lines[i].startswith(("@@", "diff --git ")):
            line = lines[i].rstrip("\n")
            if line.startswith("--- "):
                old_path = line[4:]
            elif line.startswith("+++ "):
                new_path = line[4:]
            i += 1
        created, deleted = old_path == "/dev/null", new_path == "/dev/null"
        path = _strip_prefix(old_path if deleted else new_path)
        if not path:  # a binary file or a mode change only: nothing to replay
            continue
        hunks: list[Hunk] = []
        while i < len(lines) and lines[i].startswith("@@"):
            hunk, i = _parse_hunk(lines, i, path, created, deleted)
            hunks.append(hunk)
        files.append(FileDiff(path, tuple(hunks), created, deleted))
    return files


def split_lines(text: str) -> list[str]:
    """``text``'s lines, each with its ``\n`` (what a diff counts as lines: unlike
    ``str.splitlines``, a form feed or a lone ``\r`` does not end one)."""
    lines = text.split("\n")
    out = [line + "\n" for line in lines[:-1]]
    return [*out, lines[-1]] if lines[-1] else out


def _strip_prefix(path: str) -> str:
    if path in ("", "/dev/null"):
        return ""
    return path[2:] if path.startswith(("a/", "b/")) else path


def _parse_hunk(
    lines: Sequence[str], i: int, path: str, created: bool, deleted: bool
) -> tuple[Hunk, int]:
    m = _HUNK.match(lines[i])
    if m is None:
        raise InputError(f"malformed hunk header in the diff of {path}: {lines[i]!r}")
    old_start, old_len = int(m.group(1)), int(m.group(2) or "1")
    new_len = int(m.group(4) or "1")
    i += 1
    old: list[str] = []
    new: list[str] = []
    head = 0
    changed = False
    prev = ""
    while i < len(lines):
        line = lines[i]
        tag, body = line[:1], line[1:]
        if tag == "\\":  # "\ No newline at end of file": the line before has no break
            if prev in ("-", " "):
                _drop_break(old)
            if prev in ("+", " "):
                _drop_break(new)
            i += 1
            continue
        if len(old) >= old_len and len(new) >= new_len:
            break
        if tag not in (" ", "-", "+"):
            raise InputError(f"malformed line in a hunk of {path}: {line!r}")
        if tag != "+":
            old.append(body)
        if tag != "-":
            new.append(body)
        changed = changed or tag != " "
        head += 0 if changed else 1
        prev = tag
        i += 1
    if len(old) != old_len or len(new) != new_len:
        raise InputError(f"truncated hunk in the diff of {path}")
    start = old_start - 1 if old_len else old_start  # "-12,0": insertion after line 12
    return Hunk(path, start, tuple(old), tuple(new), head, created, deleted), i


def _drop_break(target: list[str]) -> None:
    if target and target[-1].endswith("\n"):
        target[-1] = target[-1][:-1]


def _common_tail(a: Sequence[str], b: Sequence[str]) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def apply_hunk(text: str, hunk: Hunk, *, shift: int = 0) -> str:
    """``text`` with ``hunk`` applied at its line (plus ``shift``: lines earlier hunks of the
    same file added). Raises InputError when the text there is not the hunk's old lines."""
    lines = split_lines(text)
    start = hunk.old_start + shift
    if tuple(lines[start : start + len(hunk.old)]) != hunk.old:
        raise InputError(f"{hunk.path}: the diff does not apply at line {start + 1}")
    return "".join([*lines[:start], *hunk.new, *lines[start + len(hunk.old) :]])


def apply_file(text: str, diff: FileDiff) -> str | None:
    """``text`` with every hunk of ``diff`` applied (None: the file is deleted)."""
    if diff.deleted:
        return None
    shift = 0
    for hunk in diff.hunks:
        text = apply_hunk(text, hunk, shift=shift)
        shift += len(hunk.new) - len(hunk.old)
    return text


def apply_diff(files: Mapping[str, str], diff: Sequence[FileDiff]) -> dict[str, str | None]:
    """The new texts of the files ``diff`` touches (None: deleted), from ``files``."""
    out: dict[str, str | None] = {}
    for file in diff:
        if file.created:
            base = ""
        elif file.path in files:
            base = files[file.path]
        else:
            raise InputError(f"the diff changes {file.path}, which the checkout lacks")
        out[file.path] = apply_file(base, file)
    return out


def edit_between(old: str, new: str) -> Edit:
    """The one editor change that turns ``old`` into ``new``: the range between their common
    head and tail, replaced (as an editor reports a paste or a typed run)."""
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    start_line, start_col = _position(old, head)
    end_line, end_col = _position(old, len(old) - tail)
    return Edit(start_line, start_col, end_line, end_col, new[head : len(new) - tail])


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)

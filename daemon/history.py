"""Edit history: a bounded record of recent edits, summarised for the prompt (pure core).

Two sources feed it: the watcher (a file saved on disk: old text against new text, see
``daemon/indexer.py``) and the editor's change notifications (the daemon calls
:meth:`EditHistory.record_edit` with ``source="editor"``). The context assembler reads
:meth:`EditHistory.summary_lines` and :meth:`EditHistory.latest_hunks` (design.md §2, the 10%
edit-history share).

Each edit becomes one :class:`EditRecord` with a one-line summary::

    edited `parse_row` in io/csv.py: +3 -1
    edited `Reader.open`, `Reader.close` in io/csv.py: +2 -2
    edited io/csv.py: +1 -1              (no definition encloses the change)
    created io/json.py: +40
    deleted io/old.py: -12
    renamed io/old.py to io/new.py

Rules that keep the record small and the prompt's prefix cache warm (design.md §7):

- consecutive edits of the same place (same enclosing definitions, or within a few lines) merge
  into the newest record: its diff is recomputed from the text before the run of edits, so a user
  typing produces one record, and typing something then undoing it removes it;
- a state already recorded (the editor reported the change, then the user saved it, and the
  watcher reports it again) is not recorded twice;
- summaries carry no time and no line numbers, so the lines of older records never change; the
  record being typed into changes, which is why the assembler passes ``exclude`` (the cursor
  window, which the prompt shows anyway);
- at most ``max_entries`` records, each hunk at most ``max_hunk_bytes``; the same edits give
  the same text (``when`` is given by the caller, nothing here reads a clock);
- a file deleted takes its earlier records with it (their hunks showed code that is gone): its
  "deleted" record remains; edits an editor made and then threw away (a buffer closed unsaved)
  are dropped with :meth:`EditHistory.forget`.

Thread-safe: the watcher's thread writes while the server reads.
"""

from __future__ import annotations

import bisect
import enum
import hashlib
import itertools
import threading
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from daemon.symbols import Definition, FileSummary

#: (path, first line, last line), 0-based and inclusive: a region whose edits are left out.
Region = tuple[str, int, int]
#: One difflib opcode: (tag, old start, old end, new start, new end).
_Opcode = tuple[str, int, int, int, int]

#: Middles (after common head and tail are cut) larger than this (both sides' lines together)
#: are diffed as one replacement: difflib took 4.1 s on 9,600-line texts with every fourth line
#: changed (3,000 lines 0.41 s, 2,000 lines 0.18 s), and a record shows 1,200 bytes of hunk and
#: 3 names whatever its size
_MAX_DIFF_LINES = 6_000


MAX_REMOVED_RUN = 2  # removed lines a trimmed diff keeps in a row


@dataclass(frozen=True, slots=True)
class HistoryLimits:
    """Bounds of the edit history; the daemon builds them from its configuration."""

    max_entries: int = 64  # records kept, oldest dropped first
    max_hunk_bytes: int = 1_200  # one record's unified diff, trimmed at a line boundary
    context_lines: int = 1  # unchanged lines shown around each change in a hunk
    merge_gap_lines: int = 3  # edits this close to the newest record's lines merge into it
    merge_window_s: float = 300.0  # ... when they come at most this long after it
    max_names: int = 3  # definitions named in a summary line before "and N more"
    max_known_paths: int = 4_096  # paths whose last recorded state is remembered (dedupe)


class EditKind(enum.Enum):
    MODIFIED = "modified"
    CREATED = "created"
    DELETED = "deleted"
    RENAMED = "renamed"


@dataclass(frozen=True, slots=True)
class EditRecord:
    """One entry of the history (possibly several merged edits)."""

    path: str  # project-relative path (the new path of a rename)
    kind: EditKind
    source: str  # who reported the latest edit: "disk" (watcher) or "editor"
    names: tuple[str, ...]  # qualnames of the innermost definitions touched, in file order
    num_added: int  # lines added, against the text before the first merged edit
    num_removed: int  # lines removed, idem
    start_line: int  # first line touched, 0-based, in the text after the edit (-1: none)
    end_line: int  # last line touched, inclusive (-1: none)
    hunk: str  # unified diff, trimmed to HistoryLimits.max_hunk_bytes ("" for none)
    first_when: float  # time of the first merged edit (caller's clock, seconds)
    when: float  # time of the latest merged edit
    old_path: str = ""  # the former path of a rename

    @property
    def summary(self) -> str:
        """The one-line summary shown in prompts (no times, no line numbers)."""
        return _summary_line(self, max_names=3)

    def overlaps(self, region: Region) -> bool:
        """Whether this record touched lines inside ``region``."""
        path, start, end = region
        return (
            self.path == path
            and self.start_line >= 0
            and self.start_line <= end
            and self.end_line >= start
        )


class EditHistory:
    """The record of recent edits; see the module docstring for the rules."""

    def __init__(self, limits: HistoryLimits | None = None) -> None:
        self.limits = limits or HistoryLimits()
        self._lock = threading.Lock()
        self._entries: deque[EditRecord] = deque()  # oldest first
        self._base: tuple[str, list[str]] | None = None  # newest record's path and its text before
        self._known: OrderedDict[str, bytes] = OrderedDict()  # path -> digest of last new text

    # -- writing ------------------------------------------------------------------------

    def record_edit(
        self,
        path: str,
        old_text: str | None,
        new_text: str | None,
        *,
        source: str,
        summary: FileSummary | None,
        when: float,
    ) -> EditRecord | None:
        """Record that ``path`` changed from ``old_text`` to ``new_text``.

        ``old_text`` None means the file was created, ``new_text`` None that it was deleted.
        ``summary`` describes ``new_text`` (or is the latest one known; it only names the
        definitions touched). Called by the watcher for saved files and by the daemon for editor
        changes. Returns the record now holding this edit, or None when nothing is recorded (no
        change, a state already recorded, or an edit that undid the newest record).
        """
        if old_text == new_text:
            return None
        new_digest = _digest(new_text)
        old_lines = _lines(old_text)  # the diff outside the lock: readers do not wait for it
        new_lines = _lines(new_text)
        ops = _diff_opcodes(old_lines, new_lines)
        with self._lock:
            if new_digest is not None and self._known.get(path) == new_digest:
                return None
            self._remember(path, new_digest)
            newest = self._entries[-1] if self._entries else None
            if (
                newest is not None
                and self._base is not None
                and self._base[0] == path
                and new_text is not None
                and newest.kind in (EditKind.MODIFIED, EditKind.CREATED)
                and old_text is not None
                and 0 <= when - newest.when <= self.limits.merge_window_s
                and self._continues(newest, ops, summary)
            ):
                return self._merge(newest, new_lines, source=source, summary=summary, when=when)
            if old_text is None:
                kind = EditKind.CREATED
            elif new_text is None:
                kind = EditKind.DELETED
            else:
                kind = EditKind.MODIFIED
            record = self._build(path, kind, old_lines, new_lines, ops, source, summary, when, when)
            self._push(record, (path, old_lines) if new_text is not None else None)
            return record

    def record_file_event(
        self,
        kind: EditKind,
        path: str,
        *,
        source: str,
        when: float,
        old_path: str = "",
        num_lines: int = 0,
    ) -> EditRecord:
        """Record a file created, deleted or renamed whose text is not at hand.

        Called by the watcher for renames (``old_path`` set) and for files it has no text of;
        ``num_lines`` is the known line count of a created or deleted file (0 when unknown).
        """
        added = num_lines if kind is EditKind.CREATED else 0
        removed = num_lines if kind is EditKind.DELETED else 0
        record = EditRecord(
            path, kind, source, (), added, removed, -1, -1, "", when, when, old_path
        )
        with self._lock:
            self._known.pop(path, None)
            if old_path:
                self._known.pop(old_path, None)
            self._push(record, None)
        return record

    def forget(self, path: str, *, source: str | None = None) -> int:
        """Drop the records of ``path`` (only those ``source`` reported, when given): edits
        that never reached the disk. Returns how many went."""
        with self._lock:
            kept = [r for r in self._entries
                    if r.path != path or (source is not None and r.source != source)]
            removed = len(self._entries) - len(kept)
            if removed:
                self._entries = deque(kept)
                self._base = None  # the newest record may be gone: nothing merges into it
                self._known.pop(path, None)
            return removed

    def clear(self) -> None:
        """Forget every record (a new session, or the project closed)."""
        with self._lock:
            self._entries.clear()
            self._base = None
            self._known.clear()

    # -- reading --------------------------------------------------------------------------

    def entries(self) -> list[EditRecord]:
        """All records, newest first."""
        with self._lock:
            return list(reversed(self._entries))

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def summary_lines(self, *, limit: int, exclude: Region | None = None) -> list[str]:
        """At most ``limit`` summary lines, newest first, leaving out records that touched
        ``exclude`` (the cursor window the prompt already shows). Called per completion."""
        lines: list[str] = []
        for record in self._selected(exclude):
            if len(lines) >= limit:
                break
            lines.append(_summary_line(record, max_names=self.limits.max_names))
        return lines

    def latest_hunks(self, limit: int, *, exclude: Region | None = None) -> list[str]:
        """The unified diffs of the newest ``limit`` records that have one, newest first."""
        hunks: list[str] = []
        for record in self._selected(exclude):
            if len(hunks) >= limit:
                break
            if record.hunk:
                hunks.append(record.hunk)
        return hunks

    def _selected(self, exclude: Region | None) -> list[EditRecord]:
        with self._lock:
            records = list(reversed(self._entries))
        if exclude is None:
            return records
        return [r for r in records if not r.overlaps(exclude)]

    # -- internals (called with the lock held) ----------------------------------------------

    def _remember(self, path: str, digest: bytes | None) -> None:
        self._known.pop(path, None)
        if digest is not None:
            self._known[path] = digest
            while len(self._known) > self.limits.max_known_paths:
                self._known.popitem(last=False)

    def _push(self, record: EditRecord, base: tuple[str, list[str]] | None) -> None:
        if record.kind is EditKind.DELETED:  # the file is gone: so are the hunks of its code
            self._entries = deque(r for r in self._entries if r.path != record.path)
        self._entries.append(record)
        self._base = base
        while len(self._entries) > self.limits.max_entries:
            self._entries.popleft()

    def _continues(
        self, newest: EditRecord, ops: Sequence[_Opcode], summary: FileSummary | None
    ) -> bool:
        """Whether an edit (``ops`` against the newest record's text) continues that record."""
        changed = [op for op in ops if op[0] != "equal"]
        if not changed:
            return True
        names = _names_touched(changed, summary)
        if names and names == newest.names:
            return True
        # The edit's lines in the text before it are the newest record's lines after it.
        first = changed[0][1]
        last = max(changed[-1][2] - 1, changed[-1][1])
        gap = self.limits.merge_gap_lines
        return newest.start_line >= 0 and (
            first <= newest.end_line + gap and last >= newest.start_line - gap
        )

    def _merge(
        self,
        newest: EditRecord,
        new_lines: list[str],
        *,
        source: str,
        summary: FileSummary | None,
        when: float,
    ) -> EditRecord | None:
        assert self._base is not None
        path, base_lines = self._base
        ops = _diff_opcodes(base_lines, new_lines)
        self._entries.pop()
        if newest.kind is EditKind.MODIFIED and all(op[0] == "equal" for op in ops):
            self._base = None  # the run of edits undid itself
            return None
        record = self._build(
            path, newest.kind, base_lines, new_lines, ops, source, summary, newest.first_when, when
        )
        self._push(record, (path, base_lines))
        return record

    def _build(
        self,
        path: str,
        kind: EditKind,
        old_lines: list[str],
        new_lines: list[str],
        ops: Sequence[_Opcode],
        source: str,
        summary: FileSummary | None,
        first_when: float,
        when: float,
    ) -> EditRecord:
        changed = [op for op in ops if op[0] != "equal"]
        added = sum(j2 - j1 for _, _, _, j1, j2 in changed)
        removed = sum(i2 - i1 for _, i1, i2, _, _ in changed)
        if kind is EditKind.DELETED or not changed:
            start = end = -1
            names: tuple[str, ...] = ()
        else:
            start = changed[0][3]
            end = max(changed[-1][4] - 1, changed[-1][3])
            names = _names_touched(changed, summary)
        hunk = ""
        if kind is not EditKind.DELETED:
            hunk = _unified_diff(
                path,
                old_lines,
                new_lines,
                ops,
                created=kind is EditKind.CREATED,
                context=self.limits.context_lines,
                max_bytes=self.limits.max_hunk_bytes,
            )
        return EditRecord(
            path, kind, source, names, added, removed, start, end, hunk, first_when, when
        )


# -- pure helpers ---------------------------------------------------------------------------


def _digest(text: str | None) -> bytes | None:
    if text is None:
        return None
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _lines(text: str | None) -> list[str]:
    return [] if text is None else text.splitlines()


def _diff_opcodes(a: list[str], b: list[str]) -> list[_Opcode]:
    """difflib opcodes of ``a`` -> ``b``; the common head and tail are cut off first, so a
    keystroke in a 10,000-line file costs a line comparison, not a diff of the whole file."""
    limit = min(len(a), len(b))
    head = 0
    while head < limit and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < limit - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    a_mid, b_mid = a[head : len(a) - tail], b[head : len(b) - tail]
    ops: list[_Opcode] = []
    if head:
        ops.append(("equal", 0, head, 0, head))
    if a_mid or b_mid:
        if len(a_mid) + len(b_mid) > _MAX_DIFF_LINES or not a_mid or not b_mid:
            tag = "replace" if a_mid and b_mid else ("delete" if a_mid else "insert")
            mid: list[_Opcode] = [(tag, 0, len(a_mid), 0, len(b_mid))]
        else:
            mid = list(SequenceMatcher(None, a_mid, b_mid).get_opcodes())
        for tag, i1, i2, j1, j2 in mid:
            ops.append((tag, i1 + head, i2 + head, j1 + head, j2 + head))
    if tail:
        ops.append(("equal", len(a) - tail, len(a), len(b) - tail, len(b)))
    return ops


def _names_touched(changed: Sequence[_Opcode], summary: FileSummary | None) -> tuple[str, ...]:
    """Qualnames of the innermost definitions whose lines the changes touch, in file order.

    n log n in the definitions (a reformatted 12,000-function file took 56 s when every pair
    of touched definitions was compared for nesting, holding the history's lock)."""
    if summary is None or not summary.definitions:
        return ()
    spans = []
    for _, _, _, j1, j2 in changed:
        # A pure deletion touches the line just before the deletion point.
        spans.append((j1, j2 - 1) if j2 > j1 else (max(j1 - 1, 0), max(j1 - 1, 0)))
    spans.sort()
    # the highest last line of the spans up to each one: does any span starting at or before
    # a definition's last line reach its first line?
    reach = list(itertools.accumulate((hi for _, hi in spans), max))
    starts = [lo for lo, _ in spans]

    def touched(d: Definition) -> bool:
        i = bisect.bisect_right(starts, d.end_line)
        return i > 0 and reach[i - 1] >= d.start_line

    hit = sorted(
        (d for d in summary.definitions if touched(d)), key=lambda d: (d.start_line, -d.end_line)
    )
    leaves = []
    for k, d in enumerate(hit):
        # a definition is no leaf when another touched one lies strictly inside it; those start
        # after it in this order, and before its last line
        j = k + 1
        while j < len(hit) and hit[j].start_line <= d.end_line:
            o = hit[j]
            if o.end_line <= d.end_line and (o.start_line, o.end_line) != (
                d.start_line,
                d.end_line,
            ):
                break
            j += 1
        else:
            leaves.append(d)
    leaves.sort(key=lambda d: (d.start_line, d.end_line, d.qualname))
    return tuple(dict.fromkeys(d.qualname for d in leaves))


def _summary_line(record: EditRecord, *, max_names: int) -> str:
    counts = f"+{record.num_added} -{record.num_removed}"
    if record.kind is EditKind.CREATED:
        return f"created {record.path}: +{record.num_added}"
    if record.kind is EditKind.DELETED:
        if record.num_removed:
            return f"deleted {record.path}: -{record.num_removed}"
        return f"deleted {record.path}"
    if record.kind is EditKind.RENAMED:
        return f"renamed {record.old_path} to {record.path}"
    if not record.names:
        return f"edited {record.path}: {counts}"
    shown = ", ".join(f"`{name}`" for name in record.names[:max_names])
    more = len(record.names) - max_names
    if more > 0:
        shown += f" and {more} more"
    return f"edited {shown} in {record.path}: {counts}"


def _grouped(ops: Sequence[_Opcode], n: int) -> list[list[_Opcode]]:
    """difflib.SequenceMatcher.get_grouped_opcodes, on ready-made opcodes."""
    codes = list(ops)
    if not codes or all(op[0] == "equal" for op in codes):
        return []
    if codes[0][0] == "equal":
        tag, i1, i2, j1, j2 = codes[0]
        codes[0] = (tag, max(i1, i2 - n), i2, max(j1, j2 - n), j2)
    if codes[-1][0] == "equal":
        tag, i1, i2, j1, j2 = codes[-1]
        codes[-1] = (tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n))
    groups: list[list[_Opcode]] = []
    group: list[_Opcode] = []
    for tag, i1, i2, j1, j2 in codes:
        if tag == "equal" and i2 - i1 > 2 * n:
            group.append((tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n)))
            groups.append(group)
            group = []
            i1, j1 = max(i1, i2 - n), max(j1, j2 - n)
        group.append((tag, i1, i2, j1, j2))
    if group and not (len(group) == 1 and group[0][0] == "equal"):
        groups.append(group)
    return groups


def _range(start: int, stop: int) -> str:
    length = stop - start
    beginning = start + 1
    if length == 1:
        return str(beginning)
    if not length:
        beginning -= 1
    return f"{beginning},{length}"


def _unified_diff(
    path: str,
    a: list[str],
    b: list[str],
    ops: Sequence[_Opcode],
    *,
    created: bool,
    context: int,
    max_bytes: int,
) -> str:
    """A unified diff of ``a`` -> ``b``, cut at a line boundary to at most ``max_bytes``."""
    out = [f"--- {'/dev/null' if created else 'a/' + path}", f"+++ b/{path}"]
    for group in _grouped(ops, context):
        first, last = group[0], group[-1]
        out.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out.extend(" " + line for line in a[i1:i2])
                continue
            if tag in ("replace", "delete"):
                out.extend("-" + line for line in a[i1:i2])
            if tag in ("replace", "insert"):
                out.extend("+" + line for line in b[j1:j2])
    return _trim(_removed_runs_marked(out) if _size(out) > max_bytes else out, max_bytes)


def _size(lines: Sequence[str]) -> int:
    return sum(len(line.encode("utf-8", "surrogatepass")) + 1 for line in lines)


def _removed_runs_marked(lines: list[str]) -> list[str]:
    """A diff too long to keep whole with each run of more than ``MAX_REMOVED_RUN`` removed
    lines as one marker line, when it adds lines: a block rewritten whole would otherwise keep
    only its old text. Shorter runs stay in the stored diff (the prompt shows no removed lines:
    ``daemon.context.candidates.without_removed``)."""
    head, body = lines[:2], lines[2:]  # the ---/+++ file lines, then the hunks
    if not any(ln.startswith("+") for ln in body):
        return lines
    out: list[str] = list(head)
    run: list[str] = []
    for line in [*body, ""]:
        if line.startswith("-"):
            run.append(line)
            continue
        if len(run) > MAX_REMOVED_RUN:
            out.append(f"... ({len(run)} removed lines)")
        else:
            out.extend(run)
        run = []
        out.append(line)
    return out[:-1]


def _trim(lines: list[str], max_bytes: int) -> str:
    """Join ``lines`` with newlines, keeping whole lines while the result fits ``max_bytes``."""
    kept: list[str] = []
    used = 0
    for index, line in enumerate(lines):
        size = len(line.encode("utf-8", "surrogatepass")) + 1
        marker = f"... ({len(lines) - index} more lines)\n"
        if used + size + (len(marker) if index < len(lines) - 1 else 0) > max_bytes:
            if used + len(marker) <= max_bytes:
                kept.append(marker.rstrip("\n"))
            break
        kept.append(line)
        used += size
    return "\n".join(kept) + "\n" if kept else ""


__all__ = ["EditHistory", "EditKind", "EditRecord", "HistoryLimits", "Region"]

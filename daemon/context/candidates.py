"""Candidate segments for one completion point, stage by stage (pure).

``CandidateBuilder`` holds what one request needs (the document split at the cursor, its stable
summary, the index snapshot, the token counter, shares) and offers one method per source of
context; ``assemble.assemble_context`` calls them in order and fits the result to the budget.
Each method returns candidates with their tier, share group, admission rank and prompt order.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from app.config import ContextConfig
from daemon.context.budget import MAX_CHARS_PER_TOKEN, UNCOUNTED, Candidate, count_within
from daemon.context.retrieve import (
    RelatedDefinition,
    identifiers_in_order,
    related_definitions,
    similar_windows,
)
from daemon.context.types import Kind, Role, Segment, Tier
from daemon.context.window import (
    CursorParts,
    enclosing_definitions,
    head_end,
    suffix_cap,
    suffix_lines,
    suffix_text,
    window_start,
)
from daemon.index import IndexSnapshot
from daemon.languages import LANGUAGES, comment_leader
from daemon.skeleton import Outline, decorator_lines, fit_head, render_definition
from daemon.symbols import Definition, DefKind, FileSummary
from engine.base import TokenCounter

FORMAT_OVERHEAD = 8  # FIM markers and repository header tokens the prompt format adds
SNIPPET_OVERHEAD = 3  # file separator and newline around each cross-file snippet
# plus one token per snippet line: formats without a repository layout comment each line out
BOUNDARY_SLACK = 1  # a token of slack where two current-file segments meet
# prompt order of a stable layout's enclosing class headers: after the file block (0.5), before
# the cross-file snippets (1 and up)
STABLE_CLASS_ORDER = 0.75
WIDER_RANK = 3000.0  # related definitions a widened window adds rank after the first pass's
CURSOR_LINE_SLACK = 24  # the cursor line is reserved in steps of this many tokens (typing room)

# The order history candidates are admitted in, by their place in the prompt: the newest hunk
# first (the edit itself predicts the next one; the summary line only names it), then the
# summary, then the older hunk. History points at 256: exact match 21.6% -> 22.5%.
_HISTORY_ADMISSION: dict[int, float] = {1: 0.0, 0: 1.0, 2: 2.0}
# An edit hunk too long for the budget left gets a shorter form: its file line and its added
# lines, cut to this many times the history share (history points at 256: exact match 23.4% ->
# 24.4%, accepted share 15.1% -> 16.1%; 2x and 4x did less, and keeping the removed lines too
# lost 1 point).
HUNK_FALLBACK_SHARES = 3


def without_removed(hunk: str) -> str:
    """A unified diff ``hunk`` without its removed lines (the ``---`` file line stays): the code
    as the edit left it, with its added lines marked. The model copied removed lines back (a
    reverted ``errors.Is(err, ErrHelp)`` came again). History points at 256: exact match 24.4%
    -> 26.9%, accepted share 16.1% -> 16.8% (10 gained, 2 lost); without the ``---`` line too
    25.9%."""
    lines = hunk.splitlines(keepends=True)
    head = lines[:1] if lines and lines[0].startswith("--- ") else []  # the file line, by place
    return "".join([*head, *(ln for ln in lines[len(head) :] if ln[:1] != "-")])


def added_lines(hunk: str, cap: int, counter: TokenCounter) -> str:
    """A unified diff ``hunk`` as its ``+++`` file line and its added lines, from the first,
    as many as fit ``cap`` tokens; "" when not one added line fits. The file lines are the
    first two by place: an added ``++ i`` reads ``+++ i`` too."""
    lines = hunk.splitlines(keepends=True)
    n_head = _file_lines(lines)
    out = lines[1:n_head]
    added = 0
    for ln in lines[n_head:]:
        if ln[:1] != "+":
            continue
        if counter.count("".join([*out, ln])) > cap:
            break
        out.append(ln)
        added += 1
    return "".join(out) if added else ""


def added_names(hunk: str) -> set[str]:
    """The identifiers on the added lines of a unified diff ``hunk`` (its file lines aside)."""
    lines = hunk.splitlines(keepends=True)
    added = (ln[1:] for ln in lines[_file_lines(lines) :] if ln[:1] == "+")
    return set(identifiers_in_order("".join(added)))


def _file_lines(lines: Sequence[str]) -> int:
    """How many of a diff's first lines are its ``---``/``+++`` file lines: 2 or 0, by place."""
    return 2 if len(lines) > 1 and lines[0].startswith("--- ") else 0


class HistorySource(Protocol):
    """What the assembler needs of the edit history (daemon.history.EditHistory)."""

    def summary_lines(
        self, *, limit: int, exclude: tuple[str, int, int] | None = None
    ) -> list[str]: ...

    def latest_hunks(
        self, limit: int, *, exclude: tuple[str, int, int] | None = None
    ) -> list[str]: ...


@dataclass(frozen=True, slots=True)
class Window:
    """Where the current file is shown in full: the window and the suffix."""

    start: int  # first line of the cursor window (0-based)
    suffix_end: int  # last line of the suffix (inclusive)
    # first line the window shows: the start, or the first line of the outermost string or
    # bracketed expression the start is inside (its opening line, shown above the window)
    shown_from: int
    text: str  # window text up to the cursor
    candidates: tuple[Candidate, ...]


@dataclass(frozen=True, slots=True)
class Enclosing:
    """Enclosing definitions above the window and the first line shown (window or them)."""

    definitions: tuple[Definition, ...]  # outermost first
    covered_from: int
    candidates: tuple[Candidate, ...]


@dataclass(slots=True)
class CandidateBuilder:
    path: str
    language: str
    parts: CursorParts
    summary: FileSummary
    index: IndexSnapshot | None
    counter: TokenCounter
    config: ContextConfig
    allow: dict[str, int]
    budget: int  # the whole prompt's budget (the suffix's cap is a share of it)
    # stable layout: cross-file snippets go into the prefix as comments, after the file block
    inline_snippets: bool = False
    # outlines by the classes they expand: one request's builders share them
    outlines: dict[frozenset[str], Outline] = field(default_factory=dict)
    _related: list[RelatedDefinition] | None = None
    _related_from: int = 0  # the first line of the window they were chosen from

    # -- helpers ---------------------------------------------------------------------------------
    def counted(
        self, kind: Kind, tier: Tier, role: Role, source: str, text: str, overhead: int = 0
    ) -> Segment:
        return Segment(kind, tier, role, source, text, self.counter.count(text) + overhead)

    @staticmethod
    def lazy(kind: Kind, tier: Tier, role: Role, source: str, text: str) -> Segment:
        return Segment(kind, tier, role, source, text, UNCOUNTED)

    def span(self, start: int, end: int) -> str:
        """0-based [start, end) as "path:a-b" with 1-based lines."""
        return f"{self.path}:{start + 1}-{max(start + 1, end)}"

    def snippet_overhead(self, path: str, text: str) -> int:
        """Tokens a snippet costs beyond its text: header, separators, a comment mark per line."""
        return self.counter.count(path) + SNIPPET_OVERHEAD + text.count("\n") + 1

    def snippet(
        self, kind: Kind, tier: Tier, path: str, source: str, text: str, *, exact: bool = False
    ) -> tuple[Segment, int]:
        """A cross-file snippet and the overhead to add when it is counted: a SNIPPET for the
        prompt format to place, or (``inline_snippets``) PREFIX text commented out."""
        if self.inline_snippets:
            body = commented(path, text, self.language)
            if exact:
                return self.counted(kind, tier, Role.PREFIX, source, body, BOUNDARY_SLACK), 0
            return self.lazy(kind, tier, Role.PREFIX, source, body), BOUNDARY_SLACK
        overhead = self.snippet_overhead(path, text)
        if exact:
            return self.counted(kind, tier, Role.SNIPPET, source, text, overhead), 0
        return self.lazy(kind, tier, Role.SNIPPET, source, text), overhead

    @staticmethod
    def instructions() -> Candidate:
        segment = Segment(
            Kind.INSTRUCTIONS, Tier.FIXED, Role.SNIPPET, "format", "", FORMAT_OVERHEAD
        )
        return Candidate(segment, "instructions", 0, (0,))

    # -- stages ----------------------------------------------------------------------------------
    def window(self, cursor_allow: int, lines_before: int, *, whole: bool = False) -> Window:
        """The anchored cursor window and the short suffix (P0, cursor share); ``whole``: the
        suffix is the rest of the file (the caller checked that the file fits)."""
        parts, lines, line = self.parts, self.parts.lines, self.parts.line
        n_suffix = (
            len(lines) - line - 1
            if whole
            else suffix_lines(
                parts,
                self.config.suffix_max_lines,
                suffix_cap(self.budget, self.config.suffix_share),
                self.counter,
            )
        )
        # a huge line (minified code) is not tokenized: counts over the budget are bounds
        budget, counter = self.budget, self.counter
        suffix_body = suffix_text(parts, n_suffix)
        suffix = Segment(
            Kind.SUFFIX,
            Tier.P0,
            Role.SUFFIX,
            self.span(line, line + 1 + n_suffix),
            suffix_body,
            count_within(counter, suffix_body, budget) + BOUNDARY_SLACK,
        )
        line_reserve = _quantized(count_within(counter, lines[line], budget), CURSOR_LINE_SLACK)
        start = window_start(
            parts,
            lines_before=lines_before,
            anchor=self.config.anchor_lines,
            allowance=cursor_allow,
            counter=self.counter,
            reserve=line_reserve + suffix.num_tokens,
            spans_at=self.summary.spans_continued_at,
            block_end=spec.block_end if (spec := LANGUAGES.get(self.language)) else "",
        )
        line_prefix = _fit_line_prefix(parts.line_prefix, self.counter, max(16, cursor_allow // 2))
        # a window inside a long literal or string that holds the cursor starts with the lines
        # that open them (``x = {``, ``s = """``): the model sees what it is inside
        openers = sorted({first for first, _ in self.summary.spans_continued_at(start)})
        above = "".join(lines[i] for i in openers) + "".join(lines[start:line])
        text = above + line_prefix
        # charged what the whole cursor line plus some typing would cost, not what is typed so
        # far: then no other choice moves while the user types (the prompt prefix holds)
        charged = max(
            count_within(counter, text, budget), count_within(counter, above, budget) + line_reserve
        )
        window = Segment(
            Kind.CURSOR_WINDOW,
            Tier.P0,
            Role.PREFIX,
            self.span(start, line + 1),
            text,
            charged + BOUNDARY_SLACK,
        )
        return Window(
            start=start,
            shown_from=openers[0] if openers else start,
            suffix_end=line + n_suffix,
            text=text,
            candidates=(
                Candidate(window, "cursor", 0, (50,)),
                Candidate(suffix, "cursor", 1, (60,)),
            ),
        )

    def enclosing(self, start: int) -> Enclosing:
        """Headers of enclosing definitions above the window (P0); the innermost function's
        body above the window (P1), trimmed from the top behind an elision marker."""
        lines, line = self.parts.lines, self.parts.line
        around = enclosing_definitions(self.summary, line, lines, self.parts.column)
        outer = [d for d in around if d.start_line < start]
        cands: list[Candidate] = []
        covered_from = start
        limit = self.allow["enclosing"]
        # stable layout: the classes around the cursor (outermost, up to the first function)
        # go before the cross-file snippets, which change with every cursor position: a move
        # within a class then keeps its header's KV cache
        classes = len(outer) if self.inline_snippets else 0
        for depth, d in enumerate(outer):
            header_end = min(max(d.body_start_line, d.start_line + 1), start)
            header = "".join(lines[d.start_line : header_end])
            if d.kind is DefKind.CLASS:  # doc line and attributes: cheap, names the model needs
                header += _class_notes(d, self.language, _member_indent(header, lines, d))
            else:
                classes = min(classes, depth)
            cands.append(
                Candidate(
                    self.counted(
                        Kind.ENCLOSING,
                        Tier.P0,
                        Role.PREFIX,
                        self.span(d.start_line, header_end),
                        header,
                        BOUNDARY_SLACK,
                    ),
                    "enclosing",
                    depth,
                    (STABLE_CLASS_ORDER if depth < classes else 30, depth * 2),
                )
            )
            covered_from = min(covered_from, d.start_line)
            if depth < len(outer) - 1 or d.kind is DefKind.CLASS or header_end >= start:
                continue
            body_lines = lines[header_end:start]
            cut = 0
            body = self.counted(
                Kind.ENCLOSING,
                Tier.P1,
                Role.PREFIX,
                self.span(header_end, start),
                "".join(body_lines),
                BOUNDARY_SLACK,
            )
            marker = f"{_indent_of(body_lines)}{comment_leader(self.language)} …\n"
            while cut < len(body_lines) and body.num_tokens > limit:
                cut += max(1, self.config.anchor_lines // 2)
                span = self.summary.prose_span_at(header_end + cut)
                if span is not None:  # never cut inside a docstring: past its end
                    cut = min(len(body_lines), span[1] + 1 - header_end)
                body = self.counted(
                    Kind.ENCLOSING,
                    Tier.P1,
                    Role.PREFIX,
                    self.span(header_end + cut, start),
                    marker + "".join(body_lines[cut:]),
                    BOUNDARY_SLACK,
                )
            cands.append(Candidate(body, "enclosing", 10, (40,)))
        return Enclosing(tuple(outer), covered_from, tuple(cands))

    def current_file(self, window: Window, enclosing: Enclosing) -> list[Candidate]:
        """The head (imports, P1) and the rest of the file outside what is shown in full: a
        skeleton per definition (upgradable to its full text) and module-level code (P2)."""
        lines, line = self.parts.lines, self.parts.line
        cands: list[Candidate] = []
        head_stop = min(head_end(self.summary, lines), enclosing.covered_from)
        if head_stop > 0:
            cands.append(
                Candidate(
                    self.counted(
                        Kind.FILE_HEAD,
                        Tier.P1,
                        Role.PREFIX,
                        self.span(0, head_stop),
                        "".join(lines[:head_stop]),
                        BOUNDARY_SLACK,
                    ),
                    "related",
                    0,
                    (10, 0),
                )
            )
        names = {d.qualname for d in enclosing.definitions}
        words = set(identifiers_in_order(window.text))
        outline = self.outline(frozenset(names))
        lo, hi = 0, len(lines)  # where module-level code is looked at
        considered: Sequence[int] = range(len(outline))
        if len(outline) > 2 * self.budget:
            lo, hi, considered = _around(outline, line, self.budget, words, len(lines))
        scale = max(1, len(lines))
        # (outline entry, definition, member of an expanded class, tier, rank): fit_budget
        # admits by tier, then rank
        entries: list[tuple[int, Definition, bool, Tier, float]] = []
        shown: list[tuple[int, int]] = []  # line ranges of those entries
        for i in considered:
            d = outline.definitions[i]
            if d.qualname in names or d.start_line < head_stop:
                continue
            if d.end_line >= enclosing.covered_from and d.start_line <= window.suffix_end:
                continue  # overlaps what is shown in full
            used = d.name in words
            member = d.parent in names
            tier = Tier.P1 if used or member or d.kind is DefKind.CLASS else Tier.P2
            rank = 1 + abs(d.start_line - line) / scale + (0 if used else 1)
            entries.append((i, d, member, tier, rank))
            shown.append((d.start_line, d.end_line))
        prose_at = self.summary.prose_span_at
        outside = [
            i
            for i in _lines_outside(shown, max(head_stop, lo), hi)
            if not enclosing.covered_from <= i <= window.suffix_end
            and (lines[i].strip() or prose_at(i))
        ]
        runs = _runs(outside, self.config.anchor_lines, prose_at)
        # only the first ``budget`` in admission order are made: each costs a token at least,
        # so in a huge file the rest cannot be reached
        keys = [(tier, rank) for *_, tier, rank in entries]
        keys.extend((Tier.P2, 3 + abs(run[0] - line) / scale) for run in runs)
        chosen = _first(keys, self.budget)
        for n, (i, d, member, tier, rank) in enumerate(entries):
            if n not in chosen:
                continue
            order = (
                (30, _position(enclosing.definitions, d.parent) * 2 + 1, d.start_line)
                if member
                else (20, d.start_line)
            )
            kind = Kind.FILE_TAIL if d.start_line > window.suffix_end else Kind.FILE_SUMMARY
            source = self.span(d.start_line, d.end_line + 1)
            text = outline.text(i)
            full = "".join(lines[d.start_line : d.end_line + 1])
            cands.append(
                Candidate(
                    self.lazy(kind, tier, Role.PREFIX, source, text),
                    "related",
                    rank,
                    order,
                    upgrade=self.lazy(kind, tier, Role.PREFIX, source, full)
                    if full != text
                    else None,
                    upgrade_overhead=BOUNDARY_SLACK,
                )
            )
        for n, run in enumerate(runs, start=len(entries)):
            if n not in chosen:
                continue
            kind = Kind.FILE_TAIL if run[0] > window.suffix_end else Kind.FILE_SUMMARY
            cands.append(
                Candidate(
                    self.lazy(
                        kind,
                        Tier.P2,
                        Role.PREFIX,
                        self.span(run[0], run[-1] + 1),
                        "".join(lines[run[0] : run[-1] + 1]),
                    ),
                    "related",
                    keys[n][1],
                    (20, run[0]),
                    overhead=BOUNDARY_SLACK,
                )
            )
        return cands

    def related(self, window: Window, enclosing: Enclosing) -> list[Candidate]:
        """Definitions from other files of identifiers used above the cursor line: P0 for the
        three lines nearest the cursor while they fit the related share, else P1."""
        if self.index is None:
            return []
        lines, line = self.parts.lines, self.parts.line
        if self._related is None or window.start < self._related_from:
            headers = "".join(c.segment.text for c in enclosing.candidates)
            near = "".join(lines[max(window.start, line - 3) : line])
            found = related_definitions(
                self.index, self.summary, headers + "".join(lines[window.start : line]), near
            )
            if self._related is not None:
                # a widened pass keeps the first pass's choice, and adds after it what the
                # lines the wider window shows name (a type used at the top of the file, in the
                # first window's outline only: hono's ``Context``). The whole wider window is
                # resolved again, not only its new lines: a name the first window binds stays
                # no related definition there
                known = {(r.path, r.definition.qualname) for r in self._related}
                found = self._related + [
                    replace(r, rank=WIDER_RANK + r.rank, at_cursor=False)
                    for r in found
                    if (r.path, r.definition.qualname) not in known
                ]
            self._related, self._related_from = found, window.start
        room = self.allow["related"]
        cands: list[Candidate] = []
        for rel in self._related:
            d = rel.definition
            source = f"{rel.path}:{d.start_line + 1}-{d.end_line + 1}"
            seg, overhead = self.snippet(Kind.RELATED, Tier.P1, rel.path, source, rel.text)
            if rel.at_cursor and len(rel.text) < room * MAX_CHARS_PER_TOKEN:
                exact, _ = self.snippet(
                    Kind.RELATED, Tier.P0, rel.path, source, rel.text, exact=True
                )
                if exact.num_tokens <= room:
                    seg, overhead = exact, 0
                    room -= exact.num_tokens
            fallback, fallback_overhead = None, 0
            if rel.compact:
                fallback, fallback_overhead = self.snippet(
                    Kind.RELATED, Tier.P1, rel.path, source, rel.compact
                )
            # a class's skeleton shows its members: those of them related too come once
            members = [m for m in self._related if m.definition.parent == d.qualname] if (
                d.kind is DefKind.CLASS) else []
            cands.append(
                Candidate(
                    seg, "related", 2 + rel.rank, (3, rel.rank, d.start_line), overhead=overhead,
                    fallback=fallback, fallback_overhead=fallback_overhead, key=_key(rel),
                    covers=_shown_in(rel.text, members),
                    fallback_covers=_shown_in(rel.compact, members),
                )
            )
        return cands

    def retrieved(self, window: Window, recent: Sequence[tuple[str, str]]) -> list[Candidate]:
        """Windows of recently edited/opened files similar to the lines above the cursor."""
        query = "".join(self.parts.lines[window.start : self.parts.line])
        others = [(p, t) for p, t in recent if p != self.path]
        cands: list[Candidate] = []
        for i, w in enumerate(similar_windows(query, others)):
            source = f"{w.path}:{w.start_line + 1}-{w.end_line}"
            seg, overhead = self.snippet(Kind.RETRIEVED, Tier.P2, w.path, source, w.text)
            cands.append(Candidate(seg, "retrieval", i, (4, i), overhead=overhead))
        return cands

    def history(self, window: Window, history: HistorySource | None) -> list[Candidate]:
        """Edit-history summary and latest hunks, edits inside the window left out: P2, and P1
        for a hunk whose added lines name what the cursor's line or the line above uses (the
        file's own definitions aside: ``f.addedGoFlagSets`` where the edit added that field
        elsewhere). History points at 256: exact match 26.9% -> 27.5%, compile-pass 79.4% ->
        80.9%, accepted share 16.8% either way; with the three lines above too 27.5%, share
        16.6% (16.5% with the file's own definitions counted too)."""
        if history is None:
            return []
        exclude = (self.path, window.start, window.suffix_end)
        cands: list[Candidate] = []
        entries = history.summary_lines(limit=8, exclude=exclude)
        texts: list[tuple[str, str, bool]] = []  # source, text, whether a hunk
        if entries:
            # plain text: the prompt format comments snippets without a file out
            summary = "Recent edits:\n" + "".join(f"- {e}\n" for e in entries)
            texts.append(("edit history", summary, False))
        for i, hunk in enumerate(history.latest_hunks(2, exclude=exclude)):
            texts.append((f"edit hunk {i + 1}", without_removed(hunk), True))
        cap = self.allow.get("history", 0) * HUNK_FALLBACK_SHARES
        lines, line = self.parts.lines, self.parts.line
        at_cursor = "".join(lines[max(window.start, line - 1) : line + 1])
        cursor_names = set(identifiers_in_order(at_cursor))
        cursor_names -= {d.name for d in self.summary.definitions}
        for i, (source, text, is_hunk) in enumerate(texts):
            tier = Tier.P1 if is_hunk and cursor_names & added_names(text) else Tier.P2
            seg, _ = self.snippet(Kind.HISTORY, tier, "", source, text, exact=True)
            place = i if entries else i + 1  # in the prompt: summary 0, newest hunk 1, next 2
            admit = _HISTORY_ADMISSION.get(place, place)
            fallback = None
            if is_hunk and seg.num_tokens > cap > 0:
                # too long for what is usually left: its added lines may still fit
                # (two tokens under it: the commented segment's slack)
                short = added_lines(text, cap - 2, self.counter)
                if short:
                    fallback, _ = self.snippet(Kind.HISTORY, tier, "", source, short, exact=True)
            cands.append(Candidate(seg, "history", admit, (1, place), fallback=fallback))
        return cands

    def file_block(self, allowance: int, head_stop: int) -> Candidate | None:
        """Stable layout: the file's head and the skeleton of its definitions in file order,
        cut to ``allowance`` tokens by whole entries (first fit), closed by an elision marker.

        Nothing in it depends on the cursor (the summary leaves the cursor line out; the head is
        left out only while the cursor is in it), so it is the same text for every cursor
        position in a file version and the engine's KV cache keeps it across cursor moves. No
        definition is shown in full here: the one holding the cursor would differ (its cursor
        line is left out) from what another cursor position shows. ``head_stop``: the end of
        the file's head (``window.head_end``, found once a request: the assembler uses it too).
        """
        lines, line = self.parts.lines, self.parts.line
        marker = f"{comment_leader(self.language)} …\n"
        room = allowance - BOUNDARY_SLACK - self.counter.count(marker)
        if line < head_stop:  # typing in the head (``head_end``): the window shows it
            head_stop = 0
        head = fit_head(lines[:head_stop], self.language, self.counter, room // 2)
        if head.strip() and not head.endswith("\n\n"):
            head = head.rstrip("\n") + "\n\n"  # a blank line before the outline
        pieces = [head] if head.strip() else []
        used = self.counter.count(pieces[0]) if pieces else 0
        classes = frozenset(d.qualname for d in self.summary.definitions if d.kind is DefKind.CLASS)
        entries: list[tuple[Definition, str, int]] = []  # chosen skeletons and their counts
        included: set[str] = set()
        outline = self.outline(classes)
        tried = 0
        for i, d in enumerate(outline.definitions):
            if d.start_line < head_stop or (d.parent and d.parent not in included):
                continue
            tried += 1
            if used >= room or tried > self.budget:
                # full (an entry costs a token at least), or a huge file: its rest is left out
                break
            text = outline.text(i)
            if len(text) > (room - used) * MAX_CHARS_PER_TOKEN:
                continue
            n = self.counter.count(text)
            if used + n > room:
                continue
            entries.append((d, text, n))
            used += n
            included.add(d.qualname)
        pieces.extend(text for _, text, _ in entries)
        if not pieces:
            return None
        segment = self.counted(
            Kind.FILE_SUMMARY,
            Tier.P1,
            Role.PREFIX,
            f"{self.path}:outline",
            "".join(pieces) + marker,
            BOUNDARY_SLACK,
        )
        while segment.num_tokens > allowance and len(pieces) > 1:  # merges counted apart
            pieces.pop()
            segment = self.counted(
                Kind.FILE_SUMMARY,
                Tier.P1,
                Role.PREFIX,
                segment.source,
                "".join(pieces) + marker,
                BOUNDARY_SLACK,
            )
        if segment.num_tokens > allowance:
            return None
        return Candidate(segment, "related", 0, (0.5,))

    def outline(self, expand: frozenset[str]) -> Outline:
        """The file's outline with the classes in ``expand`` expanded (made once per request:
        ``outlines`` is shared by the request's builders)."""
        outline = self.outlines.get(expand)
        if outline is None:
            outline = Outline(self.summary, index=self.index, expand=expand)
            self.outlines[expand] = outline
        return outline


def _position(definitions: Sequence[Definition], qualname: str) -> int:
    for i, d in enumerate(definitions):
        if d.qualname == qualname:
            return i
    return 0


def _quantized(n: int, step: int) -> int:
    """``n`` rounded up to the next multiple of ``step`` above it (a reservation with room)."""
    return (n // step + 1) * step


def _around(
    outline: Outline, line: int, n: int, words: set[str], num_lines: int
) -> tuple[int, int, list[int]]:
    """A huge file's outline entries worth a candidate, in file order: the ``n`` starting
    nearest above ``line`` and the ``n`` nearest below it, which lie in lines [lo, hi), and of
    the entries named by ``words`` (P1 wherever they are) the ``n`` nearest on each side of
    those lines. Returns (lo, hi, entries): ``_first`` keeps ``n`` of them in any case."""
    starts = outline.starts
    at = bisect.bisect_left(starts, line)
    lo = starts[at - n] if at > n else 0
    hi = starts[at + n] if at + n < len(starts) else num_lines
    definitions = outline.definitions
    chosen = {i for i, d in enumerate(definitions) if lo <= d.start_line < hi}
    for word in words:
        named = outline.named(word)
        below = bisect.bisect_left(named, lo, key=lambda i: definitions[i].start_line)
        above = bisect.bisect_left(named, hi, key=lambda i: definitions[i].start_line)
        chosen.update(named[max(0, below - n) : below], named[above : above + n])
    return lo, hi, sorted(chosen)


def _first(keys: Sequence[tuple[Tier, float]], n: int) -> set[int]:
    """Positions of the ``n`` smallest ``keys``, ties in order (as a stable sort takes them)."""
    if len(keys) <= n:
        return set(range(len(keys)))
    return set(heapq.nsmallest(n, range(len(keys)), key=keys.__getitem__))


def _lines_outside(spans: Sequence[tuple[int, int]], start: int, end: int) -> Iterator[int]:
    """Lines of [``start``, ``end``) outside every (first, last) span, in order: work for the
    lines between definitions only, not for every line of the file."""
    at = start
    for first, last in sorted(spans):
        if first > at:
            yield from range(at, min(first, end))
        at = max(at, last + 1)
    yield from range(at, end)


def _runs(
    numbers: Sequence[int],
    max_len: int,
    prose_at: Callable[[int], tuple[int, int] | None] = lambda n: None,
) -> list[list[int]]:
    """Split sorted line numbers into runs of consecutive lines, at most ``max_len`` long, but
    never inside a multi-line string or comment (``prose_at``): a run holds one whole or none
    of it (an open quote would turn the code after it into prose for the model)."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1 and (len(runs[-1]) < max_len or prose_at(n)):
            runs[-1].append(n)
        else:
            runs.append([n])
    whole: list[list[int]] = []
    for run in runs:
        span = prose_at(run[0])
        if span is not None:  # starts inside one: its rest is left out
            run = [n for n in run if n > span[1]]
        span = prose_at(run[-1] + 1) if run else None
        if span is not None:  # ends inside one (the next line continues it): it is left out
            run = [n for n in run if n < span[0]]
        if run:
            whole.append(run)
    return whole


def _class_notes(d: Definition, language: str, indent: str) -> str:
    """Doc line and attribute names of an enclosing class, rendered as in a skeleton."""
    rendered = render_definition(d, language)
    # the signature line is the header's own (first in Python, last below the doc comment in
    # the brace languages); the notes go into the body
    header = set(decorator_lines(d.signature))  # Python decorators stand on their own lines
    notes = [n for n in rendered.splitlines(keepends=True)
             if not n.startswith(d.signature) and n.strip() not in header]
    kept = [n for n in notes if n.strip() not in ("...", "{ … }")]
    return "".join(indent + n.lstrip() for n in kept)


def _member_indent(header: str, lines: Sequence[str], d: Definition) -> str:
    """The indentation of the class ``d``'s members, as its file writes them (two spaces in
    axios, a tab in a file indented with tabs): its body's first line's (of its first eight),
    when deeper than the header's; else the header's and four spaces."""
    outer = _indent_of([header])
    start = max(d.body_start_line, d.start_line + 1)
    for text in lines[start : min(d.end_line, start + 8)]:
        code = text.strip()
        if code and code != "{" and not code.startswith(("}", ")", "end")):
            inner = text[: len(text) - len(text.lstrip())]
            return inner if len(inner) > len(outer) and inner.startswith(outer) else outer + "    "
    return outer + "    "


def _indent_of(lines: Sequence[str]) -> str:
    for text in lines:
        if text.strip():
            return text[: len(text) - len(text.lstrip())]
    return ""


def commented(path: str, text: str, language: str) -> str:
    """A cross-file snippet as line comments, headed by its path (none for notes)."""
    mark = comment_leader(language)
    head = f"{mark} {path}\n" if path else ""
    return head + "".join(f"{mark} {line}".rstrip() + "\n" for line in text.splitlines())


def _fit_line_prefix(text: str, counter: TokenCounter, limit: int) -> str:
    """A giant cursor line keeps only its end (the part next to the cursor)."""
    if count_within(counter, text, limit) <= limit:
        return text
    keep = len(text)
    while keep > 0 and count_within(counter, text[-keep:], limit) > limit:
        keep //= 2
    return text[-keep:] if keep else ""


def _key(rel: RelatedDefinition) -> str:
    """A related definition's ``Candidate.key``: its file, name and line (overloads differ)."""
    return f"{rel.path}:{rel.definition.qualname}:{rel.definition.start_line}"


def _shown_in(text: str, members: Sequence[RelatedDefinition]) -> frozenset[str]:
    """The keys of those ``members`` (related definitions of a class's members) whose
    signature ``text`` (the class's skeleton, or its compact form) shows: a method the
    window calls whose class comes too needs no snippet of its own."""
    if not text:
        return frozenset()
    return frozenset(_key(m) for m in members if m.definition.signature in text)

"""``assemble_context``: the token-budgeted context for one completion point.

The pipeline, pure from data in to data out:
split at the cursor -> current-file candidates (anchored window, suffix, enclosing code, head,
outline of the rest) -> cross-file candidates (related definitions, similar windows, edit
history) -> fit the budget (``budget.fit_budget``) -> segments in stable-first prompt order.

Stable first (design.md §7): snippets that do not change while the user types come first, then
the current file from its head to the cursor; only the cursor line and the short suffix change
per keystroke, so the engine reuses the KV cache of everything before them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Protocol

from app.config import ContextConfig
from daemon.context.budget import UNCOUNTED, Candidate, allowances, fit_budget
from daemon.context.retrieve import (
    RelatedDefinition,
    identifiers_in_order,
    related_definitions,
    similar_windows,
)
from daemon.context.types import (
    AssembledContext,
    ContextRequest,
    DroppedSegment,
    Kind,
    Role,
    Segment,
    Tier,
)
from daemon.context.window import (
    enclosing_definitions,
    head_end,
    split_at_cursor,
    suffix_text,
    window_start,
)
from daemon.index import IndexSnapshot, ProjectIndex
from daemon.languages import comment_leader, detect_language
from daemon.parse import summarize
from daemon.skeleton import outline_entries, render_definition
from daemon.symbols import Definition, DefKind, FileSummary
from daemon.tokens import CharEstimator
from engine.base import TokenCounter

FORMAT_OVERHEAD = 8  # FIM markers and repository header tokens the prompt format adds
SNIPPET_OVERHEAD = 3  # file separator and newline around each cross-file snippet
# plus one token per snippet line: formats without a repository layout comment each line out
BOUNDARY_SLACK = 1  # a token of slack where two current-file segments meet
CURSOR_LINE_SLACK = 24  # the cursor line is reserved in steps of this many tokens (typing room)
WIDEN_MIN_TOKENS = 48  # leftover budget worth a second pass with a wider cursor window
WIDEN_LINES_FACTOR = 4  # how far up the widened window may reach, in cursor_lines_before


class HistorySource(Protocol):
    """What the assembler needs of the edit history (daemon.history.EditHistory)."""

    def summary_lines(
        self, *, limit: int, exclude: tuple[str, int, int] | None = None
    ) -> list[str]: ...

    def latest_hunks(
        self, limit: int, *, exclude: tuple[str, int, int] | None = None
    ) -> list[str]: ...


def assemble_context(
    request: ContextRequest,
    *,
    index: ProjectIndex | IndexSnapshot | None = None,
    history: HistorySource | None = None,
    counter: TokenCounter | None = None,
    config: ContextConfig | None = None,
    recent: Sequence[tuple[str, str]] = (),
    summary: FileSummary | None = None,
) -> AssembledContext:
    """Assemble the prompt context for ``request`` within ``request.budget_tokens``.

    ``index`` gives cross-file definitions, ``history`` the edit summary, ``recent`` the
    (path, text) of recently edited or opened files for similar-window retrieval, ``summary``
    a ready ``summarize_stable`` of the request (made here when None). Raises CursorError when the
    cursor is outside the text. Never returns more than ``budget_tokens`` tokens.
    """
    started = time.perf_counter()
    config = config or ContextConfig()
    language = request.language or detect_language(request.path)
    counter = counter or CharEstimator(language)
    snap = index.snapshot() if isinstance(index, ProjectIndex) else index
    parts = split_at_cursor(request.text, request.line, request.column)
    if summary is None:
        summary = summarize_stable(request.path, request.text, request.line, language)
    budget = request.budget_tokens
    s = config.shares
    allow = allowances(
        budget,
        {
            "cursor": s.cursor,
            "enclosing": s.enclosing,
            "related": s.related,
            "retrieval": s.retrieval,
            "history": s.history,
            "instructions": s.instructions,
        },
    )
    path, lines, line = request.path, parts.lines, parts.line
    comment = comment_leader(language)

    def segment(
        kind: Kind, tier: Tier, role: Role, source: str, text: str, overhead: int = 0
    ) -> Segment:
        return Segment(kind, tier, role, source, text, counter.count(text) + overhead)

    def lazy(kind: Kind, tier: Tier, role: Role, source: str, text: str) -> Segment:
        return Segment(kind, tier, role, source, text, UNCOUNTED)

    def span(start: int, end: int) -> str:  # 0-based [start, end) -> "path:a-b" 1-based
        return f"{path}:{start + 1}-{max(start + 1, end)}"

    outline_memo: dict[frozenset[str], list[tuple[Definition, str]]] = {}
    related_memo: list[list[RelatedDefinition]] = []

    def outline(expand: frozenset[str]) -> list[tuple[Definition, str]]:
        if expand not in outline_memo:
            outline_memo[expand] = outline_entries(summary, index=snap, expand=expand)
        return outline_memo[expand]

    def build(
        cursor_allow: int, lines_before: int
    ) -> tuple[list[Candidate], list[DroppedSegment], int]:
        cands: list[Candidate] = [
            Candidate(
                Segment(Kind.INSTRUCTIONS, Tier.FIXED, Role.SNIPPET, "format", "", FORMAT_OVERHEAD),
                "instructions",
                0,
                (0,),
            )
        ]

        # -- the cursor window and suffix (P0, cursor share) ---------------------------------------
        suffix = suffix_text(parts, config.suffix_max_lines)
        n_suffix_lines = min(config.suffix_max_lines, len(lines) - line - 1)
        suffix_seg = segment(
            Kind.SUFFIX,
            Tier.P0,
            Role.SUFFIX,
            span(line, line + 1 + n_suffix_lines),
            suffix,
            BOUNDARY_SLACK,
        )
        line_reserve = _quantized(counter.count(lines[line]), CURSOR_LINE_SLACK)
        reserve = line_reserve + suffix_seg.num_tokens
        start = window_start(
            parts,
            lines_before=lines_before,
            anchor=config.anchor_lines,
            allowance=cursor_allow,
            counter=counter,
            reserve=reserve,
        )
        line_prefix = _fit_line_prefix(parts.line_prefix, counter, max(16, cursor_allow // 2))
        above = "".join(lines[start:line])
        window_text = above + line_prefix
        # charged what the whole cursor line plus some typing would cost, not what is typed so
        # far: then no other choice here moves while the user types (the prompt prefix holds)
        charged = (
            max(counter.count(window_text), counter.count(above) + line_reserve) + BOUNDARY_SLACK
        )
        cands.append(
            Candidate(
                Segment(
                    Kind.CURSOR_WINDOW,
                    Tier.P0,
                    Role.PREFIX,
                    span(start, line + 1),
                    window_text,
                    charged,
                ),
                "cursor",
                0,
                (50,),
            )
        )
        cands.append(Candidate(suffix_seg, "cursor", 1, (60,)))

        # -- enclosing definitions above the window (headers P0, function body P1) -----------------
        enclosing = [d for d in enclosing_definitions(summary, line) if d.start_line < start]
        enclosing_names = {d.qualname for d in enclosing}
        covered_from = start  # first line already covered by enclosing code or the window
        for depth, d in enumerate(enclosing):
            header_end = min(max(d.body_start_line, d.start_line + 1), start)
            header = "".join(lines[d.start_line : header_end])
            if d.kind is DefKind.CLASS:  # doc line and attributes: cheap, and names the model needs
                header += _class_notes(d, language)
            cands.append(
                Candidate(
                    segment(
                        Kind.ENCLOSING,
                        Tier.P0,
                        Role.PREFIX,
                        span(d.start_line, header_end),
                        header,
                        BOUNDARY_SLACK,
                    ),
                    "enclosing",
                    depth,
                    (30, depth * 2),
                )
            )
            covered_from = min(covered_from, d.start_line)
            innermost = depth == len(enclosing) - 1
            if innermost and d.kind is not DefKind.CLASS and header_end < start:
                body_lines = lines[header_end:start]
                body = "".join(body_lines)
                body_seg = segment(
                    Kind.ENCLOSING,
                    Tier.P1,
                    Role.PREFIX,
                    span(header_end, start),
                    body,
                    BOUNDARY_SLACK,
                )
                if body_seg.num_tokens > allow["enclosing"]:
                    # keep the part nearest the window, behind an elision marker
                    indent = _indent_of(body_lines)
                    cut = 0
                    while cut < len(body_lines) and body_seg.num_tokens > allow["enclosing"]:
                        cut += max(1, config.anchor_lines // 2)
                        body = f"{indent}{comment} …\n" + "".join(body_lines[cut:])
                        body_seg = segment(
                            Kind.ENCLOSING,
                            Tier.P1,
                            Role.PREFIX,
                            span(header_end + cut, start),
                            body,
                            BOUNDARY_SLACK,
                        )
                cands.append(Candidate(body_seg, "enclosing", 10, (40,)))

        # -- file head (imports) and outline of the rest of the file -------------------------------
        head_stop = min(head_end(summary, lines), covered_from)
        if head_stop > 0:
            head = "".join(lines[:head_stop])
            cands.append(
                Candidate(
                    segment(
                        Kind.FILE_HEAD,
                        Tier.P1,
                        Role.PREFIX,
                        span(0, head_stop),
                        head,
                        BOUNDARY_SLACK,
                    ),
                    "related",
                    0,
                    (10, 0),
                )
            )
        window_words = set(identifiers_in_order(window_text))
        suffix_end = line + n_suffix_lines  # last line of the suffix
        shown: set[int] = set()
        for d, text in outline(frozenset(enclosing_names)):
            if d.qualname in enclosing_names or d.start_line < head_stop:
                continue
            if d.end_line >= covered_from and d.start_line <= suffix_end:
                continue  # overlaps what is shown in full
            in_enclosing_class = d.parent in enclosing_names
            below = d.start_line > suffix_end
            order = (
                (30, enclosing_index(enclosing, d.parent) * 2 + 1, d.start_line)
                if (in_enclosing_class)
                else (20, d.start_line)
            )
            used = d.name in window_words
            tier = Tier.P1 if used or in_enclosing_class or d.kind is DefKind.CLASS else Tier.P2
            distance = abs(d.start_line - line) / max(1, len(lines))
            kind = Kind.FILE_TAIL if below else Kind.FILE_SUMMARY
            src = span(d.start_line, d.end_line + 1)
            full = "".join(lines[d.start_line : d.end_line + 1])
            cands.append(
                Candidate(
                    lazy(kind, tier, Role.PREFIX, src, text),
                    "related",
                    1 + distance + (0 if used else 1),
                    order,
                    upgrade=lazy(kind, tier, Role.PREFIX, src, full) if full != text else None,
                    upgrade_overhead=BOUNDARY_SLACK,
                )
            )
            shown.update(range(d.start_line, d.end_line + 1))
        # module-level lines outside any definition, above the window and below the suffix
        outside = [
            i
            for i in range(head_stop, len(lines))
            if i not in shown and not covered_from <= i <= suffix_end and lines[i].strip()
        ]
        for chunk in _runs(outside, config.anchor_lines):
            text = "".join(lines[chunk[0] : chunk[-1] + 1])
            kind = Kind.FILE_TAIL if chunk[0] > suffix_end else Kind.FILE_SUMMARY
            cands.append(
                Candidate(
                    lazy(kind, Tier.P2, Role.PREFIX, span(chunk[0], chunk[-1] + 1), text),
                    "related",
                    3 + abs(chunk[0] - line) / max(1, len(lines)),
                    (20, chunk[0]),
                    overhead=BOUNDARY_SLACK,
                )
            )

        # -- cross-file: definitions of identifiers used at the cursor -----------------------------
        stable_text = "".join(lines[start:line])  # the cursor line is left out: it changes per key
        header_text = "".join(c.segment.text for c in cands if c.segment.kind is Kind.ENCLOSING)
        if snap is not None:
            near = "".join(lines[max(start, line - 3) : line])
            p0_room = allow["related"]
            if not related_memo:  # the widened pass reuses the first pass's choice
                related_memo.append(
                    related_definitions(snap, summary, header_text + stable_text, near)
                )
            for rel in related_memo[0]:
                source = f"{rel.path}:{rel.definition.start_line + 1}-{rel.definition.end_line + 1}"
                overhead = _snippet_overhead(counter, rel.path, rel.text)
                seg = lazy(Kind.RELATED, Tier.P1, Role.SNIPPET, source, rel.text)
                if rel.at_cursor and len(rel.text) < p0_room * 12:
                    exact = segment(Kind.RELATED, Tier.P0, Role.SNIPPET, source, rel.text, overhead)
                    if exact.num_tokens <= p0_room:
                        seg, overhead = exact, 0
                        p0_room -= exact.num_tokens
                cands.append(
                    Candidate(
                        seg,
                        "related",
                        2 + rel.rank,
                        (3, rel.rank, rel.definition.start_line),
                        overhead=overhead,
                    )
                )

        # -- similar windows from recent files (P2) ------------------------------------------------
        others = [(p, t) for p, t in recent if p != path]
        for i, w in enumerate(similar_windows(stable_text, others)):
            seg = lazy(
                Kind.RETRIEVED,
                Tier.P2,
                Role.SNIPPET,
                f"{w.path}:{w.start_line + 1}-{w.end_line}",
                w.text,
            )
            cands.append(
                Candidate(
                    seg, "retrieval", i, (4, i), overhead=_snippet_overhead(counter, w.path, w.text)
                )
            )

        # -- edit history (P2) ---------------------------------------------------------------------
        if history is not None:
            summary_lines = history.summary_lines(limit=8, exclude=(path, start, suffix_end))
            if summary_lines:
                # plain text: the prompt format comments snippets without a file out
                text = "Recent edits:\n" + "".join(f"- {entry}\n" for entry in summary_lines)
                cands.append(
                    Candidate(
                        segment(
                            Kind.HISTORY,
                            Tier.P2,
                            Role.SNIPPET,
                            "edit history",
                            text,
                            _snippet_overhead(counter, "", text),
                        ),
                        "history",
                        0,
                        (1, 0),
                    )
                )
            for i, hunk in enumerate(history.latest_hunks(2, exclude=(path, start, suffix_end))):
                cands.append(
                    Candidate(
                        segment(
                            Kind.HISTORY,
                            Tier.P2,
                            Role.SNIPPET,
                            f"edit hunk {i + 1}",
                            hunk,
                            _snippet_overhead(counter, "", hunk),
                        ),
                        "history",
                        1 + i,
                        (1, 1 + i),
                    )
                )

        kept, dropped = fit_budget(cands, budget, allow, counter)
        return kept, dropped, start

    kept, dropped, start = build(allow["cursor"], config.cursor_lines_before)
    leftover = budget - sum(c.segment.num_tokens for c in kept)
    if leftover >= WIDEN_MIN_TOKENS and start > 0:
        # budget left over: widen the cursor window upwards and assemble again
        kept, dropped, start = build(
            allow["cursor"] + leftover, config.cursor_lines_before * WIDEN_LINES_FACTOR
        )
    segments = tuple(c.segment for c in kept)
    total = sum(seg.num_tokens for seg in segments)
    return AssembledContext(
        path=path,
        language=language,
        segments=segments,
        budget_tokens=budget,
        num_tokens=total,
        num_tokens_before_trim=total + sum(d.num_tokens for d in dropped),
        dropped=tuple(dropped),
        assemble_ms=(time.perf_counter() - started) * 1000.0,
    )


def stable_text(text: str, line: int) -> str:
    """``text`` with line ``line`` cut to its indentation: what is being typed is left out."""
    lines = text.split("\n")
    if 0 <= line < len(lines):
        current = lines[line]
        lines[line] = current[: len(current) - len(current.lstrip())]
    return "\n".join(lines)


def summarize_stable(path: str, text: str, line: int, language: str | None = None) -> FileSummary:
    """The summary the assembler works from: the document parsed without the cursor line.

    A half-typed line (``parse_row(``) makes the parser's error recovery move definition
    boundaries; without it, every keystroke on the line sees the same outline, so the prompt
    prefix stays the same. Callers cache it per document version and cursor line.
    """
    return summarize(path, stable_text(text, line), language)


def _quantized(n: int, step: int) -> int:
    """``n`` rounded up to the next multiple of ``step`` above it (a reservation with room)."""
    return (n // step + 1) * step


def _snippet_overhead(counter: TokenCounter, path: str, text: str) -> int:
    """Tokens a snippet costs beyond its text: header, separators, a comment mark per line."""
    return counter.count(path) + SNIPPET_OVERHEAD + text.count("\n") + 1


def _runs(numbers: Sequence[int], max_len: int) -> list[list[int]]:
    """Split sorted line numbers into runs of consecutive lines, at most ``max_len`` long."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1 and len(runs[-1]) < max_len:
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs


def enclosing_index(enclosing: Sequence[object], qualname: str) -> int:
    for i, d in enumerate(enclosing):
        if getattr(d, "qualname", None) == qualname:
            return i
    return 0


def _class_notes(d: Definition, language: str) -> str:
    """Doc line and attribute names of an enclosing class, rendered as in a skeleton."""
    rendered = render_definition(d, language, indent=_indent_of([d.signature]))
    notes = rendered.splitlines(keepends=True)[1:]
    kept = [n for n in notes if n.strip() not in ("...", "{ … }")]
    if language == "python":
        kept = [("    " + n.lstrip()) for n in kept]
    return "".join(kept)


def _indent_of(lines: Sequence[str]) -> str:
    for text in lines:
        if text.strip():
            return text[: len(text) - len(text.lstrip())]
    return ""


def _fit_line_prefix(text: str, counter: TokenCounter, limit: int) -> str:
    """A giant cursor line keeps only its end (the part next to the cursor)."""
    if counter.count(text) <= limit:
        return text
    keep = len(text)
    while keep > 0 and counter.count(text[-keep:]) > limit:
        keep //= 2
    return text[-keep:] if keep else ""

"""The corpus side of evaluations: index a folder, hide a ground truth, name what it uses.

Shared by ``nospin eval`` (app/evaluation) and ``nospin bench context`` (bench/context.py), so
both hide the ground truth the same way: the document is seen only as the editor buffer with the
hidden part removed, and its index entry is replaced by the parse of that buffer while the
completion point is served (``buffer_in_index``).
"""

from __future__ import annotations

import keyword
import re
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from app.config import Config
from daemon.history import EditHistory
from daemon.index import ProjectIndex
from daemon.metrics import percentile as daemon_percentile
from daemon.symbols import FileSummary
from engine.base import TokenCounter

IDENT = re.compile(r"(?<![0-9A-Za-z_])[A-Za-z_][A-Za-z0-9_]*")  # not inside 0x1f
KEYWORDS = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | {
    "const", "let", "var", "function", "return", "func", "fn", "pub", "mut", "impl", "struct",
    "type", "interface", "package", "use", "new", "this", "true", "false", "null", "nil",
}
_BINDINGS = (
    re.compile(r"\b(?:def|class|fn|func|function|struct|enum|trait|type|interface)\s+([A-Za-z_]\w*)"),
    re.compile(r"\b(?:let|const|var)\s+(?:mut\s+)?([A-Za-z_]\w*)"),
    re.compile(r"\bfor\s+([A-Za-z_]\w*)"),
    re.compile(r"\bas\s+([A-Za-z_]\w*)"),
    re.compile(r"\b(?:import)\s+([A-Za-z_]\w*)"),
    re.compile(r"^\s*([A-Za-z_]\w*)\s*(?::[^=\n]*)?(?:=(?!=)|:=)"),
    re.compile(r"^\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)+)\s*=(?!=)"),
)


def introduced_names(hidden: str) -> set[str]:
    """Names the hidden text binds itself (assignment targets, def/for/as names, params)."""
    names: set[str] = set()
    for line in hidden.splitlines():
        for pattern in _BINDINGS:
            for match in pattern.finditer(line):
                names.update(IDENT.findall(match.group(1)))
        m = re.search(r"\b(?:def|fn|func|function)\s+\w+\s*\(([^)]*)", line)
        if m:
            names.update(w for w in IDENT.findall(m.group(1)) if w not in KEYWORDS)
        m = re.search(r"\blambda\b([^:]*):", line)
        if m:
            names.update(IDENT.findall(m.group(1)))
    return names


def used_identifiers(hidden: str) -> set[str]:
    """Identifiers the hidden text uses but does not bind itself (keywords and 1-letter out)."""
    words = {w for w in IDENT.findall(hidden) if w not in KEYWORDS and len(w) > 1}
    return words - introduced_names(hidden)


def code_part(text: str, language: str, start: int, length: int) -> str:
    """``text[start:start + length]`` with string literals and comments blanked out.

    Identifiers are scored on code only: words inside strings and comments are prose. The
    whole text is parsed (the slice alone may not parse), then the slice is cut out.
    """
    from daemon.parse import mask_prose

    masked = mask_prose(text, language)
    begin = len(text[:start].encode("utf-8", "surrogatepass"))
    size = len(text[start : start + length].encode("utf-8", "surrogatepass"))
    return masked[begin : begin + size].decode("utf-8", "replace")


def build_index(
    root: Path, config: Config, exclude: Sequence[str] = (), *, history: EditHistory | None = None
) -> tuple[ProjectIndex, float]:
    """Index ``root`` as the daemon would (``exclude``: extra gitignore-style patterns).

    Returns the index and the build time in seconds. ``history`` receives what the indexer
    records (nothing for an initial build); a fresh one is used when None.
    """
    from daemon.indexer import IndexerLimits, ProjectIndexer

    index = ProjectIndex(root)
    limits = IndexerLimits(
        max_file_bytes=config.context.max_file_bytes, extra_ignores=tuple(exclude)
    )
    started = time.perf_counter()
    ProjectIndexer(root, config, index, history or EditHistory(), limits=limits).build()
    return index, time.perf_counter() - started


@contextmanager
def buffer_in_index(index: ProjectIndex, path: str, buffer_summary: FileSummary) -> Iterator[None]:
    """Serve ``path`` from the parse of its buffer (ground truth removed), then restore it."""
    original = index.get(path)
    index.apply({path: buffer_summary})
    try:
        yield
    finally:
        index.apply({path: original})


def cut_tail(text: str, budget: int, counter: TokenCounter) -> str:
    """The shortest-cut tail of ``text`` that fits ``budget`` tokens (may start mid-line)."""
    lo, hi = 0, len(text)
    while lo < hi:  # smallest cut whose tail fits the budget
        mid = (lo + hi) // 2
        if counter.count(text[mid:]) <= budget:
            hi = mid
        else:
            lo = mid + 1
    return text[lo:]


def percentile(values: Sequence[float], q: float) -> float:
    """The daemon's percentile (``daemon.metrics.percentile``: linear interpolation, what
    status and the tray show) with ``q`` as a share (0..1); 0.0 for no values. Before
    2026-12-01 the benchmarks and the eval took the nearest rank."""
    return daemon_percentile(list(values), q * 100) or 0.0

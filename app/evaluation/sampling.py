"""Seeded, reproducible completion points in a corpus, with their hidden ground truth.

Two kinds of point:

- ``line``: the rest of a line from a point inside it (at least one character of code before
  the cursor on that line, at least two non-blank characters hidden). The buffer keeps the
  line break and every later line.
- ``block``: the first lines of a block's body (up to ``MAX_BLOCK_LINES``), right after a line
  that opens a block (``:`` in Python, ``{`` elsewhere); the cursor sits on the first body line
  after its indentation, as an editor leaves it after Enter.

A point is ``cross_file`` when its hidden text uses a name that another corpus file defines and
the current file does not (``crossfile.py``: in Python by the file's bindings, so locals that
share a name with a definition elsewhere do not count; common names such as ``main`` or ``get``
defined in more than ``MAX_DEFINING_FILES`` files do not count either). Points are drawn into four
buckets (line/block x cross-file or not) by fixed shares, so the cross-file subset is large
enough to compare modes on; the same corpus, seed and count give the same points.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.evaluation.crossfile import CrossFileResolver
from daemon.index import ProjectIndex
from daemon.languages import LANGUAGES, comment_leader, detect_language
from engine.blocks import opens_block

MAX_BLOCK_LINES = 5  # block completions hide at most this many lines
MIN_FILE_LINES = 20


@dataclass(frozen=True, slots=True)
class EvalPoint:
    """One completion point; ``before + after`` is the editor buffer (ground truth removed)."""

    id: str  # "path:line:column", 1-based like an editor shows it
    path: str  # corpus-relative path, forward slashes
    language: str
    kind: str  # "line" | "block"
    line: int  # 0-based cursor line
    column: int  # 0-based cursor column (characters)
    before: str  # buffer text before the cursor
    hidden: str  # the ground truth; the buffer does not contain it
    after: str  # buffer text after the cursor (starts with the line break)
    num_hidden_lines: int  # 1 for line points
    cross_names: tuple[str, ...] = ()  # names used in ``hidden`` defined in other corpus files

    @property
    def cross_file(self) -> bool:
        return bool(self.cross_names)

    @property
    def buffer(self) -> str:
        return self.before + self.after

    def original(self) -> str:
        """The file as it is on disk (buffer with the ground truth put back)."""
        return self.before + self.hidden + self.after

    def with_completion(self, completion: str) -> str:
        """The file with ``completion`` in place of the ground truth."""
        return self.before + completion + self.after

    def __repr__(self) -> str:  # never print source text
        return f"EvalPoint({self.id}, {self.kind}, cross_file={self.cross_file})"


@dataclass(frozen=True, slots=True)
class SamplingPlan:
    """How many points of each kind to draw."""

    num_samples: int
    seed: int = 0
    block_share: float = 0.4  # share of block points (the rest are line points)
    cross_share: float = 0.3  # share of cross-file points within each kind
    max_attempts_per_point: int = 400  # give up after this many draws per wanted point

    def targets(self) -> dict[tuple[str, bool], int]:
        n_block = round(self.num_samples * self.block_share)
        n_line = self.num_samples - n_block
        out: dict[tuple[str, bool], int] = {}
        for kind, n in (("line", n_line), ("block", n_block)):
            cross = round(n * self.cross_share)
            out[(kind, True)] = cross
            out[(kind, False)] = n - cross
        return out


@dataclass(slots=True)
class SamplingReport:
    """What sampling did; stored with the results."""

    num_files: int = 0  # files eligible (a tree-sitter language, at least MIN_FILE_LINES lines)
    num_attempts: int = 0
    shortfall: dict[str, int] = field(default_factory=dict)  # bucket -> points not found


def sample_points(
    index: ProjectIndex, root: Path, plan: SamplingPlan
) -> tuple[list[EvalPoint], SamplingReport]:
    """Draw ``plan.num_samples`` points from the indexed files under ``root``.

    Returns the points sorted by (path, line): consecutive points share a file, so the engine
    reuses the KV cache of its prefix. Files that cannot be read are passed over.
    """
    rng = random.Random(plan.seed)
    resolver = CrossFileResolver(index.snapshot())
    report = SamplingReport()
    paths = [p for p in index.paths() if detect_language(p) in LANGUAGES]
    texts: dict[str, list[str] | None] = {}

    def lines_of(path: str) -> list[str] | None:
        if path not in texts:
            try:
                text = (root / path).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                texts[path] = None
            else:
                lines = text.splitlines(keepends=True)
                texts[path] = lines if len(lines) >= MIN_FILE_LINES else None
        return texts[path]

    remaining = plan.targets()
    points: list[EvalPoint] = []
    seen: set[tuple[str, int]] = set()
    max_attempts = max(1, plan.num_samples) * plan.max_attempts_per_point
    while paths and any(remaining.values()) and report.num_attempts < max_attempts:
        report.num_attempts += 1
        kinds = sorted({k for (k, _), n in remaining.items() if n > 0})
        kind = rng.choice(kinds)
        path = rng.choice(paths)
        lines = lines_of(path)
        if lines is None:
            continue
        language = detect_language(path)
        point = (_line_point if kind == "line" else _block_point)(rng, path, language, lines)
        if point is None or (path, point.line) in seen:
            continue
        point = _with_cross_names(point, resolver)
        bucket = (kind, point.cross_file)
        if remaining[bucket] <= 0:
            continue
        remaining[bucket] -= 1
        seen.add((path, point.line))
        points.append(point)
    report.num_files = sum(1 for p in paths if texts.get(p) is not None) if texts else 0
    report.shortfall = {
        f"{kind}{'/cross_file' if cross else ''}": n for (kind, cross), n in remaining.items() if n
    }
    points.sort(key=lambda p: (p.path, p.line))
    return points, report


def points_from(stored: Sequence[Mapping[str, Any]], root: Path) -> list[EvalPoint]:
    """The points an earlier result stored (its ``points``), cut again from the files under
    ``root``: the same points whatever the index now finds (a change to the index changes what
    sampling draws, its cross-file names among them). Raises InputError when a file is gone
    or no longer holds the point's hidden text."""
    from app.errors import InputError

    texts: dict[str, list[str]] = {}
    points: list[EvalPoint] = []
    for item in stored:
        path, line_s, col_s = str(item["id"]).rsplit(":", 2)
        if path not in texts:
            try:
                texts[path] = (root / path).read_text(encoding="utf-8").splitlines(keepends=True)
            except (OSError, UnicodeDecodeError) as exc:
                raise InputError(f"point {item['id']}: cannot read {root / path}: {exc}") from exc
        lines = texts[path]
        line, column = int(line_s) - 1, int(col_s) - 1
        hidden = str(item["hidden"])
        before = "".join(lines[:line]) + lines[line][:column] if line < len(lines) else ""
        rest = "".join(lines[line:])[column:] if line < len(lines) else ""
        if not rest.startswith(hidden):
            raise InputError(f"point {item['id']}: {root / path} no longer holds its hidden "
                             "text there (the corpus changed)")
        points.append(EvalPoint(
            id=str(item["id"]), path=path, language=str(item["language"]),
            kind=str(item["kind"]), line=line, column=column, before=before, hidden=hidden,
            after=rest[len(hidden):], num_hidden_lines=hidden.count("\n") + 1,
            cross_names=tuple(item.get("cross_names") or ()),
        ))
    return points


def subset(points: Sequence[EvalPoint], count: int, seed: int) -> list[EvalPoint]:
    """A seeded subset of ``count`` points, in the order of ``points``."""
    if count >= len(points):
        return list(points)
    chosen = set(random.Random(f"subset:{seed}").sample(range(len(points)), count))
    return [p for i, p in enumerate(points) if i in chosen]


def _is_code_line(content: str, language: str) -> bool:
    stripped = content.strip()
    leader = comment_leader(language)
    return bool(stripped) and not stripped.startswith(
        (leader, "*", "/*", '"""', "'''", '"', "'", "@")
    )


def _line_point(
    rng: random.Random, path: str, language: str, lines: list[str]
) -> EvalPoint | None:
    return line_point_at(rng, path, language, lines, rng.randrange(5, len(lines) - 2))


def line_point_at(
    rng: random.Random, path: str, language: str, lines: Sequence[str], line: int
) -> EvalPoint | None:
    """The line point on ``lines[line]`` (its column drawn from ``rng``), or None when that
    line is not one the sampler cuts (not code, too short, too little left to hide)."""
    content = lines[line].rstrip("\r\n")
    if len(content.strip()) < 4 or not _is_code_line(content, language):
        return None
    indent = len(content) - len(content.lstrip())
    if len(content) - indent < 3:
        return None
    column = rng.randrange(indent + 1, len(content) - 1)
    hidden = content[column:]
    if len(hidden.strip()) < 2:
        return None
    before = "".join(lines[:line]) + content[:column]
    after = lines[line][len(content) :] + "".join(lines[line + 1 :])
    return EvalPoint(
        id=f"{path}:{line + 1}:{column + 1}", path=path, language=language, kind="line",
        line=line, column=column, before=before, hidden=hidden, after=after, num_hidden_lines=1,
    )


def _opens_block(content: str, language: str) -> bool:
    """A code line opening a block, by the product's rule (Ruby: ``def``, ``if``, ``do |y|``;
    until 3f52a94 the sampler's own ``:`` or ``{`` found Ruby's hash literals only)."""
    return _is_code_line(content, language) and opens_block(content, language)


def _indent(content: str) -> int:
    return len(content) - len(content.lstrip())


def _block_point(
    rng: random.Random, path: str, language: str, lines: list[str]
) -> EvalPoint | None:
    openers = [
        i for i in range(3, len(lines) - 3) if _opens_block(lines[i].rstrip("\r\n"), language)
    ]
    if not openers:
        return None
    return block_point_at(path, language, lines, rng.choice(openers))


def block_point_at(
    path: str, language: str, lines: Sequence[str], opener: int
) -> EvalPoint | None:
    """The block point after the block-opening line ``lines[opener]`` (the first body lines,
    at most ``MAX_BLOCK_LINES``), or None when its body is not indented below it."""
    if not _opens_block(lines[opener].rstrip("\r\n"), language) or opener + 1 >= len(lines):
        return None
    body = opener + 1
    first = lines[body].rstrip("\r\n")
    body_indent = _indent(first)
    if not first.strip() or body_indent <= _indent(lines[opener]):
        return None
    end = body
    while end < len(lines) and end - body < MAX_BLOCK_LINES:
        content = lines[end].rstrip("\r\n")
        if content.strip() and _indent(content) < body_indent:
            break
        end += 1
    while end > body + 1 and not lines[end - 1].strip():
        end -= 1  # no trailing blank lines in the ground truth
    text = lines[body][body_indent:] + "".join(lines[body + 1 : end])
    hidden = text.rstrip("\r\n")  # the last hidden line is not blank: one line break goes
    if len(hidden.strip()) < 2:
        return None
    before = "".join(lines[:body]) + first[:body_indent]
    after = text[len(hidden) :] + "".join(lines[end:])
    return EvalPoint(
        id=f"{path}:{body + 1}:{body_indent + 1}", path=path, language=language, kind="block",
        line=body, column=body_indent, before=before, hidden=hidden, after=after,
        num_hidden_lines=end - body,
    )


def _with_cross_names(point: EvalPoint, resolver: CrossFileResolver) -> EvalPoint:
    names = resolver.names(point.path, point.language, point.before, point.hidden, point.after)
    if not names:
        return point
    return EvalPoint(
        id=point.id, path=point.path, language=point.language, kind=point.kind, line=point.line,
        column=point.column, before=point.before, hidden=point.hidden, after=point.after,
        num_hidden_lines=point.num_hidden_lines, cross_names=tuple(names),
    )

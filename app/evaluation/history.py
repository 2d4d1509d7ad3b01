"""Completion points from a repository's history: real commits replayed as editing sessions.

A history corpus is a folder that ``python -m bench.history_corpus fetch`` writes from a
repository's git history (docs/quality.md, "Editing sessions from real history"):

- ``history.json``: the repository, the kept paths, the base commit and the commits, in order;
- ``base/``: the kept files at the base commit (the parent of the first commit);
- ``diffs/NNNN.advance.diff``: from the previous commit to this commit's parent (absent when
  that is the same commit); ``diffs/NNNN.diff``: the commit itself (parent to commit).

The rules of a point (``sample_history_points``), which the tests hold to:

1. the project is checked out at the commit's parent (written to disk and indexed as the
   daemon indexes a project);
2. a fresh editor session (``replay.EditorReplay``) opens each file the commit changes when
   its first hunk comes, and applies the commit's hunks before the point's hunk as editor
   changes, in the diff's order (files by path, hunks from the top down): the edit history,
   the recently edited files and the open buffers are what the daemon would have;
3. the point is a line of a later hunk (not the commit's first), among the lines that hunk
   adds or changes, cut as the sampler cuts (``sampling.line_point_at`` and
   ``block_point_at``; a block point's hidden lines all from the hunk);
4. the buffer is the file with the earlier hunks applied and the point's hunk typed up to
   the cursor: its lines above the point, not the ones after the hidden text (not typed yet),
   and without the lines it replaces; that typing is one more editor change.

At most ``MAX_POINTS_PER_COMMIT`` points per commit; commits are drawn in a seeded order and
the points of one draw are the same whatever else the corpus holds.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.config import Config
from app.errors import InputError
from app.evaluation.corpus import build_index
from app.evaluation.corpus_archive import corpus_folder
from app.evaluation.crossfile import CrossFileResolver
from app.evaluation.diffs import FileDiff, Hunk, apply_diff, apply_hunk, parse_diff, split_lines
from app.evaluation.replay import EditorReplay
from app.evaluation.sampling import EvalPoint, SamplingPlan, block_point_at, line_point_at
from app.evaluation.session import SessionContext
from daemon.index import ProjectIndex
from daemon.languages import LANGUAGES, detect_language

MANIFEST = "history.json"
SCHEMA = 1
MAX_POINTS_PER_COMMIT = 3

Files = dict[str, str]


@dataclass(frozen=True, slots=True)
class HistoryCommit:
    sha: str
    parent: str
    subject: str
    diff: str  # file name under diffs/ of the commit's own diff
    advance: str = ""  # file name under diffs/ of the diff that reaches its parent ("": none)


@dataclass(frozen=True, slots=True)
class HistoryCorpus:
    folder: Path
    name: str
    repo: str
    base: str
    paths: tuple[str, ...]
    commits: tuple[HistoryCommit, ...]


@dataclass(frozen=True, slots=True)
class ReplayedPoint:
    """A point with the editor session that led to it."""

    point: EvalPoint  # ``path`` relative to ``root``
    root: Path  # the checkout of the commit's parent
    index: ProjectIndex  # that checkout indexed as the daemon indexes a project
    replay: EditorReplay  # the session, holding the daemon's document and project state
    session: SessionContext
    commit: str
    hunk: int  # the point's hunk: its index in the commit's ``ordered_hunks``


@dataclass(slots=True)
class HistoryReport:
    """What the history sampling did; stored with the results."""

    corpora: dict[str, int] = field(default_factory=dict)  # corpus name -> points
    num_commits: int = 0  # commits that gave points
    num_commits_tried: int = 0
    num_edits_mean: float = 0.0  # editor changes before a point (the point's typing included)
    shortfall: int = 0


def is_history_corpus(folder: Path) -> bool:
    return (folder / MANIFEST).is_file()


def history_corpora(folder: Path) -> list[Path]:
    """``folder`` when it is a history corpus, else the history corpora under it (their
    archives unpacked: ``NAME.tar.xz`` beside ``NAME.json``, as ``bench/corpora/history/``
    keeps them); [] if none."""
    if is_history_corpus(folder):
        return [folder]
    if not folder.is_dir():
        return []
    pins = sorted(p for p in folder.glob("*.json") if p.is_file())
    for pin in pins:
        corpus_folder(pin.with_suffix(""))
    return sorted(p for p in folder.iterdir() if p.is_dir() and is_history_corpus(p))


def pins_digest(folder: Path) -> str:
    """sha256 of the pinned manifests of the history corpora at ``folder`` (a corpus: its
    ``NAME.json`` beside it; a folder of pins: its ``*.json``), names and bytes in order: the
    corpus's identity wherever it is checked out. "" when there are none (a folder of files)."""
    if is_history_corpus(folder):
        pins = [pin_of(folder)]
    else:  # pins are those with their corpus beside them (a package.json is not one)
        pins = [p for p in sorted(folder.glob("*.json"))
                if p.with_suffix(".tar.xz").is_file() or is_history_corpus(p.with_suffix(""))]
    pins = [p for p in pins if p.is_file()]
    if not pins:
        return ""
    digest = hashlib.sha256()
    for pin in pins:
        digest.update(pin.name.encode() + b"\0" + pin.read_bytes() + b"\0")
    return digest.hexdigest()


def pin_of(folder: Path) -> Path:
    """The pinned manifest of the corpus ``folder``: ``NAME.json`` beside it."""
    return folder.with_name(folder.name + ".json")


def check_pinned(corpus: HistoryCorpus) -> None:
    """InputError unless ``corpus`` holds the commits its pinned manifest names (when there is
    one beside it): the same repository, base and commits, in the same order."""
    pin = pin_of(corpus.folder)
    if not pin.is_file():
        return
    try:
        data = json.loads(pin.read_text(encoding="utf-8"))
        pinned = (str(data["base"]), tuple(str(c["sha"]) for c in data["commits"]))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{pin}: not a pinned history manifest ({exc})") from exc
    held = (corpus.base, tuple(c.sha for c in corpus.commits))
    if held != pinned:
        raise InputError(
            f"{corpus.folder} does not hold the commits {pin.name} pins (base {held[0][:10]} "
            f"against {pinned[0][:10]}, {len(held[1])} commits against {len(pinned[1])}); "
            f"fetch it again: python -m bench.history_corpus fetch {pin}")


def load_corpus(folder: Path) -> HistoryCorpus:
    """Read ``folder/history.json``; InputError when it is missing or malformed."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        if data.get("schema") != SCHEMA:
            raise ValueError(f"schema {data.get('schema')!r}, this nospin reads {SCHEMA}")
        commits = tuple(HistoryCommit(
            sha=c["sha"], parent=c["parent"], subject=c.get("subject", ""), diff=c["diff"],
            advance=c.get("advance", "")) for c in data["commits"])
        return HistoryCorpus(folder, str(data["name"]), str(data["repo"]), str(data["base"]),
                             tuple(data["paths"]), commits)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{folder}: not a history corpus ({MANIFEST}: {exc})") from exc


def read_base(corpus: HistoryCorpus) -> Files:
    """The kept files at the base commit, by repository-relative path."""
    base = corpus.folder / "base"
    if not base.is_dir():
        raise InputError(f"{corpus.folder}: no base/ folder (the files at {corpus.base[:10]}); "
                         f"fetch it again: python -m bench.history_corpus fetch "
                         f"{pin_of(corpus.folder)}")
    try:
        return {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8")
                for p in sorted(base.rglob("*")) if p.is_file()}
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{corpus.folder}: cannot read base/ ({exc})") from exc


def read_diff(corpus: HistoryCorpus, name: str) -> list[FileDiff]:
    if not name:
        return []
    path = corpus.folder / "diffs" / name
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{corpus.folder}: cannot read diffs/{name} ({exc})") from exc
    return parse_diff(text)


def _applied(files: Files, diff: Sequence[FileDiff]) -> Files:
    out = dict(files)
    for path, text in apply_diff(files, diff).items():
        if text is None:
            out.pop(path, None)
        else:
            out[path] = text
    return out


def parent_states(corpus: HistoryCorpus) -> list[tuple[HistoryCommit, Files, list[FileDiff]]]:
    """Each commit with the kept files at its parent and its diff (texts shared, not copied)."""
    files = read_base(corpus)
    out: list[tuple[HistoryCommit, Files, list[FileDiff]]] = []
    for commit in corpus.commits:
        try:
            files = _applied(files, read_diff(corpus, commit.advance))
            diff = read_diff(corpus, commit.diff)
            out.append((commit, files, diff))
            files = _applied(files, diff)
        except InputError as exc:
            raise InputError(f"{corpus.name}, commit {commit.sha[:10]}: {exc}") from exc
    return out


def ordered_hunks(diff: Sequence[FileDiff]) -> list[Hunk]:
    """The commit's hunks in replay order: the diff's files in order, hunks top down (files
    not in a tree-sitter language left out)."""
    return [h for f in diff if detect_language(f.path) in LANGUAGES for h in f.hunks]


@dataclass(frozen=True, slots=True)
class _Cut:
    """A point cut from a commit, before its session is replayed."""

    target: int  # index of the point's hunk in ``ordered_hunks``
    point: EvalPoint  # buffer as rule 4 says; id without the corpus prefix
    typed_from: str  # the file's text before the point's hunk (earlier hunks applied)


def _shifted_texts(files: Files, hunks: Sequence[Hunk], upto: int) -> tuple[Files, dict[str, int]]:
    """The texts after hunks[:upto] and each file's line shift (for the later hunks)."""
    texts: Files = {}
    shift: dict[str, int] = {}
    for hunk in hunks[:upto]:
        text = texts.get(hunk.path, "" if hunk.created else files.get(hunk.path, ""))
        texts[hunk.path] = apply_hunk(text, hunk, shift=shift.get(hunk.path, 0))
        shift[hunk.path] = shift.get(hunk.path, 0) + len(hunk.new) - len(hunk.old)
    return texts, shift


def cut_point(files: Files, hunks: Sequence[Hunk], target: int, kind: str,
              rng: random.Random) -> _Cut | None:
    """A point of ``kind`` on a line of ``hunks[target]`` (rules 3 and 4), or None."""
    hunk = hunks[target]
    language = detect_language(hunk.path)
    texts, shift = _shifted_texts(files, hunks, target)
    before_hunk = texts.get(hunk.path, "" if hunk.created else files.get(hunk.path, ""))
    full = apply_hunk(before_hunk, hunk, shift=shift.get(hunk.path, 0))
    lines = split_lines(full)
    start = hunk.old_start + shift.get(hunk.path, 0)
    first, stop = (start + i for i in hunk.added)
    if stop <= first:
        return None
    if kind == "line":
        candidates = list(range(first, stop))
        rng.shuffle(candidates)
        cuts = (line_point_at(rng, hunk.path, language, lines, line) for line in candidates)
    else:
        openers = [i for i in range(max(0, first - 1), stop - 1)]
        rng.shuffle(openers)
        cuts = (block_point_at(hunk.path, language, lines, i) for i in openers)
    for cut in cuts:
        if cut is None:
            continue
        end = cut.line + cut.num_hidden_lines
        if end > stop:
            continue  # rule 3: the hidden lines all from the hunk
        rest = "".join(lines[end:])
        line_break = cut.after[: len(cut.after) - len(rest)]
        point = replace(cut, after=line_break + "".join(lines[stop:]))
        return _Cut(target, point, before_hunk)
    return None


def replay_cut(replay: EditorReplay, files: Files, hunks: Sequence[Hunk], cut: _Cut) -> None:
    """Rule 2 and the typing of rule 4: the earlier hunks, then the point's buffer, as
    editor changes into ``replay``."""
    shift: dict[str, int] = {}
    for hunk in hunks[: cut.target]:
        if not replay.is_open(hunk.path):
            replay.open(hunk.path, "" if hunk.created else files.get(hunk.path, ""))
        text = apply_hunk(replay.text(hunk.path), hunk, shift=shift.get(hunk.path, 0))
        shift[hunk.path] = shift.get(hunk.path, 0) + len(hunk.new) - len(hunk.old)
        replay.change(hunk.path, text)
    path = cut.point.path
    if not replay.is_open(path):
        replay.open(path, cut.typed_from)
    replay.change(path, cut.point.buffer)


def _write_checkout(root: Path, files: Files) -> None:
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    (root / ".git").mkdir(exist_ok=True)  # a project marker, as a clone has


def sample_history_points(
    folders: Sequence[Path], plan: SamplingPlan, config: Config, workdir: Path,
    progress: Callable[[str], None] | None = None,
) -> tuple[list[ReplayedPoint], HistoryReport]:
    """``plan.num_samples`` points pooled over the history corpora ``folders`` (an equal share
    each, the remainder to the first), checkouts written under ``workdir`` (kept while the
    points are used: the index reads them). Points sorted by id."""
    say = progress or (lambda _msg: None)
    report = HistoryReport()
    points: list[ReplayedPoint] = []
    edits = 0
    share, extra = divmod(plan.num_samples, max(1, len(folders)))
    for n, folder in enumerate(folders):
        corpus = load_corpus(folder)
        check_pinned(corpus)
        want = share + (extra if n == 0 else 0)
        commits_before = report.num_commits
        got = _corpus_points(corpus, want, plan, config, workdir / corpus.name, report)
        report.corpora[corpus.name] = len(got)
        report.shortfall += want - len(got)
        points.extend(got)
        edits += sum(len(p.session.recent_edits) for p in got)
        say(f"history {corpus.name}: {len(got)} points from "
            f"{report.num_commits - commits_before} commits")
    report.num_edits_mean = round(edits / len(points), 2) if points else 0.0
    points.sort(key=lambda p: p.point.id)
    return points, report


def _corpus_points(corpus: HistoryCorpus, want: int, plan: SamplingPlan, config: Config,
                   workdir: Path, report: HistoryReport) -> list[ReplayedPoint]:
    states = parent_states(corpus)
    order = list(range(len(states)))
    random.Random(f"{plan.seed}:{corpus.name}").shuffle(order)
    out: list[ReplayedPoint] = []
    for i in order:
        if len(out) >= want:
            break
        commit, files, diff = states[i]
        report.num_commits_tried += 1
        rng = random.Random(f"{plan.seed}:{commit.sha}")
        hunks = ordered_hunks(diff)
        cuts = _commit_cuts(files, hunks, plan, rng, min(MAX_POINTS_PER_COMMIT, want - len(out)))
        if not cuts:
            continue
        root = workdir / commit.sha[:12]
        _write_checkout(root, files)
        index, _ = build_index(root, config)
        resolver = CrossFileResolver(index.snapshot())
        report.num_commits += 1
        for cut in cuts:
            replay = EditorReplay(root, index)
            replay_cut(replay, files, hunks, cut)
            p = cut.point
            names = resolver.names(p.path, p.language, p.before, p.hidden, p.after)
            point = replace(p, id=f"{corpus.name}@{commit.sha[:10]}:{p.id}",
                            cross_names=tuple(names))
            out.append(ReplayedPoint(point, root, index, replay, replay.session(p.path),
                                     commit.sha, cut.target))
    return out


def _commit_cuts(files: Files, hunks: Sequence[Hunk], plan: SamplingPlan, rng: random.Random,
                 limit: int) -> list[_Cut]:
    """Up to ``limit`` cuts of one commit, each on another of its later hunks."""
    targets = [t for t in range(1, len(hunks)) if hunks[t].added[1] > hunks[t].added[0]]
    rng.shuffle(targets)
    cuts: list[_Cut] = []
    for target in targets:
        if len(cuts) >= limit:
            break
        kind = "block" if rng.random() < plan.block_share else "line"
        cut = cut_point(files, hunks, target, kind, rng)
        if cut is not None:
            cuts.append(cut)
    return cuts


def describe(report: HistoryReport) -> dict[str, Any]:
    return {"corpora": report.corpora, "num_commits": report.num_commits,
            "num_commits_tried": report.num_commits_tried,
            "num_edits_mean": report.num_edits_mean, "shortfall": report.shortfall}

"""Write the history corpora of ``nospin eval`` from a repository's git history.

Two commands (docs/quality.md, "Editing sessions from real history"):

``pin``: choose the commits of a first-parent range that change code in two hunks or more
(the replay's points lie in a later hunk) and write the manifest
``bench/corpora/history/<name>.json``: the repository, the kept paths, the base commit, the
commits and the digest of what ``fetch`` writes from them. The manifests are the pinned part
of the corpus.

``fetch``: write the corpus of a manifest into the folder ``<name>/`` beside it (or under
``--out``) and its archive ``<name>.tar.xz`` (``app/evaluation/history.py`` says what a corpus
holds: the kept files at the base commit, one diff per commit), from a clone of the repository
(``--git``; without it the manifest's repository is cloned into a temporary folder), checked
against the manifest's digest::

    python -m bench.history_corpus fetch bench/corpora/history/ky.json --git ky.git

Only files of a tree-sitter language (daemon/languages.py) under the kept paths are kept,
paths matching ``exclude`` left out; the repository's licence files at the base commit go
beside ``base/``. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from app.errors import InputError
from app.evaluation.corpus_archive import pack
from app.evaluation.diffs import parse_diff
from app.evaluation.history import MANIFEST, SCHEMA, ordered_hunks
from daemon.languages import LANGUAGES, detect_language

MAX_DIFF_BYTES = 12_000  # commits with a larger diff of the kept files are passed over


def _git(git_dir: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", "--git-dir", str(git_dir), *args], check=True,
                              capture_output=True, text=True, encoding="utf-8",
                              errors="surrogateescape")
    except subprocess.CalledProcessError as exc:
        raise InputError(f"git {' '.join(args[:2])}: {exc.stderr.strip()}") from exc
    return done.stdout


class Selection:
    """Which files of the repository a corpus keeps."""

    def __init__(self, paths: list[str], exclude: list[str]) -> None:
        self.paths = [p.rstrip("/") for p in paths]
        self.exclude = exclude

    def keeps(self, path: str) -> bool:
        under = any(path == p or path.startswith(p + "/") for p in self.paths) or not self.paths
        return (under and detect_language(path) in LANGUAGES
                and not any(fnmatch.fnmatch(path, pat) for pat in self.exclude))

    def changed(self, git_dir: Path, a: str, b: str) -> list[str]:
        names = _git(git_dir, "diff", "--no-renames", "--name-only", a, b).splitlines()
        return [n for n in names if self.keeps(n)]

    def diff(self, git_dir: Path, a: str, b: str) -> str:
        files = self.changed(git_dir, a, b)
        if not files:
            return ""
        return _git(git_dir, "diff", "--no-renames", "--no-color", "-U3", a, b, "--", *files)


def pin(git_dir: Path, *, name: str, repo: str, rev_range: str, selection: Selection,
        max_commits: int) -> dict[str, Any]:
    """The manifest of the commits of ``rev_range`` (first parent, oldest first) whose diff of
    the kept files has two hunks or more and at most MAX_DIFF_BYTES."""
    revs = _git(git_dir, "rev-list", "--first-parent", "--reverse", rev_range).split()
    commits: list[dict[str, str]] = []
    for n, sha in enumerate(revs):
        if len(commits) >= max_commits:
            break
        parent = _git(git_dir, "rev-parse", f"{sha}^").strip()
        text = selection.diff(git_dir, parent, sha)
        if not text or len(text.encode()) > MAX_DIFF_BYTES:
            continue
        if len(ordered_hunks(parse_diff(text))) < 2:
            continue
        subject = _git(git_dir, "log", "-1", "--format=%s", sha).strip()
        commits.append({"sha": sha, "parent": parent, "subject": subject})
        print(f"pin {name}: {len(commits)} commits of {n + 1} read", file=sys.stderr)
    if not commits:
        raise InputError(f"{rev_range}: no commit changes the kept files in two hunks")
    manifest: dict[str, Any] = {
        "schema": SCHEMA, "name": name, "repo": repo, "paths": selection.paths,
        "exclude": selection.exclude, "base": commits[0]["parent"], "commits": commits,
    }
    with tempfile.TemporaryDirectory() as tmp:
        manifest["digest"] = write_corpus(git_dir, manifest, Path(tmp) / name)
    return manifest


def write_corpus(git_dir: Path, manifest: dict[str, Any], out: Path) -> str:
    """Write the corpus of ``manifest`` into ``out``; returns the digest of what it wrote."""
    selection = Selection(list(manifest["paths"]), list(manifest.get("exclude", [])))
    if (out / MANIFEST).is_file():  # an earlier fetch: written again from scratch
        shutil.rmtree(out)
    digest = hashlib.sha256()
    base = manifest["base"]
    names = [n for n in _git(git_dir, "ls-tree", "-r", "--name-only", base).splitlines()
             if selection.keeps(n)]
    for rel in names:
        data = _git(git_dir, "show", f"{base}:{rel}")
        target = out / "base" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(data, encoding="utf-8", errors="surrogateescape")
        digest.update(rel.encode() + b"\0" + data.encode("utf-8", "surrogateescape"))
    for rel in _git(git_dir, "ls-tree", "--name-only", base).splitlines():
        if fnmatch.fnmatch(rel.upper(), "LICEN[CS]E*") or rel.upper() == "COPYING":
            (out / rel).write_text(_git(git_dir, "show", f"{base}:{rel}"), encoding="utf-8")
    (out / "diffs").mkdir(parents=True, exist_ok=True)
    commits: list[dict[str, str]] = []
    at = base
    for n, c in enumerate(manifest["commits"], start=1):
        entry = {**c, "diff": f"{n:04d}.diff"}
        if c["parent"] != at:
            entry["advance"] = f"{n:04d}.advance.diff"
            _write(out, entry["advance"], selection.diff(git_dir, at, c["parent"]), digest)
        _write(out, entry["diff"], selection.diff(git_dir, c["parent"], c["sha"]), digest)
        commits.append(entry)
        at = c["sha"]
        print(f"fetch {manifest['name']}: {n}/{len(manifest['commits'])} commits",
              file=sys.stderr)
    written = {k: v for k, v in manifest.items() if k != "commits"}
    (out / MANIFEST).write_text(json.dumps({**written, "commits": commits}, indent=1) + "\n",
                                encoding="utf-8")
    return digest.hexdigest()


def _write(out: Path, name: str, text: str, digest: Any) -> None:
    (out / "diffs" / name).write_text(text, encoding="utf-8", errors="surrogateescape")
    digest.update(name.encode() + b"\0" + text.encode("utf-8", "surrogateescape"))


def fetch(manifest_path: Path, out: Path, git_dir: Path | None) -> str:
    """Write the corpus of the manifest at ``manifest_path`` into ``out``; InputError when
    what was written differs from the pinned digest."""
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        if git_dir is None:
            git_dir = Path(tmp) / "repo.git"
            print(f"fetch: cloning {manifest['repo']}", file=sys.stderr)
            subprocess.run(["git", "clone", "--bare", "--quiet", manifest["repo"],
                            str(git_dir)], check=True)
        digest = write_corpus(git_dir, manifest, out)
    if manifest.get("digest") and digest != manifest["digest"]:
        raise InputError(f"{out}: what was written differs from the pinned digest "
                         f"({digest[:12]} against {manifest['digest'][:12]})")
    return digest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.history_corpus",
                                     description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_pin = sub.add_parser("pin", help="choose the commits of a range; write the manifest")
    p_pin.add_argument("--git", type=Path, required=True, help="a clone's git folder")
    p_pin.add_argument("--repo", required=True, help="the repository's public URL")
    p_pin.add_argument("--name", required=True)
    p_pin.add_argument("--range", dest="rev_range", required=True, help="e.g. A..B")
    p_pin.add_argument("--path", dest="paths", action="append", default=[],
                       help="kept folder (repeatable; none: the whole tree)")
    p_pin.add_argument("--exclude", action="append", default=[], metavar="GLOB")
    p_pin.add_argument("--max-commits", type=int, default=60)
    p_pin.add_argument("--manifest", type=Path, required=True, help="where to write it")
    p_fetch = sub.add_parser("fetch", help="write the corpus of a manifest and its archive")
    p_fetch.add_argument("manifest", type=Path)
    p_fetch.add_argument("--out", type=Path, default=None,
                         help="folder of the corpus folder (default: the manifest's folder)")
    p_fetch.add_argument("--git", type=Path, default=None,
                         help="a clone's git folder (default: clone the manifest's repo)")
    args = parser.parse_args(argv)
    try:
        if args.command == "pin":
            git_dir = args.git if (args.git / "objects").is_dir() else args.git / ".git"
            manifest = pin(git_dir, name=args.name, repo=args.repo, rev_range=args.rev_range,
                           selection=Selection(args.paths, args.exclude),
                           max_commits=args.max_commits)
            args.manifest.parent.mkdir(parents=True, exist_ok=True)
            args.manifest.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
            print(f"pin: {len(manifest['commits'])} commits -> {args.manifest}", file=sys.stderr)
        else:
            name = json.loads(args.manifest.read_text(encoding="utf-8"))["name"]
            git_dir = args.git
            if git_dir is not None and not (git_dir / "objects").is_dir():
                git_dir = git_dir / ".git"
            out = (args.out or args.manifest.parent) / name
            digest = fetch(args.manifest, out, git_dir)
            archive = pack(out)
            print(f"fetch: {out} and {archive.name} (digest {digest[:12]}, as pinned)",
                  file=sys.stderr)
    except (InputError, OSError, ValueError, KeyError, subprocess.CalledProcessError) as exc:
        print(f"history_corpus: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

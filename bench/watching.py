"""Watching: the project watcher's CPU while a build, a test run or an install touches the project.

Starts the daemon's ``ProjectWatcher`` (with the project's gitignore rules, as the indexer does)
on ``--root`` or on a generated project: ``src/`` with ``--files`` Python files, and a
``.venv``, a ``node_modules``, a gitignored ``build/`` and a ``.git`` holding ``--dep-files``
files between them. Then runs, each in a child process so that only the watcher's own work is
counted in this process's CPU time:

- ``read``: every file read once (a test run, a grep, an editor's project search);
- ``install``: ``--dep-files`` new files in new folders below the dependency folders, then
  deleted (pip, npm, a build's output);
- ``edit``: ``--edits`` source files rewritten (the changes the index needs; all must arrive).

With ``--root`` (an existing project) only the start and ``read`` run: the other two write
into the project.

Prints per phase the watcher's CPU seconds (``time.process_time`` from the phase's start until
the watcher is idle again), the events watchdog delivered and the batches, plus the kernel
watches it added (``/proc/self/fdinfo``) and the start's CPU. Used for docs/context.md, "Watching".
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: Where generated dependency files go, a share each.
_DEP_FOLDERS = (".venv/lib/site-packages", "node_modules", "build/lib", ".git/objects")
_SETTLE_S = 0.5  # quiet time after a phase before the watcher is asked whether it is idle


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default="",
                        help="an existing project: the start and the read phase only, nothing "
                        "is written there (default: a generated project, deleted after)")
    parser.add_argument("--files", type=int, default=1000, help="generated source files")
    parser.add_argument("--dep-files", type=int, default=8000,
                        help="generated files below dependency folders (and per install)")
    parser.add_argument("--edits", type=int, default=200, help="source files rewritten")


def make_project(root: Path, num_files: int, num_dep_files: int) -> None:
    """A project with ``src/`` (folders of 20 files) and dependency folders (folders of 10)."""
    (root / ".gitignore").write_text("build/\n.venv/\n")
    for i in range(num_files):
        folder = root / "src" / f"pkg{i // 20}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"mod{i % 20}.py").write_text(f"def f{i}(x):\n    return x + {i}\n")
    _write_deps(root, num_dep_files, "dep")


def _write_deps(root: Path, num_files: int, prefix: str) -> None:
    for i in range(num_files):
        base = _DEP_FOLDERS[i % len(_DEP_FOLDERS)]
        folder = root / base / f"{prefix}{i // 40}" / "sub"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{i}.py").write_text("x = 1\n")


def kernel_watches() -> int:
    """inotify watches held by this process (all its inotify descriptors)."""
    total = 0
    for fd in os.listdir("/proc/self/fdinfo"):
        try:
            with open(f"/proc/self/fdinfo/{fd}", encoding="ascii", errors="replace") as fh:
                total += sum(1 for line in fh if line.startswith("inotify wd:"))
        except OSError:
            continue
    return total


def _child(code: str) -> None:
    subprocess.run([sys.executable, "-c", code], check=True)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from daemon.discovery import IgnoreRules
    from daemon.watcher import ChangeSet, ProjectWatcher

    own = not args.root
    root = Path(tempfile.mkdtemp(prefix="nospin-watch-")) if own else Path(args.root)
    try:
        if own:
            make_project(root, args.files, args.dep_files)
        rules = IgnoreRules(root)
        paths: set[str] = set()
        batches: list[ChangeSet] = []

        def on_batch(batch: ChangeSet) -> None:
            batches.append(batch)
            paths.update(batch.paths)

        watcher = ProjectWatcher(
            root, on_batch, ignore=lambda rel, is_dir: rules.is_ignored_path(rel, is_dir=is_dir))
        watches0 = kernel_watches()  # others in this process (tests) are not counted
        cpu0, wall0 = time.process_time(), time.perf_counter()
        watcher.start()
        result: dict[str, Any] = {
            "root": str(root) if not own else "generated",
            "files": args.files, "dep_files": args.dep_files,
            "pruned": getattr(watcher, "pruned", False),
            "start_cpu_s": round(time.process_time() - cpu0, 3),
            "start_s": round(time.perf_counter() - wall0, 3),
            "kernel_watches": kernel_watches() - watches0,
        }
        phases = {
            "read": f"import os\nfor d, _, fs in os.walk({str(root)!r}):\n"
                    "    for f in fs:\n"
                    "        with open(os.path.join(d, f), 'rb') as fh: fh.read()\n",
            "install": f"import sys; sys.path.insert(0, {str(Path(__file__).parent.parent)!r})\n"
                       "from pathlib import Path\nfrom bench.watching import _write_deps\n"
                       f"_write_deps(Path({str(root)!r}), {args.dep_files}, 'new')\n"
                       "import shutil\n"
                       f"for b in {_DEP_FOLDERS!r}:\n"
                       f"    for p in Path({str(root)!r}, b).glob('new*'): shutil.rmtree(p)\n",
            "edit": f"from pathlib import Path\nfiles = sorted(Path({str(root)!r}, 'src').rglob("
                    f"'*.py'))[:{args.edits}]\n"
                    "for p in files: p.write_text(p.read_text() + '# edited\\n')\n",
        }
        if not own:  # the other phases write into the project
            phases = {"read": phases["read"]}
        try:
            for name, code in phases.items():
                time.sleep(_SETTLE_S)
                watcher.wait_idle(60)
                events0 = getattr(watcher, "num_events", None)
                batches0, paths0 = len(batches), len(paths)
                cpu0, wall0 = time.process_time(), time.perf_counter()
                _child(code)
                time.sleep(_SETTLE_S)
                watcher.wait_idle(120)
                events1 = getattr(watcher, "num_events", None)
                result[name] = {
                    "watcher_cpu_s": round(time.process_time() - cpu0, 3),
                    "wall_s": round(time.perf_counter() - wall0, 2),
                    "events": None if events0 is None or events1 is None else events1 - events0,
                    "batches": len(batches) - batches0,
                    "new_paths": len(paths) - paths0,
                }
        finally:
            watcher.stop()
        if "edit" in result:
            result["edit"]["all_edits_seen"] = result["edit"]["new_paths"] >= min(
                args.edits, args.files)
        return result
    finally:
        if own:
            shutil.rmtree(root, ignore_errors=True)

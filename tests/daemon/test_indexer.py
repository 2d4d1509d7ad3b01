"""The indexer: initial scan and watcher batches into a ProjectIndex (real files, real watchdog)."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from daemon.history import EditHistory
from daemon.index import ProjectIndex
from daemon.indexer import BuildReport, IndexerLimits, ProjectIndexer, TextCache
from daemon.parse_worker import WORKER_NICE, Item, TaskResult, WorkerProcess
from daemon.symbols import FileSummary
from daemon.watcher import ChangeSet

TIMEOUT_S = 60.0
MAX_QUEUED_EVENTS = Path("/proc/sys/fs/inotify/max_queued_events")


def wait_for(condition: Callable[[], bool], timeout: float = TIMEOUT_S) -> bool:
    """Poll ``condition`` until it holds; the timeout only bounds a failing test."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


class CountingIndex(ProjectIndex):
    """A ProjectIndex that counts apply() calls and checks each one is a whole batch."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.num_applies = 0
        self.batch_sizes: list[int] = []
        self._count_lock = threading.Lock()

    def apply(self, updates: Mapping[str, FileSummary | None]) -> None:
        with self._count_lock:
            self.num_applies += 1
            self.batch_sizes.append(len(updates))
        super().apply(updates)


def make(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


PROJECT: dict[str, str | bytes] = {
    ".gitignore": "*.log\nsecret/\n",
    "pkg/__init__.py": "",
    "pkg/csvio.py": "import csv\n\n\ndef parse_row(row):\n    return row.split(',')\n",
    "pkg/util.py": "def helper(x):\n    return x\n",
    "web/app.ts": "export function main(): number { return 1 }\n",
    "notes.md": "# notes\n",
    "debug.log": "ignored\n",
    "secret/key.py": "KEY = 1\n",
    "node_modules/lib/index.js": "module.exports = 1\n",
    "image.bin.txt": b"\x00\x01binary",
    "latin.py": "caf\u00e9 = 1\n".encode("latin-1"),
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    make(root, PROJECT)
    return root


@pytest.fixture
def indexer_parts(
    project: Path, caplog: pytest.LogCaptureFixture
) -> Iterator[tuple[ProjectIndexer, CountingIndex, EditHistory]]:
    index = CountingIndex(project)
    history = EditHistory()
    limits = IndexerLimits(max_file_bytes=10_000, workers=0, quiet_ms=150, max_delay_ms=2_000)
    indexer = ProjectIndexer(project, limits, index, history, clock=lambda: 1_000.0)
    yield indexer, index, history
    indexer.stop()
    # a batch that failed is logged by the watcher's thread: it must not happen
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


def test_build_indexes_the_project_and_reports_skips(
    indexer_parts: tuple[ProjectIndexer, CountingIndex, EditHistory],
) -> None:
    indexer, index, _ = indexer_parts
    report = indexer.build()
    assert index.paths() == [
        ".gitignore",
        "notes.md",
        "pkg/__init__.py",
        "pkg/csvio.py",
        "pkg/util.py",
        "web/app.ts",
    ]
    assert report.num_files == 6
    assert report.num_batches == index.num_applies == 1
    summary = index.get("pkg/csvio.py")
    assert summary is not None and [d.name for d in summary.definitions] == ["parse_row"]
    assert summary.language == "python"
    reasons = {r.path: r.reason for r in report.skipped}
    assert reasons == {
        "debug.log": "ignored",
        "secret/": "ignored",
        "node_modules/": "dependencies (node_modules)",
        "image.bin.txt": "binary",
        "latin.py": "not UTF-8",
    }
    assert {p: r.reason for p, r in index.skipped.items()} == reasons
    assert report.skip_reasons()["ignored"] == 2
    assert report.walk_s >= 0 and report.total_s >= report.walk_s


def test_rebuild_drops_files_that_went_away(
    project: Path, indexer_parts: tuple[ProjectIndexer, CountingIndex, EditHistory]
) -> None:
    indexer, index, _ = indexer_parts
    indexer.build()
    (project / "pkg" / "util.py").unlink()
    (project / "latin.py").write_text("fixed = 1\n")
    indexer.build()
    assert "pkg/util.py" not in index.paths()
    assert "latin.py" in index.paths()
    assert "latin.py" not in index.skipped


def test_build_with_a_worker_pool_gives_the_same_index(project: Path) -> None:
    for i in range(450):  # enough files for the pool to be used
        make(project, {f"gen/m{i:03d}.py": f"def f{i}(a: int) -> int:\n    return a + {i}\n"})
    serial = ProjectIndex(project)
    ProjectIndexer(project, IndexerLimits(workers=0), serial).build()
    pooled = ProjectIndex(project)
    report = ProjectIndexer(project, IndexerLimits(workers=2), pooled).build()
    assert report.num_workers == min(2, os.cpu_count() or 1)
    assert pooled.paths() == serial.paths()
    assert all(pooled.get(p) == serial.get(p) for p in serial.paths())
    assert report.parse_s > 0


def test_watching_create_modify_delete_rename(
    project: Path, indexer_parts: tuple[ProjectIndexer, CountingIndex, EditHistory]
) -> None:
    indexer, index, history = indexer_parts
    indexer.start_watching()
    indexer.build()
    indexer.notify_buffer("pkg/csvio.py", (project / "pkg" / "csvio.py").read_text())

    make(project, {"pkg/new.py": "def fresh():\n    pass\n"})
    assert wait_for(lambda: index.get("pkg/new.py") is not None)

    text = (project / "pkg" / "csvio.py").read_text()
    (project / "pkg" / "csvio.py").write_text(text.replace("split(',')", "split(';')"))
    assert wait_for(lambda: "parse_row" in " ".join(history.summary_lines(limit=10)))
    assert "edited `parse_row` in pkg/csvio.py: +1 -1" in history.summary_lines(limit=10)

    (project / "pkg" / "util.py").unlink()
    assert wait_for(lambda: index.get("pkg/util.py") is None)

    (project / "notes.md").rename(project / "README.md")
    assert wait_for(lambda: index.get("README.md") is not None and index.get("notes.md") is None)
    assert indexer.wait_idle(TIMEOUT_S)
    lines = history.summary_lines(limit=10)
    assert "created pkg/new.py: +2" in lines
    assert "renamed notes.md to README.md" in lines
    assert any(line.startswith("deleted pkg/util.py") for line in lines)


def test_changes_before_and_during_the_build_are_applied_after_it(
    project: Path, indexer_parts: tuple[ProjectIndexer, CountingIndex, EditHistory]
) -> None:
    """The daemon starts watching, then scans: what changes meanwhile waits for the scan and is
    then applied once, a file the scan read after its change included (no second record)."""
    indexer, index, history = indexer_parts
    indexer.start_watching()
    make(project, {"pkg/util.py": "def helper(x):\n    return x + 1\n"})  # before the scan
    time.sleep(0.5)  # well past the quiet period: a batch would be taken now
    assert index.num_applies == 0  # it waits for the build

    scan = indexer._build
    scanned: dict[str, FileSummary | None] = {}

    def build_then_save() -> BuildReport:
        report = scan()  # the scan has read every file: these changes come after it
        scanned["pkg/csvio.py"] = index.get("pkg/csvio.py")
        text = (project / "pkg" / "csvio.py").read_text()
        (project / "pkg" / "csvio.py").write_text(text.replace("split(',')", "split(';')"))
        make(project, {"late.py": "def late_def():\n    pass\n"})
        time.sleep(0.5)
        assert index.num_applies == report.num_batches  # nothing applied during the build
        return report

    indexer._build = build_then_save  # type: ignore[method-assign]
    indexer.build()
    assert wait_for(lambda: index.get("late.py") is not None)
    assert indexer.wait_idle(TIMEOUT_S)
    late = index.get("late.py")
    assert late is not None and [d.name for d in late.definitions] == ["late_def"]
    csvio, old = index.get("pkg/csvio.py"), scanned["pkg/csvio.py"]
    assert csvio is not None and old is not None and csvio.digest != old.digest  # re-read
    util = index.get("pkg/util.py")
    assert util is not None and util.definitions[0].name == "helper"
    lines = history.summary_lines(limit=10)
    assert "edited `parse_row` in pkg/csvio.py: +1 -1" in lines
    assert "created late.py: +2" in lines
    assert not [line for line in lines if "pkg/util.py" in line], lines  # scanned after it


def test_folder_moves_deletes_and_vanishing_files(
    project: Path, indexer_parts: tuple[ProjectIndexer, CountingIndex, EditHistory]
) -> None:
    indexer, index, history = indexer_parts
    indexer.start_watching()
    indexer.build()
    (project / "pkg").rename(project / "lib")
    assert wait_for(
        lambda: index.get("lib/csvio.py") is not None and index.get("pkg/csvio.py") is None
    )
    assert indexer.wait_idle(TIMEOUT_S)
    assert not any(p.startswith("pkg/") for p in index.paths())
    assert "renamed pkg/ to lib/" in history.summary_lines(limit=10)

    # a folder created with files in it (as git does) and a file that vanishes at once
    make(project, {"new/a/b.py": "B = 1\n", "new/c.py": "C = 1\n"})
    make(project, {"flash.py": "x = 1\n"})
    (project / "flash.py").unlink()
    assert wait_for(
        lambda: index.get("new/a/b.py") is not None and index.get("new/c.py") is not None
    )
    assert indexer.wait_idle(TIMEOUT_S)
    assert index.get("flash.py") is None

    for path in sorted((project / "lib").rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    (project / "lib").rmdir()
    assert wait_for(lambda: not any(p.startswith("lib/") for p in index.paths()))


def test_ignored_skipped_and_too_large_files_while_watching(
    project: Path, indexer_parts: tuple[ProjectIndexer, CountingIndex, EditHistory]
) -> None:
    indexer, index, _ = indexer_parts
    indexer.start_watching()
    indexer.build()
    make(
        project,
        {
            "trace.log": "ignored",
            "secret/more.py": "ignored folder",
            "node_modules/x/y.js": "dropped by the watcher",
            "huge.py": "x = 1\n" * 5_000,
            "blob.txt": b"\x00" * 10,
            "venv2/pyvenv.cfg": "home = /usr",
            "venv2/lib/site.py": "x = 1",
            "ok.py": "OK = 1\n",
        },
    )
    assert wait_for(lambda: index.get("ok.py") is not None)
    assert wait_for(lambda: "huge.py" in index.skipped and "blob.txt" in index.skipped)
    assert indexer.wait_idle(TIMEOUT_S)
    assert index.skipped["huge.py"].reason == "too large (30.0 KB > 10.0 KB)"
    assert index.skipped["blob.txt"].reason == "binary"
    assert index.skipped["venv2/"].reason == "virtual environment"
    paths = index.paths()
    for rel in ("trace.log", "secret/more.py", "node_modules/x/y.js", "venv2/lib/site.py"):
        assert rel not in paths

    # a file that grows too large leaves the index
    (project / "pkg" / "util.py").write_text("x = 1\n" * 5_000)
    assert wait_for(lambda: index.get("pkg/util.py") is None)
    assert index.skipped["pkg/util.py"].reason.startswith("too large")


EDITOR_LEFTOVERS = ("pkg/csvio.py~", "pkg/.csvio.py.swp", "pkg/#csvio.py#", "pkg/4913",
                    "pkg/csvio.py___jb_tmp___", "pkg/csvio.py___jb_old___", "pkg/save.tmp",
                    "pkg/csvio.py.orig")


def test_editor_backup_and_temporary_files_stay_out_of_index_and_history(
    project: Path, indexer_parts: tuple[ProjectIndexer, CountingIndex, EditHistory]
) -> None:
    """Saving in Vim, Emacs or a JetBrains IDE writes backups, swap files and temporary copies
    next to the file: they were indexed, came and went in the edit history ("created
    pkg/csvio.py~") and lent stale code to retrieval."""
    indexer, index, history = indexer_parts
    make(project, {"pkg/old.py~": "def stale():\n    pass\n"})  # there before the scan
    indexer.start_watching()
    indexer.build()
    assert index.skipped["pkg/old.py~"].reason == "editor backup or temporary file"
    text = (project / "pkg" / "csvio.py").read_text()
    make(project, {rel: text for rel in EDITOR_LEFTOVERS})
    make(project, {"pkg/after.py": "AFTER = 1\n"})
    assert wait_for(lambda: index.get("pkg/after.py") is not None)
    for rel in EDITOR_LEFTOVERS:
        (project / rel).unlink()
    make(project, {"pkg/last.py": "LAST = 1\n"})
    assert wait_for(lambda: index.get("pkg/last.py") is not None)
    assert indexer.wait_idle(TIMEOUT_S)
    lines = " ".join(history.summary_lines(limit=50))
    for rel in (*EDITOR_LEFTOVERS, "pkg/old.py~"):
        assert rel not in index.paths() and rel not in lines, rel
    assert "created pkg/after.py" in lines  # the watcher was watching all along


def test_gitignore_changes_reload_the_rules(
    project: Path, indexer_parts: tuple[ProjectIndexer, CountingIndex, EditHistory]
) -> None:
    indexer, index, _ = indexer_parts
    indexer.start_watching()
    indexer.build()
    assert index.get("debug.log") is None
    (project / ".gitignore").write_text("web/\n")  # un-ignores *.log and secret/, ignores web/
    assert wait_for(
        lambda: (
            index.get("debug.log") is not None
            and index.get("secret/key.py") is not None
            and index.get("web/app.ts") is None
        )
    )
    assert indexer.wait_idle(TIMEOUT_S)
    assert index.skipped.get("web/") is not None
    assert "secret/" not in index.skipped and "debug.log" not in index.skipped
    # secret/ was not watched while ignored; now it is, so a new file there is seen
    (project / "secret" / "later.py").write_text("LATER = 1\n")
    assert wait_for(lambda: index.get("secret/later.py") is not None)

    (project / "pkg" / ".gitignore").write_text("util.py\n")  # a nested .gitignore
    assert wait_for(lambda: index.get("pkg/util.py") is None)
    assert index.get("pkg/csvio.py") is not None


def test_a_burst_of_2000_changes_is_a_few_applies(
    project: Path, indexer_parts: tuple[ProjectIndexer, CountingIndex, EditHistory]
) -> None:
    """A branch switch: thousands of files written, changed and deleted end in one consistent
    index after a handful of apply() calls, not one per file."""
    indexer, index, history = indexer_parts
    make(project, {f"old/m{i:04d}.py": f"OLD_{i} = {i}\n" for i in range(600)})
    indexer.start_watching()
    indexer.build()
    applies_before = index.num_applies
    history_before = len(history)

    for i in range(2_000):
        make(project, {f"src/m{i:04d}.py": f"def f{i}(a):\n    return a + {i}\n"})
    for i in range(600):
        if i % 2:
            (project / "old" / f"m{i:04d}.py").unlink()
        else:
            make(project, {f"old/m{i:04d}.py": f"NEW_{i} = {i}\n"})

    def consistent() -> bool:
        paths = set(index.paths())
        return all(f"src/m{i:04d}.py" in paths for i in range(2_000)) and all(
            (f"old/m{i:04d}.py" in paths) == (i % 2 == 0) for i in range(600)
        )

    assert wait_for(consistent)
    assert indexer.wait_idle(TIMEOUT_S)
    assert consistent()
    summary = index.get("old/m0002.py")
    assert summary is not None and summary.definitions and summary.definitions[0].name == "NEW_2"
    num_applies = index.num_applies - applies_before
    assert 1 <= num_applies <= 6, index.batch_sizes
    assert len(history) == history_before  # a checkout is not the user's editing


def test_apply_changes_directly_with_missing_paths(
    project: Path, indexer_parts: tuple[ProjectIndexer, CountingIndex, EditHistory]
) -> None:
    indexer, index, _ = indexer_parts
    indexer.build()
    before = index.num_applies
    indexer.apply_changes(ChangeSet(paths={"does/not/exist.py", "pkg/csvio.py"}, num_events=2))
    assert index.num_applies == before  # nothing changed: no apply at all
    (project / "pkg" / "csvio.py").unlink()
    indexer.apply_changes(ChangeSet(paths={"pkg/csvio.py"}, gone_dirs={"nothing"}, num_events=2))
    assert index.get("pkg/csvio.py") is None
    assert index.num_applies == before + 1


def test_notify_buffer_feeds_history_and_dedupes_the_save(
    project: Path, indexer_parts: tuple[ProjectIndexer, CountingIndex, EditHistory]
) -> None:
    indexer, index, history = indexer_parts
    indexer.build()
    path = project / "pkg" / "util.py"
    text = path.read_text()
    indexer.notify_buffer(str(path), text)  # opened: seeds the cache only
    assert len(history) == 0
    edited = text.replace("return x", "return x * 2")
    indexer.notify_buffer("pkg/util.py", edited, when=5.0)
    assert history.summary_lines(limit=5) == ["edited `helper` in pkg/util.py: +1 -1"]
    path.write_text(edited)  # the user saves: the watcher's batch must not record it again
    indexer.apply_changes(ChangeSet(paths={"pkg/util.py"}, num_events=1))
    assert len(history) == 1
    assert index.get("pkg/util.py") is not None


def test_text_cache_is_bounded() -> None:
    cache = TextCache(max_file_bytes=10, max_total_bytes=25)
    cache.put("a", "x" * 10)
    cache.put("b", "y" * 10)
    cache.put("too_big", "z" * 11)
    assert cache.get("too_big") is None
    assert cache.get("a") == "x" * 10  # a is now the most recently used
    cache.put("c", "w" * 10)  # over 25: b (least recently used) goes
    assert cache.get("b") is None
    assert cache.get("a") is not None and cache.get("c") is not None
    assert cache.total_chars == 20
    cache.move("a", "d")
    assert cache.get("a") is None and cache.get("d") == "x" * 10


def test_build_batches_grow_with_the_index(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each build batch is more than a quarter of the index (linear-time table rebuilds) and the
    index is usable before the build ends."""
    monkeypatch.setattr("daemon.indexer._BUILD_BATCH_FILES", 10)
    make(project, {f"gen/m{i:03d}.py": f"X{i} = {i}\n" for i in range(150)})
    index = CountingIndex(project)
    report = ProjectIndexer(project, IndexerLimits(workers=0), index).build()
    assert report.num_files == 156
    assert index.num_applies >= 3
    size = 0
    for batch in index.batch_sizes:
        assert batch > size // 4
        size += batch
    assert size == 156


class DyingWorker(WorkerProcess):
    """A worker process that is killed before its first task."""

    def run(self, items: Sequence[Item], max_bytes: int) -> TaskResult:
        self._proc.kill()
        self._proc.wait()
        return super().run(items, max_bytes)


def test_worker_processes_and_their_failure(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    worker = WorkerProcess()
    try:
        results, _, _ = worker.run(
            [
                (str(project / "pkg" / "util.py"), "pkg/util.py", True),
                (str(project / "no.py"), "no.py", True),
            ],
            10_000,
        )
    finally:
        worker.close()
    assert results[0].summary is not None and results[0].text == "def helper(x):\n    return x\n"
    assert (results[1].summary, results[1].skip_reason) == (None, "vanished")

    monkeypatch.setattr("daemon.indexer.WorkerProcess", DyingWorker)
    monkeypatch.setattr("daemon.indexer._POOL_MIN_FILES", 1)
    index = ProjectIndex(project)
    report = ProjectIndexer(project, IndexerLimits(workers=2), index).build()
    assert report.num_files == 6  # parsed on the calling thread instead
    assert index.get("pkg/csvio.py") is not None


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="Unix process priorities")
def test_worker_processes_run_below_the_daemon(project: Path) -> None:
    """They share the cores with the engine: at the same priority its prefill ran 4x slower."""
    own = os.getpriority(os.PRIO_PROCESS, 0)
    workers = [WorkerProcess(), WorkerProcess(nice=0)]
    try:
        for worker in workers:  # once a task is answered, the worker has set its priority
            worker.run([(str(project / "pkg" / "util.py"), "pkg/util.py", False)], 10_000)
        niceness = [os.getpriority(os.PRIO_PROCESS, w.pid) for w in workers]
    finally:
        for worker in workers:
            worker.close()
    assert niceness == [min(19, own + WORKER_NICE), own]


def test_the_build_keeps_texts_so_the_first_save_has_a_diff(
    project: Path, indexer_parts: tuple[ProjectIndexer, CountingIndex, EditHistory]
) -> None:
    indexer, _, history = indexer_parts
    indexer.build()
    path = project / "pkg" / "util.py"
    path.write_text(path.read_text().replace("return x", "return x + 1"))
    indexer.apply_changes(ChangeSet(paths={"pkg/util.py"}, num_events=1))
    assert history.summary_lines(limit=5) == ["edited `helper` in pkg/util.py: +1 -1"]
    [hunk] = history.latest_hunks(5)
    assert "-    return x\n+    return x + 1\n" in hunk


def test_an_overflow_batch_rechecks_the_whole_tree(
    project: Path, indexer_parts: tuple[ProjectIndexer, CountingIndex, EditHistory]
) -> None:
    """A batch that says the kernel dropped events names no path: every file is re-checked."""
    indexer, index, _ = indexer_parts
    indexer.build()
    make(project, {"pkg/util.py": "def unseen_save():\n    pass\n", "unseen_new.py": "U = 1\n"})
    (project / "notes.md").unlink()
    indexer.apply_changes(ChangeSet(overflowed=True, num_events=1))
    util = index.get("pkg/util.py")
    assert util is not None and [d.name for d in util.definitions] == ["unseen_save"]
    assert index.get("unseen_new.py") is not None and index.get("notes.md") is None


@contextmanager
def inotify_reader_blocked(indexer: ProjectIndexer) -> Iterator[None]:
    """Stops the watcher's inotify reading thread, as a starved daemon would be: it takes
    watchdog's InotifyFD lock after each read of at most 2,048 events, and waits for it here."""
    observer = indexer._watcher._observer  # type: ignore[union-attr]
    with observer._inotify_fd._lock:  # type: ignore[union-attr]
        yield


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not MAX_QUEUED_EVENTS.exists()
    or int(MAX_QUEUED_EVENTS.read_text()) > 200_000,
    reason="needs Linux inotify with a queue that a test can overflow",
)
def test_a_save_lost_in_an_inotify_queue_overflow_is_recovered(
    project: Path, indexer_parts: tuple[ProjectIndexer, CountingIndex, EditHistory]
) -> None:
    """A build writes thousands of gitignored files while the daemon gets no CPU: the kernel's
    queue overflows and drops the events after it, a source file's save among them."""
    indexer, index, _ = indexer_parts
    make(project, {".gitignore": "*.log\nsecret/\n*.o\n"})
    indexer.start_watching()
    indexer.build()
    assert indexer._watcher is not None and indexer._watcher.pruned
    flood = int(MAX_QUEUED_EVENTS.read_text()) + 2_048 + 4_096
    objects = [os.open(project / "pkg" / f"{n}.o", os.O_WRONLY | os.O_CREAT) for n in "ab"]
    try:
        with inotify_reader_blocked(indexer):
            for i in range(flood):  # alternating files: the kernel merges no two events
                os.write(objects[i % 2], b"x")
            make(project, {"pkg/util.py": "def saved_during_flood():\n    pass\n"})
    finally:
        for fd in objects:
            os.close(fd)

    def names() -> list[str]:
        summary = index.get("pkg/util.py")
        return [d.name for d in summary.definitions] if summary is not None else []

    assert wait_for(lambda: names() == ["saved_during_flood"])
    assert indexer._watcher.num_overflows >= 1  # the save was lost, not delivered


def test_a_marker_that_changes_whether_a_folder_is_skipped_rechecks_the_tree(
    project: Path, indexer_parts: tuple[ProjectIndexer, CountingIndex, EditHistory]
) -> None:
    """A venv's pyvenv.cfg written after its files were indexed left them in the index, and an
    out/ that became a package kept its earlier files out, until a restart's scan."""
    indexer, index, _ = indexer_parts
    make(project, {"venv2/lib/late.py": "def late_venv_fn():\n    pass\n",
                   "cached/x.py": "def cached_fn():\n    pass\n",
                   "out/helpers.py": "def out_helper():\n    pass\n"})
    indexer.build()
    assert index.get("venv2/lib/late.py") is not None and index.get("out/helpers.py") is None
    make(project, {"venv2/pyvenv.cfg": "home = /usr\n", "cached/CACHEDIR.TAG": "Signature\n",
                   "out/__init__.py": ""})
    indexer.apply_changes(ChangeSet(paths={"venv2/pyvenv.cfg", "cached/CACHEDIR.TAG",
                                           "out/__init__.py"}, num_events=3))
    assert index.get("venv2/lib/late.py") is None and index.get("cached/x.py") is None
    assert index.get("out/helpers.py") is not None and index.get("out/__init__.py") is not None


def test_which_files_can_change_whether_their_folder_is_skipped() -> None:
    from daemon.discovery import changes_folder_skip

    for rel in ("venv2/pyvenv.cfg", "a/CACHEDIR.TAG", "out/__init__.py", "Cargo.toml",
                "venv/bin/activate", "env/Scripts/activate.bat"):
        assert changes_folder_skip(rel), rel
    for rel in ("pkg/__init__.py", "src/util.py", "tools/bin/activate", "README.md"):
        assert not changes_folder_skip(rel), rel


@pytest.mark.parametrize(
    ("rel", "before", "after", "qualname", "line"),
    [
        (
            "src/main/java/acme/Shapes.java",
            "package acme;\n\npublic class Shapes {\n"
            "    static double area(double w, double h) {\n        return w * h;\n    }\n}\n",
            "package acme;\n\npublic class Shapes {\n"
            "    static double area(double w, double h) {\n        return w * h;\n    }\n\n"
            "    /** Twice the sum of the sides. */\n"
            "    static double perimeter(double w, double h) {\n        return 2 * (w + h);\n"
            "    }\n}\n",
            "Shapes.perimeter",
            "edited `Shapes.perimeter` in src/main/java/acme/Shapes.java: +5 -0",
        ),
        (
            "lib/shapes.c",
            '#include "shapes.h"\n\ndouble area(double w, double h) {\n    return w * h;\n}\n',
            '#include "shapes.h"\n\ndouble area(double w, double h) {\n    return w * h;\n}\n\n'
            "double perimeter(double w, double h) {\n    return 2 * (w + h);\n}\n",
            "perimeter",
            "edited `perimeter` in lib/shapes.c: +4 -0",
        ),
        (
            "lib/shapes.h",
            "#pragma once\n\ndouble area(double w, double h);\n",
            "#pragma once\n\ndouble area(double w, double h);\n"
            "/** Twice the sum of the sides. */\ndouble perimeter(double w, double h);\n",
            "perimeter",
            "edited `perimeter` in lib/shapes.h: +2 -0",
        ),
    ],
    ids=["java", "c", "h"],
)
def test_a_saved_java_c_or_header_file_is_indexed_again(
    tmp_path: Path, rel: str, before: str, after: str, qualname: str, line: str
) -> None:
    """The real watcher: a save of a .java, .c or .h file (as of a .py file) re-parses it into
    the index and records the edit in the history."""
    root = tmp_path / "proj"
    make(root, {rel: before})
    index, history = ProjectIndex(root), EditHistory()
    limits = IndexerLimits(max_file_bytes=10_000, workers=0, quiet_ms=150, max_delay_ms=2_000)
    indexer = ProjectIndexer(root, limits, index, history, clock=lambda: 1_000.0)
    try:
        indexer.start_watching()
        indexer.build()
        summary = index.get(rel)
        assert summary is not None and qualname not in [d.qualname for d in summary.definitions]
        (root / rel).write_text(after)

        def indexed() -> bool:
            saved = index.get(rel)
            return saved is not None and qualname in [d.qualname for d in saved.definitions]

        assert wait_for(indexed)
        assert indexer.wait_idle(TIMEOUT_S)
        assert history.summary_lines(limit=5) == [line]
    finally:
        indexer.stop()

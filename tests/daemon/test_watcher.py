"""The watcher: coalescing of events into batches, with a real watchdog observer."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from daemon.watcher import ChangeQueue, ChangeSet, ProjectWatcher

TIMEOUT_S = 30.0


def wait_for(condition: Callable[[], bool], timeout: float = TIMEOUT_S) -> bool:
    """Poll ``condition`` until it holds; the timeout only bounds a failing test."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_queue_dedupes_and_keeps_renames() -> None:
    queue = ChangeQueue(quiet_s=0.01, max_delay_s=5)
    for _ in range(3):
        queue.add_file("a.py")
    queue.add_move("b.py", "c.py")
    queue.add_move("c.py", "d.py")  # b -> c -> d is one rename b -> d
    queue.add_move("e.py", None)  # moved out of the project
    queue.add_dir("new", gone=False)
    queue.add_dir_move("old_dir", "new_dir")
    batch = queue.take()
    assert batch is not None
    assert batch.paths == {"a.py", "b.py", "c.py", "d.py", "e.py"}
    assert batch.renames == {"d.py": "b.py"}
    assert batch.new_dirs == {"new", "new_dir"}
    assert batch.gone_dirs == {"old_dir"}
    assert batch.dir_renames == {"new_dir": "old_dir"}
    assert batch.num_events == 8
    assert not batch.ignore_rules_changed


def test_queue_waits_for_quiet_then_max_delay() -> None:
    clock = FakeClock()
    queue = ChangeQueue(quiet_s=1.0, max_delay_s=3.0, clock=clock)
    batches: list[ChangeSet | None] = []
    taken = threading.Event()

    def consumer() -> None:
        batches.append(queue.take())
        taken.set()

    queue.add_file("a.py")
    thread = threading.Thread(target=consumer)
    thread.start()
    # events keep coming every 0.5 s: the quiet period never ends, the max delay does
    for step in range(1, 7):
        clock.now = step * 0.5
        queue.add_file(f"f{step}.py")
        if clock.now < 3.0:
            assert not taken.wait(0.05)
    assert taken.wait(TIMEOUT_S)
    thread.join()
    [batch] = batches
    assert batch is not None
    assert batch.paths == {"a.py", "f1.py", "f2.py", "f3.py", "f4.py", "f5.py", "f6.py"}
    assert batch.num_events == 7


def taking(queue: ChangeQueue) -> tuple[list[ChangeSet | None], threading.Event,
                                          threading.Thread]:
    """A thread blocked in ``queue.take()``: (what it took, set once it has, the thread)."""
    result: list[ChangeSet | None] = []
    done = threading.Event()

    def consumer() -> None:
        result.append(queue.take())
        done.set()

    thread = threading.Thread(target=consumer)
    thread.start()
    return result, done, thread


def test_queue_take_returns_after_quiet_period() -> None:
    clock = FakeClock()
    queue = ChangeQueue(quiet_s=1.0, max_delay_s=10.0, clock=clock)
    result, done, thread = taking(queue)
    queue.add_file("a.py")
    assert not done.wait(0.05)  # not quiet yet (the fake clock stands still)
    clock.now = 1.0
    queue.add_ignore_change()  # an event at t=1 wakes the consumer; quiet ends at t=2
    assert not done.wait(0.05)
    clock.now = 2.5
    with queue._cond:  # let the consumer re-check the clock
        queue._cond.notify_all()
    assert done.wait(TIMEOUT_S)
    thread.join()
    assert result[0] is not None and result[0].ignore_rules_changed


def test_a_held_queue_collects_and_hands_out_on_release() -> None:
    clock = FakeClock()
    queue = ChangeQueue(quiet_s=1.0, max_delay_s=3.0, clock=clock)
    queue.hold()
    result, done, thread = taking(queue)
    queue.add_file("a.py")
    clock.now = 10.0  # quiet long since, max delay long past: still held
    queue.add_file("b.py")
    clock.now = 20.0
    with queue._cond:
        queue._cond.notify_all()
    assert not done.wait(0.1)
    assert not queue.wait_idle(0.05)  # held events are not processed yet
    queue.release()
    assert done.wait(TIMEOUT_S)
    thread.join()
    assert result[0] is not None and result[0].paths == {"a.py", "b.py"}


def test_queue_flags_an_overflow() -> None:
    queue = ChangeQueue(quiet_s=0.01, max_delay_s=5)
    queue.add_overflow()
    queue.add_file("a.py")
    batch = queue.take()
    assert batch is not None and batch.overflowed and batch.paths == {"a.py"}
    queue.add_file("b.py")
    batch = queue.take()
    assert batch is not None and not batch.overflowed


def test_queue_close_releases_the_consumer() -> None:
    queue = ChangeQueue()
    result: list[ChangeSet | None] = []
    thread = threading.Thread(target=lambda: result.append(queue.take()))
    thread.start()
    queue.close()
    thread.join(TIMEOUT_S)
    assert result == [None]
    assert queue.wait_idle(1.0)


class Collector:
    """Collects the batches a ProjectWatcher delivers."""

    def __init__(self) -> None:
        self.batches: list[ChangeSet] = []
        self.lock = threading.Lock()

    def __call__(self, batch: ChangeSet) -> None:
        with self.lock:
            self.batches.append(batch)

    def paths(self) -> set[str]:
        with self.lock:
            return set().union(*(b.paths for b in self.batches)) if self.batches else set()

    def merged(self) -> ChangeSet:
        with self.lock:
            out = ChangeSet()
            for b in self.batches:
                out.paths |= b.paths
                out.renames.update(b.renames)
                out.dir_renames.update(b.dir_renames)
                out.gone_dirs |= b.gone_dirs
                out.new_dirs |= b.new_dirs
                out.ignore_rules_changed |= b.ignore_rules_changed
            return out


def test_watcher_reports_creates_changes_deletes_and_moves(tmp_path: Path) -> None:
    (tmp_path / "keep.py").write_text("k")
    (tmp_path / "old.py").write_text("o")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "inner.py").write_text("i")
    collector = Collector()
    watcher = ProjectWatcher(tmp_path, collector, quiet_s=0.1, max_delay_s=1.0)
    watcher.start()
    try:
        (tmp_path / "new.py").write_text("n")
        (tmp_path / "keep.py").write_text("k2")
        (tmp_path / "old.py").rename(tmp_path / "renamed.py")
        (tmp_path / "sub").rename(tmp_path / "moved")
        (tmp_path / ".gitignore").write_text("*.log\n")
        assert wait_for(
            lambda: (
                {"new.py", "keep.py", "old.py", "renamed.py"} <= collector.paths()
                and "moved" in collector.merged().new_dirs
                and collector.merged().ignore_rules_changed
            )
        )
        merged = collector.merged()
        assert merged.renames.get("renamed.py") == "old.py"
        assert merged.dir_renames == {"moved": "sub"}
        assert "sub" in merged.gone_dirs
        (tmp_path / "new.py").unlink()
        assert wait_for(lambda: sum("new.py" in b.paths for b in collector.batches) >= 2)
        assert watcher.wait_idle(TIMEOUT_S)
    finally:
        watcher.stop()


def test_watcher_drops_events_in_skipped_folders(tmp_path: Path) -> None:
    for folder in (".git", "node_modules/pkg", "__pycache__"):
        (tmp_path / folder).mkdir(parents=True)
    collector = Collector()
    watcher = ProjectWatcher(tmp_path, collector, quiet_s=0.05, max_delay_s=1.0)
    watcher.start()
    try:
        (tmp_path / ".git" / "index").write_text("x")
        (tmp_path / "node_modules" / "pkg" / "index.js").write_text("x")
        (tmp_path / "__pycache__" / "m.pyc").write_bytes(b"x")
        (tmp_path / "marker.py").write_text("m")  # written last: when it arrives, all did
        assert wait_for(lambda: "marker.py" in collector.paths())
        assert watcher.wait_idle(TIMEOUT_S)
        assert collector.paths() == {"marker.py"}
    finally:
        watcher.stop()


def test_a_burst_of_thousands_of_events_is_a_few_batches(tmp_path: Path) -> None:
    collector = Collector()
    watcher = ProjectWatcher(tmp_path, collector, quiet_s=0.3, max_delay_s=3.0)
    watcher.start()
    try:
        for i in range(2_500):
            (tmp_path / f"f{i:04d}.py").write_text(f"x = {i}\n")
        assert wait_for(lambda: len(collector.paths()) == 2_500)
        assert watcher.wait_idle(TIMEOUT_S)
        assert 1 <= len(collector.batches) <= 5, len(collector.batches)
    finally:
        watcher.stop()


def test_a_failing_callback_does_not_stop_the_watcher(tmp_path: Path) -> None:
    seen: list[ChangeSet] = []

    def on_batch(batch: ChangeSet) -> None:
        seen.append(batch)
        if len(seen) == 1:
            raise RuntimeError("boom")

    watcher = ProjectWatcher(tmp_path, on_batch, quiet_s=0.05, max_delay_s=1.0)
    watcher.start()
    try:
        (tmp_path / "a.py").write_text("a")
        assert wait_for(lambda: len(seen) >= 1)
        assert watcher.wait_idle(TIMEOUT_S)
        (tmp_path / "b.py").write_text("b")
        assert wait_for(lambda: any("b.py" in b.paths for b in seen))
    finally:
        watcher.stop()


def test_watcher_drops_ignored_paths_but_not_gitignore_files(tmp_path: Path) -> None:
    collector = Collector()

    def ignore(rel: str, is_dir: bool) -> bool:
        return rel.endswith(".log") or rel.startswith("out") or rel == ".gitignore"

    watcher = ProjectWatcher(tmp_path, collector, quiet_s=0.05, max_delay_s=1.0, ignore=ignore)
    watcher.start()
    try:
        (tmp_path / "debug.log").write_text("x")
        (tmp_path / "out").mkdir()
        (tmp_path / "out" / "x.py").write_text("x")
        (tmp_path / ".gitignore").write_text("*.log\n")  # never dropped: it changes the rules
        (tmp_path / "marker.py").write_text("m")
        assert wait_for(lambda: "marker.py" in collector.paths())
        assert watcher.wait_idle(TIMEOUT_S)
        merged = collector.merged()
        assert merged.paths == {".gitignore", "marker.py"}
        assert merged.new_dirs == set()
        assert merged.ignore_rules_changed
    finally:
        watcher.stop()


def test_reading_files_reports_nothing(tmp_path: Path) -> None:
    for i in range(50):
        (tmp_path / f"m{i}.py").write_text("x = 1\n")
    collector = Collector()
    watcher = ProjectWatcher(tmp_path, collector, quiet_s=0.05, max_delay_s=1.0)
    watcher.start()
    try:
        for _ in range(4):  # 200 opens and closes, as a test run or a build does
            for i in range(50):
                (tmp_path / f"m{i}.py").read_text()
        (tmp_path / "marker.py").write_text("m")
        assert wait_for(lambda: "marker.py" in collector.paths())
        assert watcher.wait_idle(TIMEOUT_S)
        assert watcher.num_events <= 5, watcher.num_events  # the marker's create/modify/close
    finally:
        watcher.stop()


def test_skipped_and_ignored_folders_are_not_watched(tmp_path: Path) -> None:
    for folder in (".git/info", ".git/objects/ab", "node_modules/pkg", ".venv/lib", "gen", "src"):
        (tmp_path / folder).mkdir(parents=True)
    collector = Collector()
    ignored = {"gen"}
    watcher = ProjectWatcher(tmp_path, collector, quiet_s=0.05, max_delay_s=1.0,
                             ignore=lambda rel, is_dir: rel.split("/")[0] in ignored)
    watcher.start()
    try:
        assert watcher.pruned
        (tmp_path / ".git" / "objects" / "ab" / "cdef").write_bytes(b"x")
        (tmp_path / "node_modules" / "pkg" / "index.js").write_text("x")
        (tmp_path / ".venv" / "lib" / "site.py").write_text("x")
        (tmp_path / "gen" / "out.py").write_text("x")
        # a new folder with a skipped one inside: the new one is watched, the skipped one not
        (tmp_path / "src" / "new" / "node_modules" / "dep").mkdir(parents=True)
        (tmp_path / "src" / "new" / "node_modules" / "dep" / "a.js").write_text("x")
        (tmp_path / "src" / "new" / "b.py").write_text("x")
        assert wait_for(lambda: "src/new/b.py" in collector.paths())
        assert watcher.wait_idle(TIMEOUT_S)
        n = watcher.num_events
        for i in range(20):  # nothing below a skipped or ignored folder reaches the handler
            (tmp_path / "node_modules" / "pkg" / f"f{i}.js").write_text("x")
            (tmp_path / "src" / "new" / "node_modules" / "dep" / f"f{i}.js").write_text("x")
            (tmp_path / "gen" / f"f{i}.py").write_text("x")
        (tmp_path / ".git" / "info" / "exclude").write_text("*.tmp\n")  # .git/info is watched
        assert wait_for(lambda: collector.merged().ignore_rules_changed)
        assert watcher.wait_idle(TIMEOUT_S)
        assert watcher.num_events - n <= 5, watcher.num_events - n
        assert "gen/out.py" not in collector.paths()

        ignored.clear()  # the rules changed: gen/ is watched once the watcher walks again
        watcher.rewatch()
        (tmp_path / "gen" / "later.py").write_text("x")
        assert wait_for(lambda: "gen/later.py" in collector.paths())
    finally:
        watcher.stop()


def test_elsewhere_watchdogs_own_observer_watches_and_the_handler_drops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "node_modules" / "pkg").mkdir(parents=True)
    monkeypatch.setattr(sys, "platform", "darwin")  # no pruned inotify observer there
    collector = Collector()
    watcher = ProjectWatcher(tmp_path, collector, quiet_s=0.05, max_delay_s=1.0)
    watcher.start()
    monkeypatch.undo()
    try:
        assert not watcher.pruned
        (tmp_path / "node_modules" / "pkg" / "index.js").write_text("x")
        (tmp_path / "marker.py").write_text("m")
        assert wait_for(lambda: "marker.py" in collector.paths())
        assert watcher.wait_idle(TIMEOUT_S)
        assert collector.paths() == {"marker.py"}
        watcher.rewatch()  # nothing to do without pruning
    finally:
        watcher.stop()


def test_the_installed_watchdog_is_one_the_pruned_observer_knows() -> None:
    """pyproject.toml pins watchdog to the versions daemon/inotify_pruned.py was tested on: a
    patch release changed the internals it subclasses (7.1.1) and no event arrived at all."""
    from watchdog.version import VERSION_STRING

    from daemon.inotify_pruned import SUPPORTED_WATCHDOG

    assert VERSION_STRING in SUPPORTED_WATCHDOG, (VERSION_STRING, SUPPORTED_WATCHDOG)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify: Linux only")
def test_a_watchdog_the_pruned_observer_does_not_know_gets_watchdogs_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import watchdog.version

    (tmp_path / "sub").mkdir()
    monkeypatch.setattr(watchdog.version, "VERSION_STRING", "7.9.0")
    collector = Collector()
    watcher = ProjectWatcher(tmp_path, collector, quiet_s=0.05, max_delay_s=1.0)
    watcher.start()
    monkeypatch.undo()
    try:
        assert not watcher.pruned  # watchdog's own observer: every folder, events still come
        (tmp_path / "sub" / "a.py").write_text("a")
        (tmp_path / "sub").rename(tmp_path / "moved")
        (tmp_path / "moved" / "deeper").mkdir()
        (tmp_path / "moved" / "deeper" / "b.py").write_text("b")
        assert wait_for(lambda: {"sub/a.py", "moved/deeper/b.py"} <= collector.paths())
        assert collector.merged().dir_renames == {"moved": "sub"}
    finally:
        watcher.stop()

"""Watch a project with watchdog and hand coalesced bursts of changes to a callback.

Events arrive on watchdog's thread and only go into a :class:`ChangeQueue` (a few dictionary
operations). The watcher's own thread waits until the project has been quiet for ``quiet_s``
(or ``max_delay_s`` has passed since the burst began) and calls ``on_batch`` with one
:class:`ChangeSet` for the whole burst: paths deduplicated, no event kinds kept, because the
consumer (``daemon/indexer.py``) re-checks every path on disk and the state on disk is what
counts. A branch switch touching 5,000 files is thus a handful of batches, never 5,000 reparses,
and nothing of it runs on a thread that serves requests.

Events inside folders that are always skipped (``.git``, ``node_modules``, caches, ...) and, given
an ``ignore`` predicate, gitignored paths are dropped here; the other folder rules (virtual
environments, build output) are applied by the consumer. A change to a
``.gitignore`` or to ``.git/info/exclude`` is flagged so the consumer reloads the rules. When
the kernel's inotify queue overflowed (events were lost, Linux), the batch is flagged
``overflowed`` and the consumer re-checks the whole project against the disk.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch

from daemon.discovery import SKIPPED_DIR_NAMES, to_rel
from daemon.inotify_pruned import pruned_observer

log = logging.getLogger(__name__)

#: Events that can change a file's content or existence; the others (opened, attrib, ...) are not.
_CONTENT_EVENTS = frozenset({"created", "modified", "deleted", "moved", "closed"})
#: The same as watchdog's event filter: the kernel then does not report a file being opened or
#: closed unwritten (every read by a build, a test run or git), which the handler would drop.
_EVENT_FILTER: list[type[FileSystemEvent]] = [
    FileCreatedEvent, DirCreatedEvent, FileModifiedEvent, FileDeletedEvent, DirDeletedEvent,
    FileMovedEvent, DirMovedEvent, FileClosedEvent,
]
#: ``ignore(rel, is_dir)``: whether events for a path are dropped (gitignored paths).
IgnorePredicate = Callable[[str, bool], bool]
#: Inside ``.git``, the only file that matters: it holds ignore patterns.
_GIT_EXCLUDE = ".git/info/exclude"
#: Folders inside skipped ones that are still watched: those that hold ``_GIT_EXCLUDE``.
_WATCHED_IN_SKIPPED = frozenset(str(p) for p in PurePosixPath(_GIT_EXCLUDE).parents) - {"."}


@dataclass(slots=True)
class ChangeSet:
    """One coalesced burst of changes; paths are project-relative with forward slashes."""

    paths: set[str] = field(default_factory=set)  # files created, changed, deleted or moved
    renames: dict[str, str] = field(default_factory=dict)  # new path -> old path (file moves)
    dir_renames: dict[str, str] = field(default_factory=dict)  # new folder -> old folder
    gone_dirs: set[str] = field(default_factory=set)  # folders deleted or moved away
    new_dirs: set[str] = field(default_factory=set)  # folders created or moved in
    ignore_rules_changed: bool = False  # a .gitignore or .git/info/exclude changed
    overflowed: bool = False  # the kernel dropped events: any file may have changed unseen
    num_events: int = 0  # raw events merged into this set

    def __len__(self) -> int:
        return len(self.paths) + len(self.gone_dirs) + len(self.new_dirs)


class ChangeQueue:
    """Coalesces change events until the project is quiet; thread-safe.

    Writers (watchdog's thread) call the ``add_*`` methods; one consumer calls :meth:`take`.
    ``clock`` is injectable so tests can drive the timing.
    """

    def __init__(
        self,
        *,
        quiet_s: float = 0.2,
        max_delay_s: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.quiet_s = quiet_s
        self.max_delay_s = max_delay_s
        self._clock = clock
        self._cond = threading.Condition()
        self._pending = ChangeSet()
        self._first = 0.0  # clock at the first event of the pending burst
        self._last = 0.0  # clock at the latest event
        self._closed = False
        self._busy = False  # the consumer is processing a batch
        self._held = False  # events are kept, not handed out (until :meth:`release`)

    # -- writers --------------------------------------------------------------------------

    def _touch(self) -> None:
        now = self._clock()
        if not self._pending.num_events:
            self._first = now
        self._last = now
        self._pending.num_events += 1
        self._cond.notify_all()

    def add_file(self, rel: str) -> None:
        with self._cond:
            self._pending.paths.add(rel)
            self._touch()

    def add_move(self, src: str | None, dst: str | None, *, record_rename: bool = True) -> None:
        """A file moved; either side may be outside the project (None)."""
        with self._cond:
            if src is not None:
                self._pending.paths.add(src)
            if dst is not None:
                self._pending.paths.add(dst)
                if src is not None and record_rename:
                    self._pending.renames[dst] = self._pending.renames.pop(src, src)
            self._touch()

    def add_dir(self, rel: str, *, gone: bool) -> None:
        """A folder appeared (``gone`` False) or disappeared."""
        with self._cond:
            (self._pending.gone_dirs if gone else self._pending.new_dirs).add(rel)
            self._touch()

    def add_dir_move(self, src: str | None, dst: str | None) -> None:
        with self._cond:
            if src is not None:
                self._pending.gone_dirs.add(src)
            if dst is not None:
                self._pending.new_dirs.add(dst)
                if src is not None:
                    self._pending.dir_renames[dst] = src
            self._touch()

    def add_ignore_change(self) -> None:
        with self._cond:
            self._pending.ignore_rules_changed = True
            self._touch()

    def add_overflow(self) -> None:
        """Events were lost (the kernel's queue overflowed): the batch names what is known."""
        with self._cond:
            self._pending.overflowed = True
            self._touch()

    # -- holding --------------------------------------------------------------------------

    def hold(self) -> None:
        """Keep collecting events but hand out no batch until :meth:`release`."""
        with self._cond:
            self._held = True

    def release(self) -> None:
        """Hand out what was held: one batch at once if its burst is already complete."""
        with self._cond:
            self._held = False
            self._cond.notify_all()

    # -- the consumer ---------------------------------------------------------------------

    def take(self) -> ChangeSet | None:
        """Block until a burst is complete and return it; None once :meth:`close` was called.

        A burst is complete when no event came for ``quiet_s``, or ``max_delay_s`` after its
        first event even while events keep coming; while the queue is held, no burst is.
        Marks the consumer busy until the next call (or :meth:`done`).
        """
        with self._cond:
            self._busy = False
            self._cond.notify_all()
            while not self._closed:
                if not self._pending.num_events or self._held:
                    self._cond.wait()
                    continue
                now = self._clock()
                wait = min(self._last + self.quiet_s, self._first + self.max_delay_s) - now
                if wait <= 0:
                    batch, self._pending = self._pending, ChangeSet()
                    self._busy = True
                    return batch
                self._cond.wait(wait)
            return None

    def done(self) -> None:
        """The consumer finished its batch (:meth:`take` does this too)."""
        with self._cond:
            self._busy = False
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing is pending and no batch is being processed; False on timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._pending.num_events or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.05))
            return True


class _Handler(FileSystemEventHandler):
    """Translates watchdog events into ChangeQueue calls (runs on watchdog's thread)."""

    def __init__(self, root: Path, queue: ChangeQueue, ignore: IgnorePredicate | None) -> None:
        self.root = root
        self.queue = queue
        self.ignore = ignore
        self.num_events = 0  # events watchdog delivered, dropped ones included

    def _rel(self, raw: bytes | str) -> str | None:
        if not raw:
            return None
        path = os.fsdecode(raw)
        rel = to_rel(self.root, path)
        if rel is None:
            return None
        if rel == _GIT_EXCLUDE:
            self.queue.add_ignore_change()
            return None
        if any(part in SKIPPED_DIR_NAMES for part in rel.split("/")):
            return None
        return rel

    def _ignored(self, rel: str | None, is_dir: bool) -> bool:
        if rel is None or self.ignore is None or rel.rsplit("/", 1)[-1] == ".gitignore":
            return False
        try:
            return self.ignore(rel, is_dir)
        except Exception:  # a broken rule must not lose the event
            log.exception("ignore check failed for %s", rel)
            return False

    def keep_dir(self, path: str) -> bool:
        """Whether the folder at absolute ``path`` is watched at all: not when its events would
        all be dropped here (skipped folders, gitignored ones)."""
        rel = to_rel(self.root, path)
        if rel is None or rel in _WATCHED_IN_SKIPPED:
            return True
        if any(part in SKIPPED_DIR_NAMES for part in rel.split("/")):
            return False
        return not self._ignored(rel, True)

    def on_any_event(self, event: FileSystemEvent) -> None:
        self.num_events += 1
        if event.event_type not in _CONTENT_EVENTS:
            return
        src = self._rel(event.src_path)
        dst = self._rel(event.dest_path) if event.event_type == "moved" else None
        for rel in (src, dst):
            if rel is not None and rel.rsplit("/", 1)[-1] == ".gitignore":
                self.queue.add_ignore_change()
        if self._ignored(src, event.is_directory):
            src = None
        if self._ignored(dst, event.is_directory):
            dst = None
        if event.is_directory:
            if event.event_type == "moved":
                if not event.is_synthetic:
                    self.queue.add_dir_move(src, dst)
            elif event.event_type == "created" and src is not None:
                self.queue.add_dir(src, gone=False)
            elif event.event_type == "deleted" and src is not None:
                self.queue.add_dir(src, gone=True)
            return  # "modified" on a folder only says its entries changed: files report that
        if event.event_type == "moved":
            if src is not None or dst is not None:
                # Moves inside a moved folder are synthetic: the folder move is the rename.
                self.queue.add_move(src, dst, record_rename=not event.is_synthetic)
        elif src is not None:
            self.queue.add_file(src)


class ProjectWatcher:
    """A watchdog observer on ``root`` plus the thread that delivers coalesced batches.

    ``on_batch`` runs on the watcher's thread, one batch at a time; an exception in it is
    logged and the next batch still comes. ``ignore(rel, is_dir)`` (the project's gitignore
    rules) drops events on watchdog's thread; it must be thread-safe. Call :meth:`start` once
    and :meth:`stop` at the end.

    On Linux the folders whose events would all be dropped are not watched at all
    (``daemon/inotify_pruned.py``); after the ignore rules change, :meth:`rewatch` brings the
    watches in line. Opening and reading files is never reported (``_EVENT_FILTER``). There
    too, an overflow of the kernel's event queue is reported as a batch with ``overflowed``
    (watchdog's own observer, elsewhere, has no such report).
    """

    def __init__(
        self,
        root: Path,
        on_batch: Callable[[ChangeSet], None],
        *,
        quiet_s: float = 0.2,
        max_delay_s: float = 2.0,
        ignore: IgnorePredicate | None = None,
    ) -> None:
        self.root = Path(os.path.realpath(root))
        self.queue = ChangeQueue(quiet_s=quiet_s, max_delay_s=max_delay_s)
        self._on_batch = on_batch
        self._observer: BaseObserver | None = None
        self._handler = _Handler(self.root, self.queue, ignore)
        self._watch: ObservedWatch | None = None
        self.pruned = False  # folders the handler would drop are not watched (Linux)
        self._thread: threading.Thread | None = None
        self.num_batches = 0  # batches delivered so far
        self.num_overflows = 0  # times the kernel's event queue overflowed (events lost)

    @property
    def num_refused(self) -> int:
        """Folders the kernel refused to watch (``fs.inotify.max_user_watches`` reached); 0
        where that is not known (watchdog's own observer drops the error)."""
        return int(getattr(self._observer, "num_refused", 0))

    @property
    def num_events(self) -> int:
        """Events watchdog delivered so far, those dropped as irrelevant included."""
        return self._handler.num_events

    def start(self, *, held: bool = False) -> None:
        """Start watching; events from now on are delivered. Returns once the watch is set up.

        ``held``: events are collected but no batch is delivered until :meth:`release` (the
        indexer starts watching before its first scan and applies what changed after it)."""
        if self._observer is not None:
            return
        if held:
            self.queue.hold()
        observer = pruned_observer(self._handler.keep_dir, on_overflow=self._on_overflow)
        self.pruned = observer is not None
        if observer is None:
            observer = Observer()
        self._watch = self._schedule(observer)
        observer.daemon = True
        observer.start()
        self._observer = observer
        self._thread = threading.Thread(target=self._run, name="nospin-watcher", daemon=True)
        self._thread.start()

    def _on_overflow(self) -> None:
        """The kernel dropped events (watchdog's inotify thread; the watches are rebuilt)."""
        self.num_overflows += 1
        log.info("inotify queue overflowed below %s: re-checking the project", self.root)
        self.queue.add_overflow()

    def _schedule(self, observer: BaseObserver) -> ObservedWatch:
        return observer.schedule(
            self._handler, str(self.root), recursive=True, event_filter=_EVENT_FILTER
        )

    def rewatch(self) -> None:
        """Walk the project again with the current ignore rules, so that folders they no longer
        ignore are watched. Changes made meanwhile may be missed: call it before a full scan."""
        observer = self._observer
        if observer is None or not self.pruned or self._watch is None:
            return
        observer.unschedule(self._watch)
        self._watch = self._schedule(observer)

    def release(self) -> None:
        """Deliver the batches held since ``start(held=True)``, and those after them."""
        self.queue.release()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop watching; a batch being processed finishes first, pending events are dropped."""
        observer, self._observer = self._observer, None
        if observer is not None:
            observer.stop()
        self.queue.close()
        if observer is not None:
            observer.join(timeout)
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every event received so far has been processed; False on timeout."""
        return self.queue.wait_idle(timeout)

    def _run(self) -> None:
        while True:
            batch = self.queue.take()
            if batch is None:
                return
            try:
                self._on_batch(batch)
            except Exception:
                log.exception("processing a batch of %d changes failed", len(batch))
            finally:
                self.num_batches += 1
                self.queue.done()


__all__ = ["ChangeQueue", "ChangeSet", "IgnorePredicate", "ProjectWatcher"]

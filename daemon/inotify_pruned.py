"""A recursive inotify observer that does not watch the folders the index skips.

watchdog's recursive inotify watch adds a kernel watch on every folder below the root, the
project's ``.venv``, ``node_modules`` and ``.git`` included, and hands every event in them to
Python, where :class:`daemon.watcher._Handler` drops it. On this repository that is 3,370
watched folders where 900 matter; an ``npm install`` or ``cargo build`` then costs the daemon
CPU for events it throws away, and each new folder there is walked twice.

:func:`pruned_observer` builds watchdog's own inotify observer with one change: a folder for which
``keep_dir(path)`` is False is neither watched nor walked, at start or when it appears later.
It subclasses watchdog's ``InotifyWatchGroup`` (``_add_all_callbacks``, ``_add_callback``,
``_recursive_simulate``) and ``InotifyEmitter.on_thread_start``. Those are watchdog's internals,
and they change in patch releases: 7.1.0 keeps the watched folders in two dicts, 7.1.1 in a tree
of nodes (its ``_active_callbacks_by_path`` became a read-only copy, so a watch recorded there
was lost and no event arrived). Only the versions in :data:`SUPPORTED_WATCHDOG` (the ones
``pyproject.toml`` allows and the tests ran on) get this observer; on any other watchdog, or
another platform, it returns None and the caller uses watchdog's ``Observer``, which watches
every folder.

When the kernel's event queue overflows (``IN_Q_OVERFLOW``: more than
``fs.inotify.max_queued_events`` unread, e.g. a build writing thousands of files while the
daemon is starved), the events after it are lost. watchdog 7.1 calls ``on_queue_overflow`` on
every watch group, which rebuilds the watches but reports no event; the group here then calls
``on_overflow``, so that the caller can re-check the whole tree against the disk.

A folder the kernel refuses to watch because ``fs.inotify.max_user_watches`` is reached is
logged once per observer (watchdog drops that error silently), with the command to raise it.
"""

from __future__ import annotations

import errno
import logging
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from watchdog.observers.api import BaseObserver

log = logging.getLogger(__name__)

#: ``keep_dir(absolute_path)``: whether a folder below the root is watched (the root always is).
KeepDir = Callable[[str], bool]

_LIMIT_FILE = "/proc/sys/fs/inotify/max_user_watches"


#: The command that raises each inotify limit (the values common distributions suggest).
RAISE_WATCHES = "`sudo sysctl fs.inotify.max_user_watches=524288`"
RAISE_INSTANCES = "`sudo sysctl fs.inotify.max_user_instances=512`"


#: watchdog versions whose inotify internals the observer here was written and tested against.
SUPPORTED_WATCHDOG = ("7.1.0", "7.1.1")


def _keep_all(path: str) -> bool:
    return True


def watch_limit() -> int | None:
    """The kernel's ``fs.inotify.max_user_watches``, or None where it cannot be read."""
    try:
        with open(_LIMIT_FILE, encoding="ascii") as fh:
            return int(fh.read().strip())
    except (OSError, ValueError):
        return None


def pruned_observer(
    keep_dir: KeepDir, on_overflow: Callable[[], None] | None = None
) -> BaseObserver | None:
    """watchdog's inotify observer, leaving out the folders ``keep_dir`` rejects; None where
    this watchdog or platform has no such observer (the caller then watches everything).

    ``on_overflow()`` is called (on watchdog's inotify thread) after the kernel dropped events,
    once the watches are rebuilt: changes made from then on are reported again."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        from watchdog.version import VERSION_STRING
    except ImportError:
        VERSION_STRING = "unknown"
    if VERSION_STRING not in SUPPORTED_WATCHDOG:
        log.info("watchdog %s: its inotify internals are not known here (%s are); watching "
                 "every folder", VERSION_STRING, ", ".join(SUPPORTED_WATCHDOG))
        return None
    try:
        from watchdog.observers.inotify import (
            InotifyEmitter,
            InotifyObserver,
            InotifyWatchGroup,
        )
        from watchdog.observers.inotify_c import (
            InotifyConstants,
            InotifyEvent,
            InotifyFD,
            Mask,
            WatchDescriptor,
        )
    except Exception:  # no inotify here (watchdog raises its own UnsupportedLibcError)
        log.info("no inotify; watching every folder", exc_info=True)
        return None

    # watchdog 7.1.1 keeps the watched folders in a tree of nodes, 7.1.0 in two dicts
    tree = hasattr(InotifyWatchGroup, "_find_node_by_path")

    @dataclass
    class PrunedWatchGroup(InotifyWatchGroup):
        keep_dir: KeepDir = _keep_all
        on_overflow: Callable[[], None] | None = None
        num_refused: int = field(default=0, init=False)

        def _keep(self, path: bytes) -> bool:
            if path == self.path:
                return True
            try:
                return self.keep_dir(os.fsdecode(path))
            except Exception:  # a broken rule must not lose changes: watch the folder
                log.exception("folder rule failed for %r", path)
                return True

        def _add_all_callbacks(self, path: bytes) -> None:
            if not self._keep(path):
                return
            self._add_callback(path)
            if not self.is_recursive or not os.path.isdir(path):
                return
            for root, dirnames, _ in os.walk(path, followlinks=self.follow_symlink):
                kept = []
                for name in dirnames:
                    full = os.path.join(root, name)
                    if not self.follow_symlink and os.path.islink(full):
                        continue
                    if self._keep(full):
                        kept.append(name)
                        self._add_callback(full)
                dirnames[:] = kept

        def _watch_of(self, path: bytes) -> WatchDescriptor | None:
            """The watch descriptor of a watched folder, None if it is not watched."""
            if not tree:
                return self._active_callbacks_by_path.get(path)
            node = self._find_node_by_path(path)  # -1: a node without a watch
            return node.wd if node is not None and node.wd >= 0 else None

        def _remember(self, path: bytes, wd: WatchDescriptor) -> None:
            if not tree:
                self._active_callbacks_by_path[path] = wd
                self._active_callbacks_by_watch[wd] = path
            elif self._insert_node(path, wd) is None:  # a path outside the root is not kept
                self._inotify_fd.remove_callbacks([(wd, self._id)])

        def _add_callback(self, path: bytes) -> None:
            if self._watch_of(path) is not None:  # seen by a walk already
                return
            try:
                wd = self._inotify_fd.add_callback(path, self.event_mask, self._callback, self._id)
            except OSError as exc:
                if path == self.path:
                    raise
                if exc.errno == errno.ENOSPC:  # vanished or unreadable folders are not news
                    self.num_refused += 1
                    if self.num_refused == 1:
                        log.warning(
                            "inotify watch limit reached (fs.inotify.max_user_watches = %s): "
                            "changes made outside the editor below %s and other folders are "
                            "not seen until the next full scan; raise it with %s",
                            watch_limit(), os.fsdecode(path), RAISE_WATCHES)
                return
            self._remember(path, wd)

        def on_queue_overflow(self) -> None:
            rebuild = getattr(super(), "on_queue_overflow", None)  # watchdog >= 7.1
            if rebuild is not None:
                rebuild()  # the watches again, through _add_all_callbacks above
            if self.is_active and self.on_overflow is not None:
                try:
                    self.on_overflow()
                except Exception:  # watchdog's reading thread must go on
                    log.exception("overflow callback failed for %r", self.path)

        def _recursive_simulate(self, src_path: bytes) -> list[InotifyEvent]:
            # Created events for what a new folder already holds, as watchdog's own does, but
            # without walking into folders that are not watched.
            events = []
            for root, dirnames, filenames in os.walk(src_path, followlinks=self.follow_symlink):
                wd_root = self._watch_of(root)
                if wd_root is None:
                    dirnames[:] = []
                    continue
                for name in dirnames:
                    mask = Mask(InotifyConstants.IN_CREATE | InotifyConstants.IN_ISDIR)
                    events.append(InotifyEvent(wd_root, mask, 0, name))
                for name in filenames:
                    events.append(InotifyEvent(wd_root, InotifyConstants.IN_CREATE, 0, name))
            return events

    class PrunedEmitter(InotifyEmitter):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.group: PrunedWatchGroup | None = None

        def on_thread_start(self) -> None:
            self.group = PrunedWatchGroup(
                self._inotify_fd,
                os.fsencode(self.watch.path),
                is_recursive=self.watch.is_recursive,
                event_mask=self.get_event_mask_from_filter(),
                follow_symlink=self.watch.follow_symlink,
                keep_dir=keep_dir,
                on_overflow=on_overflow,
            )
            self._inotify = self.group

    class PrunedObserver(InotifyObserver):
        def __init__(self) -> None:
            self._inotify_fd = InotifyFD()
            self._inotify_fd.start()
            BaseObserver.__init__(self, PrunedEmitter, inotify_fd=self._inotify_fd)

        @property
        def num_refused(self) -> int:
            """Folders the kernel refused to watch (the watch limit), over all watches."""
            emitters = list(self.emitters)  # a copy: a rewatch may change the set meanwhile
            return sum(e.group.num_refused for e in emitters
                       if isinstance(e, PrunedEmitter) and e.group is not None)

    return PrunedObserver()


__all__ = ["RAISE_INSTANCES", "RAISE_WATCHES", "SUPPORTED_WATCHDOG", "KeepDir", "pruned_observer",
           "watch_limit"]

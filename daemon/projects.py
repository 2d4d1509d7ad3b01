"""Project roots the daemon serves: index, watcher and edit history per root, and the one call
into the context assembler.

A root is indexed (in a background thread) the first time a request names a file in it (unless
indexing is off: ``nospin daemon --no-index``; edit history is kept either way), and only
when it looks like a project (a marker such as ``.git`` or ``pyproject.toml``): a stray file in
``/tmp`` does not make the daemon index ``/tmp``. Without an index the assembler still builds the
current file's context.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.config import Config, ContextConfig
from app.errors import InputError
from daemon.context import assemble_context, stable_text
from daemon.context.types import AssembledContext, ContextRequest
from daemon.documents import ROOT_MARKERS, read_disk_text
from daemon.history import EditHistory
from daemon.index import IndexSnapshot, ProjectIndex
from daemon.inotify_pruned import RAISE_INSTANCES, RAISE_WATCHES
from daemon.overlay import Buffer, BufferOverlay
from daemon.parse import digest_text, summarize
from daemon.symbols import FileSummary
from engine.base import TokenCounter

log = logging.getLogger(__name__)

MAX_ROOTS = 8
RECENT_EDITED = 8  # open buffers last edited that retrieval takes windows from
SUMMARY_CACHE_SIZE = 32  # stable summaries of recently completed-in documents
#: The longest a root's first scan waits for ``scan_gate`` (the engine loaded and free of
#: editors' requests) before it starts anyway.
SCAN_WAIT_MAX_S = 10.0

#: The index of a root that has none (not a project, indexing off or not done yet): open
#: buffers are laid over it.
NO_INDEX = IndexSnapshot()

AssembleFn = Callable[..., AssembledContext]
assemble: AssembleFn = assemble_context


@dataclass(slots=True)
class _Project:
    root: str
    index: ProjectIndex
    history: EditHistory
    indexer: Any = None  # daemon.indexer.ProjectIndexer once started
    ready: bool = False  # first build finished
    building: bool = True
    watch_error: str = ""  # why the root is not watched at all ("" when it is)
    last_used: float = field(default_factory=time.monotonic)


class Projects:
    """Roots by path; thread-safe (assembly runs in worker threads)."""

    def __init__(self, *, enabled: bool = True, scan_gate: threading.Event | None = None,
                 scan_wait_max_s: float = SCAN_WAIT_MAX_S) -> None:
        """``scan_gate``: a root's first scan waits until it is set, at most
        ``scan_wait_max_s``. The daemon sets it while the engine is loaded and runs no editor's
        request: on two cores a scan beside the model load and the first completion made that
        completion 0.3-0.7 s slower (docs/context.md, "The first scan waits")."""
        self._enabled = enabled
        self._scan_gate = scan_gate
        self._scan_wait_max_s = scan_wait_max_s
        self._lock = threading.Lock()
        self._projects: dict[str, _Project] = {}
        self._buffers: dict[str, str] = {}  # path -> text of every open buffer, oldest first
        # the open buffers last edited (at most RECENT_EDITED, oldest first): retrieval's sources
        self._edited: dict[str, None] = {}
        self._overlays: dict[str, BufferOverlay] = {}  # root -> its open buffers over its index
        # (path, language, digest of the text without the cursor line) -> its summary
        self._summaries: OrderedDict[tuple[str, str, str], FileSummary] = OrderedDict()

    def ensure(self, root: str, config: Config) -> None:
        """Know ``root`` (edit history) and, when indexing is on, index and watch it in the
        background. Folders without a project marker are not indexed."""
        with self._lock:
            project = self._projects.get(root)
            if project is not None:
                project.last_used = time.monotonic()
                return
            if not any(os.path.exists(os.path.join(root, m)) for m in ROOT_MARKERS):
                return
            if len(self._projects) >= MAX_ROOTS:
                oldest = min(self._projects.values(), key=lambda pr: pr.last_used)
                self._stop(self._projects.pop(oldest.root))
            project = _Project(root, ProjectIndex(Path(root)), EditHistory(),
                               building=self._enabled)
            self._projects[root] = project
        if not self._enabled:
            return
        threading.Thread(target=self._build, args=(project, config), daemon=True,
                         name=f"index {root}").start()

    def adopt(self, root: str, index: ProjectIndex, history: EditHistory) -> None:
        """Serve ``root`` from ``index`` and ``history`` built by the caller, ready at once and
        not watched (in-process callers: ``nospin eval``'s history replay, which checks each
        commit's parent out and indexes it itself). Replaces what was known of ``root``."""
        project = _Project(root, index, history, ready=True, building=False)
        with self._lock:
            old = self._projects.pop(root, None)
            self._projects[root] = project
        if old is not None:
            self._stop(old)

    def _build(self, project: _Project, config: Config) -> None:
        if self._scan_gate is not None:
            self._scan_gate.wait(self._scan_wait_max_s)
            with self._lock:
                if self._projects.get(project.root) is not project:  # closed or evicted
                    project.building = False
                    return
        try:
            from daemon.indexer import ProjectIndexer

            indexer = ProjectIndexer(Path(project.root), config, project.index, project.history)
            project.indexer = indexer
            # Watching starts before the scan: a file saved while it runs is not missed (its
            # batch waits for the scan's end and is applied then).
            self._watch(project, indexer)
            try:
                indexer.build()
            except Exception:
                indexer.stop()
                raise
            project.ready = True
            log.info("indexed %s (%d files)", project.root, len(project.index))
        except Exception:  # indexing is an aid: completions go on without it
            log.exception("indexing %s failed", project.root)
        finally:
            project.building = False

    @staticmethod
    def _watch(project: _Project, indexer: Any) -> None:
        """Start ``indexer``'s watcher; a root that cannot be watched is still indexed."""
        try:
            indexer.start_watching()
        except OSError as exc:  # inotify's instance or watch limit, most likely
            fix = RAISE_WATCHES if exc.errno == errno.ENOSPC else RAISE_INSTANCES
            project.watch_error = (
                f"not watched ({exc.strerror or exc}): files saved are not re-read; raise "
                f"the limit ({fix}) and restart the daemon")
            log.warning("%s: %s", project.root, project.watch_error)

    def record_edit(self, root: str, path: str, old: str, new: str) -> None:
        """An editor change, into the root's edit history (called in a worker thread)."""
        project = self._projects.get(root)
        if project is None:
            return
        rel = self.rel_path(root, path)
        project.history.record_edit(rel, old, new, source="editor",
                                    summary=project.index.get(rel), when=time.time())

    def note_buffer(self, path: str, text: str | None, *, edited: bool = False) -> None:
        """An editor opened or changed ``path`` (``text``; ``edited``: its text changed), or
        closed it (None); called on the event loop, in the order the editor sent them (the
        edit history's ``record_edit`` runs later in a worker thread). Other documents take
        ``path``'s definitions from ``text``, and while it is among the last edited, windows
        of it (retrieval)."""
        with self._lock:
            self._buffers.pop(path, None)
            if text is None:
                self._edited.pop(path, None)
                return
            self._buffers[path] = text
            if edited:
                self._edited.pop(path, None)
                self._edited[path] = None
                while len(self._edited) > RECENT_EDITED:
                    self._edited.pop(next(iter(self._edited)))

    def close_buffer(self, root: str, path: str, text: str, *, max_bytes: int) -> None:
        """An editor closed ``path`` (called in a worker thread, after ``note_buffer(path,
        None)``): when the disk does not hold its text (closed unsaved), the edits the editor
        reported for it leave the edit history."""
        project = self._projects.get(root)
        if project is None:
            return
        try:
            disk: str | None = read_disk_text(path, max_bytes=max_bytes)
        except InputError:  # gone, unreadable, too large: not what the buffer held either
            disk = None
        if disk != text:
            project.history.forget(self.rel_path(root, path), source="editor")

    def assemble_for(self, fn: AssembleFn, request: ContextRequest, root: str,
                     config: ContextConfig, counter: TokenCounter | None = None,
                     ) -> AssembledContext:
        """Assemble one completion's context with this root's index and history.

        ``counter`` is the engine's tokenizer (wrapped once in a line cache by the caller). The
        document's stable summary (parsed without the cursor line) is cached, so typing on one
        line parses the buffer once.
        """
        summary = self._stable_summary(request)
        project = self._projects.get(root)
        abs_path = os.path.join(root, request.path) if not os.path.isabs(request.path) \
            else request.path
        with self._lock:
            recent: Sequence[tuple[str, str]] = [
                (self.rel_path(root, pth), self._buffers[pth]) for pth in self._edited
                if pth != abs_path and _inside(pth, root)
            ]
        indexed = project is not None and project.ready
        # not a project, not indexed (yet): the open buffers are all the index there is
        base = project.index.snapshot() if project is not None and indexed else NO_INDEX
        index: IndexSnapshot | None = self._index_for(root, abs_path, base, indexed=indexed)
        if index is NO_INDEX:
            index = None
        return fn(request, index=index, history=project.history if project else None,
                  counter=counter, config=config, recent=recent, summary=summary)

    def _index_for(self, root: str, current: str, base: IndexSnapshot, *, indexed: bool
                   ) -> IndexSnapshot:
        """``base`` (``root``'s index, or an empty one) with the root's open buffers other than
        ``current`` laid over it. ``indexed``: ``base`` is the index of the files on disk, so a
        buffer of a file on disk that it lacks was left out by the indexer and stays out."""
        with self._lock:
            buffers = [Buffer(self.rel_path(root, pth), text)
                       for pth, text in reversed(self._buffers.items()) if _inside(pth, root)]
            if not buffers:
                return base
            overlay = self._overlays.pop(root, None) or BufferOverlay()
            self._overlays[root] = overlay  # the most recently used last
            while len(self._overlays) > MAX_ROOTS:
                self._overlays.pop(next(iter(self._overlays)))
        on_disk = ((lambda rel: os.path.lexists(os.path.join(root, rel))) if indexed
                   else (lambda rel: False))
        return overlay.snapshot(base, buffers, exclude=self.rel_path(root, current),
                                on_disk=on_disk)

    def _stable_summary(self, request: ContextRequest) -> FileSummary:
        stable = stable_text(request.text, request.line)
        key = (request.path, request.language or "", digest_text(stable))
        with self._lock:
            cached = self._summaries.get(key)
            if cached is not None:
                self._summaries.move_to_end(key)
                return cached
        summary = summarize(request.path, stable, request.language, prose=True)
        with self._lock:
            self._summaries[key] = summary
            while len(self._summaries) > SUMMARY_CACHE_SIZE:
                self._summaries.popitem(last=False)
        return summary

    @staticmethod
    def rel_path(root: str, path: str) -> str:
        """Project-relative path (POSIX) when inside ``root``, else the absolute path."""
        try:
            rel = os.path.relpath(path, root)
        except ValueError:
            return path
        return path if rel.startswith("..") else rel.replace(os.sep, "/")

    def busy(self) -> bool:
        return any(pr.building for pr in self._projects.values())

    def roots(self) -> list[str]:
        return sorted(self._projects)

    def problems(self) -> dict[str, str]:
        """Roots whose changes on disk are not (all) followed, and why."""
        out: dict[str, str] = {}
        for project in list(self._projects.values()):
            unwatched = project.indexer.num_unwatched_dirs if project.indexer else 0
            if project.watch_error:
                out[project.root] = project.watch_error
            elif unwatched:
                out[project.root] = (
                    f"{unwatched} folders not watched (fs.inotify.max_user_watches reached): "
                    f"changes there are not seen; raise it ({RAISE_WATCHES}) and restart the "
                    "daemon")
        return out

    def _stop(self, project: _Project) -> None:
        if project.indexer is not None:
            try:
                project.indexer.stop()
            except Exception:
                log.exception("stopping the watcher of %s failed", project.root)

    def close(self) -> None:
        with self._lock:
            projects = list(self._projects.values())
            self._projects.clear()
        if self._scan_gate is not None:
            self._scan_gate.set()  # scans still waiting see the root gone and stop
        for project in projects:
            self._stop(project)


def _inside(path: str, root: str) -> bool:
    """Whether ``path`` is ``root`` or below it (``/p/proj2`` is not inside ``/p/proj``)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)

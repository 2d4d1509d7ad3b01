"""Projects: a root indexed in the background, with a real scan and a real watcher."""

from __future__ import annotations

import ctypes
import errno
import logging
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from app.config import Config
from daemon.projects import Projects

LIMIT_FILE = Path("/proc/sys/fs/inotify/max_user_instances")


@contextmanager
def inotify_instances_used_up() -> Iterator[None]:
    """Holds inotify instances until the kernel refuses more (fs.inotify.max_user_instances)."""
    libc = ctypes.CDLL(None, use_errno=True)
    fds: list[int] = []
    try:
        while True:
            fd = libc.inotify_init1(os.O_CLOEXEC)
            if fd < 0:
                assert ctypes.get_errno() == errno.EMFILE
                break
            fds.append(fd)
        yield
    finally:
        for fd in fds:
            os.close(fd)


def ensure_built(projects: Projects, root: Path) -> None:
    """Open ``root`` as a project and wait (60 s at most) until its first build is over."""
    projects.ensure(str(root), Config())
    deadline = time.monotonic() + 60
    while projects.busy() and time.monotonic() < deadline:
        time.sleep(0.02)


def recent_windows_of(projects: Projects, root: Path) -> object:
    """The recent buffers ``assemble_for`` hands the assembler for a request in ``root``."""
    from daemon.context.types import ContextRequest

    seen: dict[str, object] = {}

    def fn(request: ContextRequest, **kw: object) -> object:
        seen.update(kw)
        return None

    request = ContextRequest(path="main.py", text="x = 1\n", line=0, column=0)
    projects.assemble_for(fn, request, str(root), Config().context)  # type: ignore[arg-type]
    return seen["recent"]


@pytest.mark.skipif(not sys.platform.startswith("linux") or not LIMIT_FILE.exists()
                    or int(LIMIT_FILE.read_text()) > 1024,
                    reason="needs Linux inotify with a small instance limit")
def test_a_root_that_cannot_be_watched_is_still_indexed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    projects = Projects()
    caplog.set_level(logging.WARNING, logger="daemon.projects")
    try:
        with inotify_instances_used_up():
            ensure_built(projects, root)
        project = projects._projects[str(root)]
        assert project.ready and project.index.get("calc.py") is not None
        assert "not watched" in caplog.text and "inotify" in caplog.text
        problem = projects.problems()[str(root)]  # what `nospin status` shows for the root
        assert "not watched" in problem and "fs.inotify.max_user_instances" in problem
    finally:
        projects.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux inotify")
def test_folders_the_kernel_refuses_to_watch_are_counted_and_named_in_status(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At fs.inotify.max_user_watches the kernel refuses a folder's watch (ENOSPC). Lowering
    that limit would change the machine for every process, so the refusal is the kernel's
    answer for the folders below ``deep/``: raised from watchdog's inotify_add_watch call."""
    from watchdog.observers.inotify_c import InotifyFD

    root = tmp_path / "proj"
    for folder in ("src", "deep/a", "deep/b/c"):
        (root / folder).mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "src" / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    add = InotifyFD.add_callback
    refused = os.fsencode(root / "deep")

    def limited(self: InotifyFD, path: bytes, *args: object) -> object:
        if path.startswith(refused):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return add(self, path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(InotifyFD, "add_callback", limited)
    projects = Projects()
    caplog.set_level(logging.WARNING)
    try:
        ensure_built(projects, root)
        project = projects._projects[str(root)]
        assert project.ready and project.index.get("src/calc.py") is not None
        assert project.indexer is not None and project.indexer.num_unwatched_dirs == 4
        assert caplog.text.count("inotify watch limit reached") == 1  # once, not per folder
        problem = projects.problems()[str(root)]  # what `nospin status` shows for the root
        assert problem.startswith("4 folders not watched") and "max_user_watches" in problem
        (root / "src" / "more.py").write_text("def sub(a, b):\n    return a - b\n")
        deadline = time.monotonic() + 30  # the folders that were watched still are
        while project.index.get("src/more.py") is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert project.index.get("src/more.py") is not None
    finally:
        projects.close()


def test_open_buffers_of_a_sibling_project_never_reach_a_prompt(tmp_path: Path) -> None:
    """``/p/proj2``'s unsaved text was a retrieved snippet in ``/p/proj``'s prompts: the
    recent buffers were matched with ``startswith(root)``."""
    root, sibling = tmp_path / "proj", tmp_path / "proj2"
    projects = Projects()
    try:
        projects.note_buffer(str(sibling / "secret.py"), "TOKEN = 'x'\n", edited=True)
        projects.note_buffer(str(root / "util.py"), "def util():\n    pass\n", edited=True)
        projects.note_buffer(str(root / "opened.py"), "def opened():\n    pass\n")  # not edited
        assert recent_windows_of(projects, root) == [("util.py", "def util():\n    pass\n")]
    finally:
        projects.close()


def test_a_buffer_closed_unsaved_leaves_the_prompts_and_the_edit_history(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    saved, thrown = root / "saved.py", root / "thrown.py"
    for path in (saved, thrown):
        path.write_text("def f():\n    pass\n")
    projects = Projects()
    try:
        ensure_built(projects, root)
        history = projects._projects[str(root)].history
        for path in (saved, thrown):  # as the daemon does on an editor's change
            projects.note_buffer(str(path), "def f():\n    return 1\n", edited=True)
            projects.record_edit(str(root), str(path), path.read_text(),
                                 "def f():\n    return 1\n")
        saved.write_text("def f():\n    return 1\n")  # the editor saved this one
        for path in (saved, thrown):  # ... and on its close
            projects.note_buffer(str(path), None)
            projects.close_buffer(str(root), str(path), "def f():\n    return 1\n",
                                  max_bytes=1_000_000)
        assert [r.path for r in history.entries() if r.source == "editor"] == ["saved.py"]
        assert recent_windows_of(projects, root) == []  # neither buffer stands for its file
    finally:
        projects.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs Linux inotify")
def test_files_saved_during_the_first_scan_are_indexed_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watcher starts before the scan: a file saved, or created, after the scan read the
    folder is not stale until it changes again."""
    from daemon.indexer import BuildReport, ProjectIndexer

    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (root / "pkg" / "util.py").write_text("def alpha_helper(a, b):\n    return a + b\n")
    scan = ProjectIndexer._build

    def scan_then_save(self: ProjectIndexer) -> BuildReport:
        report = scan(self)
        (root / "pkg" / "util.py").write_text("def saved_during_scan():\n    pass\n")
        (root / "late_new.py").write_text("def new_during_scan():\n    pass\n")
        return report

    monkeypatch.setattr(ProjectIndexer, "_build", scan_then_save)
    projects = Projects()
    try:
        ensure_built(projects, root)
        project = projects._projects[str(root)]
        assert project.ready

        def names(rel: str) -> list[str]:
            summary = project.index.get(rel)
            return [d.name for d in summary.definitions] if summary is not None else []

        deadline = time.monotonic() + 30
        while (names("pkg/util.py") != ["saved_during_scan"] or not names("late_new.py")) \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        assert names("pkg/util.py") == ["saved_during_scan"]
        assert names("late_new.py") == ["new_during_scan"]
    finally:
        projects.close()


@pytest.mark.parametrize("marker", [False, True], ids=["not-a-project", "indexing-off"])
def test_open_buffers_lend_definitions_where_there_is_no_index(tmp_path: Path,
                                                              marker: bool) -> None:
    """Two scripts in a folder that is not a project (or with indexing off): the one open
    buffer's definitions reach the other's prompt all the same."""
    from daemon.context import Kind, assemble_context
    from daemon.context.types import ContextRequest

    root = tmp_path / "scripts"
    root.mkdir()
    if marker:
        (root / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    helpers = root / "helpers.py"
    helpers.write_text("")  # saved empty: the definition exists only in the buffer
    projects = Projects(enabled=False)
    try:
        projects.ensure(str(root), Config())
        assert (str(root) in projects._projects) is marker
        projects.note_buffer(str(helpers), 'def slugify(title: str) -> str:\n'
                                           '    """Lower-case words joined by dashes."""\n'
                                           '    return "-".join(title.lower().split())\n')
        text = "from helpers import slugify\n\nname = slugify(\n"
        request = ContextRequest(path="main.py", text=text, line=2, column=len("name = slugify("))
        ctx = projects.assemble_for(assemble_context, request, str(root), Config().context)
        related = [s for s in ctx.segments if s.kind is Kind.RELATED]
        assert any("def slugify(title: str) -> str:" in s.text for s in related), ctx.segments
        projects.note_buffer(str(helpers), None)  # closed: nothing lends it any more
        ctx = projects.assemble_for(assemble_context, request, str(root), Config().context)
        assert not [s for s in ctx.segments if s.kind is Kind.RELATED]
    finally:
        projects.close()

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
            projects.ensure(str(root), Config())
            deadline = time.monotonic() + 60
            while projects.busy() and time.monotonic() < deadline:
                time.sleep(0.02)
        project = projects._projects[str(root)]
        assert project.ready and project.index.get("calc.py") is not None
        assert "not watched" in caplog.text and "inotify" in caplog.text
        problem = projects.problems()[str(root)]  # what `nospin status` shows for the root
        assert "not watched" in problem and "fs.inotify.max_user_instances" in problem
    finally:
        projects.close()

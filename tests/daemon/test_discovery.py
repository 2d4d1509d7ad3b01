"""Discovery: which files a project walk yields, and the reasons for the others."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from app.errors import SkippedFile
from daemon.discovery import (
    IgnoreRules,
    check_dir,
    check_path,
    format_size,
    iter_project_files,
    read_source,
    too_large_reason,
    walk_project,
)
from daemon.symbols import SkipRecord

MB = 1_000_000


def make(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def walk(root: Path, *, max_bytes: int = MB, **kwargs: object) -> tuple[list[str], dict[str, str]]:
    skipped: list[SkipRecord] = []
    found = [
        f.rel
        for f in walk_project(root, max_bytes=max_bytes, on_skip=skipped.append, **kwargs)  # type: ignore[arg-type]
    ]
    return found, {r.path: r.reason for r in skipped}


def test_walk_yields_sorted_relative_paths(tmp_path: Path) -> None:
    make(tmp_path, {"b.py": "x", "a/z.py": "y", "a/b/c.ts": "z", "README.md": "r"})
    found, skipped = walk(tmp_path)
    # a folder's files first (by name), then its subfolders (by name)
    assert found == ["README.md", "b.py", "a/z.py", "a/b/c.ts"]
    assert skipped == {}
    assert [p.name for p in iter_project_files(tmp_path, max_bytes=MB)] == [
        Path(f).name for f in found
    ]
    # deterministic: the same tree walks the same way
    assert walk(tmp_path)[0] == found


@pytest.mark.parametrize(
    ("folder", "reason"),
    [
        (".git", "version control"),
        (".hg", "version control"),
        ("node_modules", "dependencies (node_modules)"),
        ("__pycache__", "cache"),
        (".mypy_cache", "cache"),
        (".pytest_cache", "cache"),
        (".tox", "cache (tox)"),
        (".venv", "virtual environment"),
        (".next", "build output"),
        ("build", "build output"),
        ("dist", "build output"),
    ],
)
def test_always_skipped_folders(tmp_path: Path, folder: str, reason: str) -> None:
    make(tmp_path, {f"{folder}/x.py": "x", f"{folder}/deep/y.js": "y", "main.py": "m"})
    found, skipped = walk(tmp_path)
    assert found == ["main.py"]
    assert skipped == {f"{folder}/": reason}


def test_virtual_environments_are_recognised_by_content(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "myenv/pyvenv.cfg": "home = /usr/bin",
            "myenv/lib/site.py": "x",
            "env/bin/activate": "# activate",
            "env/lib/mod.py": "x",
            "src/env/config.py": "not a venv",  # a package named env
            "venv/notes.txt": "no activate script: not a venv",
        },
    )
    found, skipped = walk(tmp_path)
    assert skipped == {"myenv/": "virtual environment", "env/": "virtual environment"}
    assert found == ["src/env/config.py", "venv/notes.txt"]


def test_build_folders_are_judged_sensibly(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "rust/Cargo.toml": "[package]",
            "rust/target/debug/x.rs": "x",
            "rust/src/main.rs": "fn main() {}",
            "game/target/aim.py": "a target folder that is source",
            "pkg/build/__init__.py": "# a Python package named build",
            "cached/CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55",
            "cached/x.py": "x",
            "cpp/cmake-build-debug/gen/config.h": "#define X 1",
            "cpp/b/CMakeFiles/feature_tests.c": "int main(void) { return 0; }",
            "cpp/src/main.cpp": "int main() {}",
        },
    )
    found, skipped = walk(tmp_path)
    assert skipped == {
        "rust/target/": "build output",
        "cached/": "cache",
        "cpp/cmake-build-debug/": "build output (CMake)",
        "cpp/b/CMakeFiles/": "build output (CMake)",
    }
    assert found == [
        "cpp/src/main.cpp",
        "game/target/aim.py",
        "pkg/build/__init__.py",
        "rust/Cargo.toml",
        "rust/src/main.rs",
    ]


def test_gitignore_nested_and_negation(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            ".gitignore": "*.log\n!keep.log\ngen/\n/top_only.txt\n",
            "a.log": "x",
            "keep.log": "k",
            "top_only.txt": "t",
            "sub/top_only.txt": "not anchored here",
            "gen/out.py": "g",
            "sub/gen/out.py": "g",
            "sub/.gitignore": "*.scratch\n!important.log\nlocal/\n",
            "sub/x.scratch": "t",
            "sub/important.log": "i",
            "sub/other.log": "o",
            "sub/local/a.py": "a",
            "local/a.py": "only ignored below sub/",
            "other/x.scratch": "not ignored outside sub/",
        },
    )
    found, skipped = walk(tmp_path)
    assert set(found) == {
        ".gitignore",
        "keep.log",
        "local/a.py",
        "other/x.scratch",
        "sub/.gitignore",
        "sub/important.log",
        "sub/top_only.txt",
    }
    assert skipped == {
        "a.log": "ignored",
        "top_only.txt": "ignored",
        "gen/": "ignored",
        "sub/gen/": "ignored",
        "sub/x.scratch": "ignored",
        "sub/other.log": "ignored",
        "sub/local/": "ignored",
    }


def test_no_reinclusion_below_an_ignored_folder(tmp_path: Path) -> None:
    make(tmp_path, {".gitignore": "logs/\n!logs/keep.txt\n", "logs/keep.txt": "k"})
    found, skipped = walk(tmp_path)
    assert found == [".gitignore"]
    assert skipped == {"logs/": "ignored"}


def test_git_info_exclude_and_extra_patterns(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            ".git/info/exclude": "secret.py\n",
            ".gitignore": "!vendored.py\n",
            "secret.py": "s",
            "vendored.py": "v",
            "site-packages/x.py": "x",
            "main.py": "m",
        },
    )
    rules = IgnoreRules(tmp_path, extra_patterns=["/site-packages/"])
    found, skipped = walk(tmp_path, rules=rules)
    assert found == [".gitignore", "main.py", "vendored.py"]
    assert skipped == {
        ".git/": "version control",
        "secret.py": "ignored",
        "site-packages/": "ignored",
    }


def test_ignore_rules_reload(tmp_path: Path) -> None:
    make(tmp_path, {"a.py": "a", "sub/b.py": "b"})
    rules = IgnoreRules(tmp_path)
    assert not rules.is_ignored_path("sub/b.py", is_dir=False)
    (tmp_path / "sub" / ".gitignore").write_text("b.py\n")
    assert not rules.is_ignored_path("sub/b.py", is_dir=False)  # cached
    rules.reload("sub")
    assert rules.is_ignored_path("sub/b.py", is_dir=False)
    (tmp_path / ".gitignore").write_text("sub/\n")
    rules.reload()
    assert rules.is_ignored_path("sub/c.py", is_dir=False)
    assert rules.is_ignored("sub", is_dir=True)


def test_size_cap_binary_and_generated_files(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "big.py": "x = 1\n" * 300,  # 1,800 bytes
            "small.py": "x = 1\n",
            "logo.png": b"\x89PNG\r\n",
            "package-lock.json": "{}",
            "app.min.js": "a",
        },
    )
    found, skipped = walk(tmp_path, max_bytes=1_000)
    assert found == ["small.py"]
    assert skipped == {
        "big.py": "too large (1.8 KB > 1.0 KB)",
        "logo.png": "binary",
        "package-lock.json": "generated (lock file)",
        "app.min.js": "generated (minified)",
    }


def test_size_reasons_read_well() -> None:
    assert format_size(999) == "999 B"
    assert format_size(1_400_000) == "1.4 MB"
    assert too_large_reason(1_400_000, 1_000_000) == "too large (1.4 MB > 1.0 MB)"
    assert too_large_reason(1_040_000, 1_000_000) == "too large (1,040,000 B > 1,000,000 B)"


def test_read_source_refuses_with_reasons(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            "ok.py": "\ufeffprint('hé')\n",
            "nul.dat.txt": b"abc\x00def",
            "latin1.py": "caf\u00e9".encode("latin-1"),
            "late_nul.txt": b"a" * 9000 + b"\x00",  # NUL after the first 8 KB: decodes as text
            "big.txt": "x" * 2000,
        },
    )
    assert read_source(tmp_path / "ok.py", max_bytes=MB) == "print('hé')\n"
    assert read_source(tmp_path / "late_nul.txt", max_bytes=MB).endswith("\x00")
    cases = {
        "nul.dat.txt": "binary",
        "latin1.py": "not UTF-8",
        "missing.py": "vanished",
        "big.txt": "too large (2.0 KB > 1.0 KB)",
    }
    for name, reason in cases.items():
        with pytest.raises(SkippedFile) as info:
            read_source(tmp_path / name, max_bytes=1_000)
        assert info.value.reason == reason
        assert info.value.code == "skipped"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions and FIFOs")
def test_unreadable_files_and_fifos(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    make(tmp_path, {"locked.py": "x", "locked_dir/a.py": "a"})
    (tmp_path / "locked.py").chmod(0)
    (tmp_path / "locked_dir").chmod(0)
    try:
        with pytest.raises(SkippedFile, match="unreadable"):
            read_source(tmp_path / "locked.py", max_bytes=MB)
        _, skipped = walk(tmp_path)
        assert skipped["locked_dir/"].startswith("unreadable folder")
    finally:
        (tmp_path / "locked_dir").chmod(0o755)


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs")
def test_fifo_is_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    make(tmp_path, {"a.py": "a"})
    found, skipped = walk(tmp_path)
    assert found == ["a.py"]
    assert skipped == {"pipe": "not a regular file"}
    with pytest.raises(SkippedFile, match="not a regular file"):
        read_source(tmp_path / "pipe", max_bytes=MB)  # and it does not block


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges")
def test_symlinks_loops_and_escapes(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    outside = tmp_path / "outside"
    make(root, {"src/a.py": "a"})
    make(outside, {"secret.py": "s"})
    (root / "loop").symlink_to(root)  # a folder linking to the root
    (root / "src" / "up").symlink_to(root / "src")  # a folder linking to itself
    (root / "out").symlink_to(outside)
    (root / "out.py").symlink_to(outside / "secret.py")
    (root / "alias.py").symlink_to(root / "src" / "a.py")
    (root / "dangling.py").symlink_to(root / "nothing.py")
    (root / "self1").symlink_to(root / "self2")
    (root / "self2").symlink_to(root / "self1")
    found, skipped = walk(root)
    assert found == ["src/a.py"]
    assert skipped == {
        "alias.py": "symlink to src/a.py (indexed there)",
        "dangling.py": "broken symlink",
        "loop": "symlink loop",
        "out": "symlink leaving the project",
        "out.py": "symlink leaving the project",
        "self1": "symlink loop",
        "self2": "symlink loop",
        "src/up": "symlink loop",
    }


def test_vanishing_files_and_folders_do_not_crash(tmp_path: Path) -> None:
    make(tmp_path, {f"d{i}/f{j}.py": "x" for i in range(5) for j in range(5)})
    found: list[str] = []
    for f in walk_project(tmp_path, max_bytes=MB):
        found.append(f.rel)
        if f.rel == "d0/f0.py":  # delete files and folders the walk has not reached yet
            (tmp_path / "d0" / "f3.py").unlink()
            for j in range(5):
                (tmp_path / "d3" / f"f{j}.py").unlink()
            (tmp_path / "d3").rmdir()
    assert "d0/f0.py" in found
    assert not any(p.startswith("d3/") for p in found)
    with pytest.raises(SkippedFile, match="vanished"):
        read_source(tmp_path / "d0" / "f3.py", max_bytes=MB)


def test_check_path_matches_the_walk(tmp_path: Path) -> None:
    make(
        tmp_path,
        {
            ".gitignore": "*.log\n",
            "a.py": "a",
            "x.log": "l",
            "node_modules/p/index.js": "n",
            "venv/pyvenv.cfg": "",
            "venv/lib/x.py": "x",
            "big.txt": "x" * 50,
        },
    )
    rules = IgnoreRules(tmp_path)
    assert check_path(tmp_path, "a.py", rules=rules, max_bytes=40) is None
    assert check_path(tmp_path, "x.log", rules=rules, max_bytes=40) == SkipRecord(
        "x.log", "ignored"
    )
    assert check_path(tmp_path, "node_modules/p/index.js", rules=rules, max_bytes=40) == SkipRecord(
        "node_modules/", "dependencies (node_modules)"
    )
    assert check_path(tmp_path, "venv/lib/x.py", rules=rules, max_bytes=40) == SkipRecord(
        "venv/", "virtual environment"
    )
    assert check_path(tmp_path, "big.txt", rules=rules, max_bytes=40) == SkipRecord(
        "big.txt", "too large (50 B > 40 B)"
    )
    assert check_path(tmp_path, "gone.py", rules=rules, max_bytes=40) == SkipRecord(
        "gone.py", "vanished"
    )
    assert check_dir(tmp_path, "venv/lib", rules=rules) == SkipRecord(
        "venv/", "virtual environment"
    )
    assert check_dir(tmp_path, "", rules=rules) is None


STDLIB = Path(os.__file__).parent


@pytest.mark.skipif(not (STDLIB / "asyncio").is_dir(), reason="needs the standard library")
def test_stdlib_walk_is_fast() -> None:
    """The whole standard library (~1,800 .py files) walks in well under a second."""
    rules = IgnoreRules(STDLIB, extra_patterns=["/site-packages/"])
    best = float("inf")
    for _ in range(2):  # the first run may warm the OS cache
        started = time.perf_counter()
        found = list(walk_project(STDLIB, max_bytes=MB, rules=rules))
        best = min(best, time.perf_counter() - started)
    assert sum(f.rel.endswith(".py") for f in found) > 1_000
    assert not any(f.rel.startswith("site-packages/") for f in found)
    assert best < 2.0, f"walk took {best:.2f} s"

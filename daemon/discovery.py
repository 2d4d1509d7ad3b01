"""Which files of a project the index reads, and why the others are left out.

Called by the indexer for the initial scan (:func:`walk_project`) and by the watcher for single
paths (:func:`check_path`); :func:`read_source` reads one file as text or raises
:class:`~app.errors.SkippedFile` with the reason. Rules, in the order they are applied:

- folders skipped wholesale, one :class:`SkipRecord` each (path ends in "/"): version control
  (``.git``, ``.hg``, ``.svn``), virtual environments (a ``pyvenv.cfg`` inside, or ``.venv``;
  ``venv``/``env`` when they look like one), dependencies (``node_modules``, ...), caches
  (``__pycache__``, ``.mypy_cache``, ``.pytest_cache``, ``.tox``, any folder with a
  ``CACHEDIR.TAG``), build output (``build``/``dist``/``out`` unless they are Python packages,
  ``target`` next to ``Cargo.toml``/``pom.xml``/``build.gradle``, ``bin`` and ``obj`` next
  to a .NET project file (``*.csproj``), CMake's ``CMakeFiles`` and CLion's
  ``cmake-build-*``, ``.next``, ...);
- ``.gitignore`` files at every level (patterns relative to their folder, deeper files win,
  negation works, nothing is re-included below an ignored folder) and ``.git/info/exclude``;
- symlinks are never followed: a link to a place inside the project is indexed at its real path,
  a link leaving the project or a loop is skipped with its reason;
- files that are not regular files, known binary formats, lock files and minified bundles,
  editors' backup, swap and temporary files (``x.py~``, ``.x.py.swp``, ``#x.py#``,
  ``x.py___jb_tmp___``, ``x.tmp``), files over the size cap; when read: a NUL byte in the
  first 8 KB ("binary"), bytes that are not UTF-8 ("not UTF-8"), unreadable files, files that
  vanished.

Paths given to the rest of the daemon are project-relative with forward slashes.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from pathspec import GitIgnoreSpec

from app.errors import SkippedFile
from daemon.symbols import SkipRecord

#: Bytes inspected for a NUL byte to call a file binary.
BINARY_SNIFF_BYTES = 8192

#: Folders skipped wherever they are, with the reason shown to users.
SKIPPED_DIR_NAMES: dict[str, str] = {
    ".git": "version control",
    ".hg": "version control",
    ".svn": "version control",
    ".bzr": "version control",
    "node_modules": "dependencies (node_modules)",
    "bower_components": "dependencies (bower_components)",
    "__pycache__": "cache",
    ".mypy_cache": "cache",
    ".pytest_cache": "cache",
    ".ruff_cache": "cache",
    ".hypothesis": "cache",
    ".tox": "cache (tox)",
    ".nox": "cache (nox)",
    ".eggs": "build output",
    ".venv": "virtual environment",
    ".next": "build output",
    ".nuxt": "build output",
    ".svelte-kit": "build output",
    ".parcel-cache": "cache",
    ".turbo": "cache",
    ".gradle": "cache",
    ".terraform": "dependencies (terraform)",
    ".idea": "editor settings",
    "CMakeFiles": "build output (CMake)",
}

#: Names that are build output unless the folder is a Python package (``__init__.py`` inside).
_BUILD_DIR_NAMES = frozenset({"build", "dist", "out"})
#: Files next to a ``target`` folder that make it build output (Rust, Maven, Gradle, sbt).
_TARGET_OWNERS = ("Cargo.toml", "pom.xml", "build.gradle", "build.gradle.kts", "build.sbt")
#: Project files next to which ``bin`` and ``obj`` are build output (``dotnet build``: obj/
#: holds generated .cs files, ``GlobalUsings.g.cs``, ``AssemblyInfo.cs``, per configuration).
_DOTNET_PROJECTS = (".csproj", ".fsproj", ".vbproj")
#: Names that are virtual environments when they look like one.
_VENV_NAMES = frozenset({"venv", "env", "virtualenv", ".env"})

#: File suffixes that are binary formats; skipped without opening the file.
# fmt: off
BINARY_SUFFIXES = frozenset({
    ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".ico", ".icns", ".webp", ".tif", ".tiff", ".psd",
    ".svgz", ".pdf", ".zip", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".tar", ".jar",
    ".war", ".whl", ".egg", ".so", ".dll", ".dylib", ".exe", ".o", ".a", ".lib", ".obj", ".pyc",
    ".pyo", ".pyd", ".class", ".wasm", ".bin", ".dat", ".db", ".sqlite", ".woff", ".woff2",
    ".ttf", ".otf", ".eot", ".mp3", ".mp4", ".wav", ".ogg", ".flac", ".avi", ".mov", ".mkv",
    ".webm", ".npy", ".npz", ".pkl", ".pickle", ".pt", ".pth", ".onnx", ".gguf", ".safetensors",
    ".parquet", ".h5",
})
# fmt: on
#: Generated files that crowd out real code in retrieval.
_LOCK_FILES = frozenset(
    {
        "package-lock.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "Cargo.lock",
        "poetry.lock",
        "uv.lock",
        "Pipfile.lock",
        "composer.lock",
        "go.sum",
    }
)


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file the walk found eligible; its content is checked when read."""

    path: Path  # absolute
    rel: str  # project-relative, forward slashes
    num_bytes: int  # size at walk time
    mtime_ns: int  # modification time at walk time


def format_size(num_bytes: int) -> str:
    """``1_400_000`` -> ``"1.4 MB"`` (decimal units, one decimal)."""
    if num_bytes < 1000:
        return f"{num_bytes} B"
    if num_bytes < 1_000_000:
        return f"{num_bytes / 1000:.1f} KB"
    return f"{num_bytes / 1_000_000:.1f} MB"


def too_large_reason(num_bytes: int, max_bytes: int) -> str:
    """The skip reason for a file over the cap, e.g. ``"too large (1.4 MB > 1.0 MB)"``."""
    size, cap = format_size(num_bytes), format_size(max_bytes)
    if size == cap:
        size, cap = f"{num_bytes:,} B", f"{max_bytes:,} B"
    return f"too large ({size} > {cap})"


def to_rel(root: Path, path: str | os.PathLike[str]) -> str | None:
    """Project-relative form of ``path`` (forward slashes), or None when outside ``root``."""
    rel = os.path.relpath(os.path.abspath(path), root)
    if rel == "." or rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return None
    return rel.replace(os.sep, "/")


# -- folder and file rules ------------------------------------------------------------------


def dir_skip_reason(path: str, name: str) -> str | None:
    """Why the folder at absolute ``path`` (named ``name``) is skipped wholesale, or None."""
    reason = SKIPPED_DIR_NAMES.get(name)
    if reason is not None:
        return reason
    if name.endswith(".egg-info"):
        return "build output"
    if name.startswith("cmake-build-"):  # CLion's CMake build folders
        return "build output (CMake)"
    if os.path.exists(os.path.join(path, "pyvenv.cfg")):
        return "virtual environment"
    if name in _VENV_NAMES and (
        os.path.exists(os.path.join(path, "bin", "activate"))
        or os.path.exists(os.path.join(path, "Scripts", "activate.bat"))
        or os.path.isdir(os.path.join(path, "conda-meta"))
    ):
        return "virtual environment"
    if os.path.exists(os.path.join(path, "CACHEDIR.TAG")):
        return "cache"
    if name in _BUILD_DIR_NAMES and not os.path.exists(os.path.join(path, "__init__.py")):
        return "build output"
    if name == "target":
        parent = os.path.dirname(path)
        if any(os.path.exists(os.path.join(parent, owner)) for owner in _TARGET_OWNERS):
            return "build output"
    if name in ("bin", "obj"):
        try:
            beside = os.listdir(os.path.dirname(path))
        except OSError:
            return None
        if any(other.endswith(_DOTNET_PROJECTS) for other in beside):
            return "build output (.NET)"
    return None


def changes_folder_skip(rel: str) -> bool:
    """Whether a file at project-relative ``rel`` (created, deleted or moved) can change whether
    its folder is skipped (``dir_skip_reason``): ``pyvenv.cfg``, ``CACHEDIR.TAG``,
    ``__init__.py`` in a build-output name, an owner next to ``target``, a .NET project file
    next to ``bin``/``obj``, a venv's activate script. The watcher's per-path update cannot
    see that; a full re-check can."""
    parts = rel.split("/")
    name = parts[-1]
    folder = parts[-2] if len(parts) > 1 else ""
    if name in ("pyvenv.cfg", "CACHEDIR.TAG") or name in _TARGET_OWNERS:
        return True
    if name.endswith(_DOTNET_PROJECTS):
        return True
    if name == "__init__.py" and folder in _BUILD_DIR_NAMES:
        return True
    return (name in ("activate", "activate.bat") and folder in ("bin", "Scripts")
            and len(parts) > 2 and parts[-3] in _VENV_NAMES)


#: Editors' backup, swap, autosave and atomic-save files (Vim, Emacs, JetBrains, and the
#: ``.tmp`` that save-by-rename writes): indexed, they came and went in the edit history
#: ("created calc.py~") and put stale copies of code in retrieval.
_EDITOR_SUFFIXES = (
    "~", ".swp", ".swo", ".swx", ".kate-swp", ".tmp", ".bak", ".orig", ".rej", "___jb_tmp___",
    "___jb_old___",
)
_EDITOR_NAMES = frozenset({"4913"})  # Vim's probe that a folder is writable


def is_editor_temp(name: str) -> bool:
    """Whether ``name`` is an editor's backup, swap, autosave or temporary file."""
    return (
        name.endswith(_EDITOR_SUFFIXES)
        or name in _EDITOR_NAMES
        or name.startswith((".#", ".goutputstream-"))  # Emacs lock, GNOME's atomic save
        or (len(name) > 2 and name.startswith("#") and name.endswith("#"))  # Emacs autosave
    )


def file_skip_reason(name: str, num_bytes: int, *, max_bytes: int) -> str | None:
    """Why a regular file is skipped judging by its name and size alone, or None."""
    suffix = os.path.splitext(name)[1].lower()
    if suffix in BINARY_SUFFIXES:
        return "binary"
    if is_editor_temp(name):
        return "editor backup or temporary file"
    if name in _LOCK_FILES:
        return "generated (lock file)"
    if name.endswith((".min.js", ".min.css", ".js.map", ".css.map")):
        return "generated (minified)"
    if num_bytes > max_bytes:
        return too_large_reason(num_bytes, max_bytes)
    return None


# -- .gitignore -----------------------------------------------------------------------------


class IgnoreRules:
    """The gitignore rules of one project, loaded folder by folder and cached.

    Thread-safe: the watcher's thread reads and reloads them while nothing else writes. Call
    :meth:`reload` when a ``.gitignore`` (or ``.git/info/exclude``) changes.
    """

    def __init__(self, root: Path, *, extra_patterns: Iterable[str] = ()) -> None:
        self.root = root
        self._lock = threading.Lock()
        # Patterns given by the caller (like git's command line): relative to the root, they
        # take precedence over every ignore file. ``nospin bench`` passes "site-packages/".
        extra = GitIgnoreSpec.from_lines(list(extra_patterns))
        self._extra = extra if any(p.include is not None for p in extra.patterns) else None
        self._specs: dict[str, GitIgnoreSpec | None] = {}  # rel folder ("" = root) -> its rules
        self._exclude: GitIgnoreSpec | None = _load_spec(root / ".git" / "info" / "exclude")

    def reload(self, rel_dir: str | None = None) -> None:
        """Forget cached rules of ``rel_dir`` (a folder, "" for the root), or of every folder."""
        with self._lock:
            if rel_dir is None:
                self._specs.clear()
                self._exclude = _load_spec(self.root / ".git" / "info" / "exclude")
            else:
                self._specs.pop(rel_dir, None)

    def _spec(self, rel_dir: str) -> GitIgnoreSpec | None:
        with self._lock:
            if rel_dir in self._specs:
                return self._specs[rel_dir]
        folder = self.root / rel_dir if rel_dir else self.root
        spec = _load_spec(folder / ".gitignore")
        with self._lock:
            self._specs[rel_dir] = spec
        return spec

    def is_ignored(self, rel: str, *, is_dir: bool) -> bool:
        """Whether ``rel`` itself is ignored; its parent folders are not looked at (see
        :meth:`is_ignored_path`). The deepest ``.gitignore`` with a matching pattern decides."""
        parts = rel.split("/")
        name = rel + "/" if is_dir else rel
        if self._extra is not None:
            include = self._extra.check_file(name).include
            if include is not None:
                return include
        for depth in range(len(parts) - 1, -1, -1):
            rel_dir = "/".join(parts[:depth])
            spec = self._spec(rel_dir)
            if spec is None:
                continue
            sub = name[len(rel_dir) + 1 :] if rel_dir else name
            include = spec.check_file(sub).include
            if include is not None:
                return include
        if self._exclude is not None:
            return self._exclude.check_file(name).include is True
        return False

    def is_ignored_path(self, rel: str, *, is_dir: bool) -> bool:
        """Whether ``rel`` or any folder above it is ignored."""
        parts = rel.split("/")
        for depth in range(1, len(parts)):
            if self.is_ignored("/".join(parts[:depth]), is_dir=True):
                return True
        return self.is_ignored(rel, is_dir=is_dir)


def _load_spec(path: Path) -> GitIgnoreSpec | None:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    spec = GitIgnoreSpec.from_lines(text.splitlines())
    return spec if any(p.include is not None for p in spec.patterns) else None


# -- the walk -------------------------------------------------------------------------------


def _symlink_reason(root: Path, link: str) -> str:
    """The skip reason of a symlink (links are never followed, see the module doc)."""
    try:
        target = os.path.realpath(link, strict=True)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symlink loop"
        return "broken symlink"
    except RuntimeError:
        return "symlink loop"
    rel = to_rel(root, target)
    if rel is None and os.path.abspath(target) != str(root):
        return "symlink leaving the project"
    if rel is None or os.path.commonpath([target, os.path.abspath(link)]) == target:
        return "symlink loop"
    return f"symlink to {rel} (indexed there)"


def walk_project(
    root: Path,
    *,
    max_bytes: int,
    rules: IgnoreRules | None = None,
    under: str = "",
    on_skip: Callable[[SkipRecord], None] | None = None,
) -> Iterator[SourceFile]:
    """Yield the project's eligible files under ``root`` (or its subfolder ``under``), sorted.

    Called for the initial scan and for folders that appear while watching. Folders and files
    left out are reported to ``on_skip`` (gitignored ones too, reason "ignored"); files that
    vanish or folders that cannot be listed never raise.
    """
    root = Path(os.path.realpath(root))
    rules = rules or IgnoreRules(root)
    skip = on_skip or (lambda record: None)
    stack: list[tuple[str, str]] = [(str(root / under) if under else str(root), under)]
    while stack:
        abs_dir, rel_dir = stack.pop()
        try:
            with os.scandir(abs_dir) as it:
                entries = sorted(it, key=lambda e: e.name)
        except FileNotFoundError:
            continue  # vanished mid-walk
        except OSError as exc:
            skip(
                SkipRecord(rel_dir + "/" if rel_dir else "", f"unreadable folder ({exc.strerror})")
            )
            continue
        subdirs: list[tuple[str, str]] = []
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                if entry.is_symlink():
                    skip(SkipRecord(rel, _symlink_reason(root, entry.path)))
                    continue
                if entry.is_dir(follow_symlinks=False):
                    reason = dir_skip_reason(entry.path, entry.name)
                    if reason is None and rules.is_ignored(rel, is_dir=True):
                        reason = "ignored"
                    if reason is not None:
                        skip(SkipRecord(rel + "/", reason))
                    else:
                        subdirs.append((entry.path, rel))
                    continue
                st = entry.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue
            except OSError as exc:
                skip(SkipRecord(rel, f"unreadable ({exc.strerror})"))
                continue
            if not stat.S_ISREG(st.st_mode):
                skip(SkipRecord(rel, "not a regular file"))
                continue
            if rules.is_ignored(rel, is_dir=False):
                skip(SkipRecord(rel, "ignored"))
                continue
            reason = file_skip_reason(entry.name, st.st_size, max_bytes=max_bytes)
            if reason is not None:
                skip(SkipRecord(rel, reason))
                continue
            yield SourceFile(Path(entry.path), rel, st.st_size, st.st_mtime_ns)
        stack.extend(reversed(subdirs))


def iter_project_files(root: Path, *, max_bytes: int) -> Iterator[Path]:
    """Absolute paths of the project's eligible files (see :func:`walk_project`)."""
    for found in walk_project(root, max_bytes=max_bytes):
        yield found.path


def check_dir(root: Path, rel: str, *, rules: IgnoreRules) -> SkipRecord | None:
    """The record of the folder that makes folder ``rel`` skipped (itself or one above it:
    path ending in "/"), or None when the walk would enter it. Called by the watcher."""
    if not rel:
        return None
    path = str(root)
    parts = rel.split("/")
    for depth, name in enumerate(parts, start=1):
        path = os.path.join(path, name)
        folder = "/".join(parts[:depth])
        if os.path.islink(path):
            return SkipRecord(folder, _symlink_reason(root, path))
        reason = dir_skip_reason(path, name)
        if reason is None and rules.is_ignored(folder, is_dir=True):
            reason = "ignored"
        if reason is not None:
            return SkipRecord(folder + "/", reason)
    return None


def check_path(root: Path, rel: str, *, rules: IgnoreRules, max_bytes: int) -> SkipRecord | None:
    """Why the file ``rel`` is left out, or None when it should be read (then read_source can
    still refuse it). Called by the watcher for each changed path; the same rules as the walk.

    The record is the file's own, or that of a skipped folder above it (its path ends in "/").
    A file that does not exist gets the reason "vanished".
    """
    parent, _, name = rel.rpartition("/")
    record = check_dir(root, parent, rules=rules)
    if record is not None:
        return record
    path = os.path.join(root, rel)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return SkipRecord(rel, "vanished")
    except OSError as exc:
        return SkipRecord(rel, f"unreadable ({exc.strerror})")
    if stat.S_ISLNK(st.st_mode):
        return SkipRecord(rel, _symlink_reason(root, path))
    if stat.S_ISDIR(st.st_mode):
        return SkipRecord(rel, "a folder")
    if not stat.S_ISREG(st.st_mode):
        return SkipRecord(rel, "not a regular file")
    if rules.is_ignored(rel, is_dir=False):
        return SkipRecord(rel, "ignored")
    reason = file_skip_reason(name, st.st_size, max_bytes=max_bytes)
    return SkipRecord(rel, reason) if reason is not None else None


def read_source(path: Path | str, *, max_bytes: int) -> str:
    """Read a source file as text; raise SkippedFile with the reason when it cannot be used.

    Reasons: those of ``read_source_bytes`` and "not UTF-8". A UTF-8 byte-order mark is dropped.
    """
    data = read_source_bytes(path, max_bytes=max_bytes)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SkippedFile(str(path), "not UTF-8") from None


def read_source_bytes(path: Path | str, *, max_bytes: int) -> bytes:
    """A source file's bytes, read without blocking on what is not a regular file; raise
    SkippedFile with the reason: "vanished", "symlink loop", "unreadable (...)", "not a regular
    file" (a FIFO, a device: opening or reading one could wait or never end), "too large (...)",
    "binary", "invalid path" (a NUL character)."""
    name = str(path)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then rejects it.
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise SkippedFile(name, "vanished") from None
    except ValueError:  # "embedded null byte"
        raise SkippedFile(name.replace("\0", "\\0"), "invalid path") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SkippedFile(name, "symlink loop") from None
        raise SkippedFile(name, f"unreadable ({exc.strerror})") from exc
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SkippedFile(name, "not a regular file")
        if st.st_size > max_bytes:
            raise SkippedFile(name, too_large_reason(st.st_size, max_bytes))
        with os.fdopen(fd, "rb", closefd=False) as fh:
            head = fh.read(BINARY_SNIFF_BYTES)
            if b"\0" in head:
                raise SkippedFile(name, "binary")
            rest = fh.read(max_bytes + 1 - len(head)) if len(head) == BINARY_SNIFF_BYTES else b""
    except OSError as exc:
        raise SkippedFile(name, f"unreadable ({exc.strerror})") from exc
    finally:
        os.close(fd)
    data = head + rest
    if len(data) > max_bytes:
        raise SkippedFile(name, too_large_reason(len(data), max_bytes))
    return data


__all__ = [
    "BINARY_SNIFF_BYTES",
    "BINARY_SUFFIXES",
    "SKIPPED_DIR_NAMES",
    "IgnoreRules",
    "SourceFile",
    "changes_folder_skip",
    "check_dir",
    "check_path",
    "dir_skip_reason",
    "file_skip_reason",
    "format_size",
    "iter_project_files",
    "read_source",
    "read_source_bytes",
    "to_rel",
    "too_large_reason",
    "walk_project",
]

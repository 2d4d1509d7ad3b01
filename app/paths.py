"""Where nospin keeps its files (platformdirs), overridable with ``NOSPIN_HOME`` for tests."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import platformdirs

_APP = "nospin"


def _home() -> Path | None:
    value = os.environ.get("NOSPIN_HOME")
    return Path(value) if value else None


def config_dir() -> Path:
    """User config directory (config.toml, tcp token, snapshots)."""
    home = _home()
    return home / "config" if home else Path(platformdirs.user_config_dir(_APP))


def cache_dir() -> Path:
    """User cache directory (assembled embedded model, KV state files)."""
    home = _home()
    return home / "cache" if home else Path(platformdirs.user_cache_dir(_APP))


def state_dir() -> Path:
    """User state directory (request log, metrics)."""
    home = _home()
    return home / "state" if home else Path(platformdirs.user_state_dir(_APP))


def runtime_dir() -> Path:
    """User runtime directory (the daemon's ipc socket and pid file)."""
    home = _home()
    if home:
        return home / "run"
    with warnings.catch_warnings():  # no XDG_RUNTIME_DIR: platformdirs falls back and says so
        warnings.simplefilter("ignore")
        return Path(platformdirs.user_runtime_dir(_APP))


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` (and parents) readable by the user only; return it."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path


def atomic_write(path: Path, data: bytes, *, mode: int = 0o600) -> None:
    """Write ``data`` to ``path`` atomically (temp file in the same folder, fsync, rename).

    A crash or a full disk leaves either the old file or the new one, never half of one.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise

"""The one error hierarchy of nospin.

Every error nospin raises on purpose derives from :class:`NospinError`; library errors are
translated at the boundary (``raise EngineError(...) from exc``). Each class carries a stable
``code`` that the protocol sends to clients (see ``docs/protocol.md``)::

    NospinError                      code "internal"
    ├── ConfigError                  "config"          bad or unreadable configuration
    ├── InputError                   "bad_input"       a request that cannot be served as given
    │   ├── CursorError              "bad_cursor"      cursor outside the document
    │   └── ProtocolError            "bad_message"     malformed / unknown / oversized message
    ├── IndexingError                "indexing"        a file that could not be indexed
    │   └── SkippedFile              "skipped"         file left out on purpose (binary, too big)
    ├── ModelError                   "model"           model files missing, corrupt or unloadable
    │   └── ModelNotInstalled        "model_missing"   embedded model packages not installed
    ├── EngineError                  "engine"          a backend failed while generating
    │   ├── EngineUnavailable        "engine_unavailable"  backend cannot run here (no CUDA, ...)
    │   ├── EngineDied               "engine_died"     backend crashed; requests get this reply
    │   └── RemoteError              "remote"          the remote server failed or timed out
    ├── Cancelled                    "cancelled"       the request was cancelled or superseded
    ├── DeadlineExceeded             "deadline"        no answer possible within the deadline
    ├── Overloaded                   "overloaded"      shed under load, with the reason
    ├── DaemonError                  "daemon"          daemon not running / cannot start
    │   └── AlreadyRunning           "already_running" another daemon serves this user
    └── InstallError                 "install"         installing or removing the service failed
"""

from __future__ import annotations


class NospinError(Exception):
    """Base of every error nospin raises on purpose."""

    code: str = "internal"

    def __init__(self, message: str, *, detail: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail

    def __str__(self) -> str:
        return self.message if not self.detail else f"{self.message} ({self.detail})"


class ConfigError(NospinError):
    code = "config"


class InputError(NospinError):
    code = "bad_input"


class CursorError(InputError):
    code = "bad_cursor"


class ProtocolError(InputError):
    code = "bad_message"


class IndexingError(NospinError):
    code = "indexing"


class SkippedFile(IndexingError):
    """A file left out of the index on purpose; ``reason`` says why (for users and logs)."""

    code = "skipped"

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"skipped {path}: {reason}")
        self.path = path
        self.reason = reason


class ModelError(NospinError):
    code = "model"


class ModelNotInstalled(ModelError):
    code = "model_missing"


class EngineError(NospinError):
    code = "engine"


class EngineUnavailable(EngineError):
    code = "engine_unavailable"


class EngineDied(EngineError):
    code = "engine_died"


class RemoteError(EngineError):
    code = "remote"


class Cancelled(NospinError):
    code = "cancelled"


class DeadlineExceeded(NospinError):
    code = "deadline"


class Overloaded(NospinError):
    code = "overloaded"


class DaemonError(NospinError):
    code = "daemon"


class AlreadyRunning(DaemonError):
    code = "already_running"


class InstallError(NospinError):
    code = "install"


__all__ = [
    "AlreadyRunning",
    "Cancelled",
    "ConfigError",
    "CursorError",
    "DaemonError",
    "DeadlineExceeded",
    "EngineDied",
    "EngineError",
    "EngineUnavailable",
    "IndexingError",
    "InputError",
    "InstallError",
    "ModelError",
    "ModelNotInstalled",
    "NospinError",
    "Overloaded",
    "ProtocolError",
    "RemoteError",
    "SkippedFile",
]

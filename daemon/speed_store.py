"""The engine's learnt speed, kept across daemon restarts.

The scheduler predicts each request's time from a :class:`~daemon.latency_model.LatencyModel`
and picks its degradation tier from that. A new daemon started from the priors (decode 28 ms per
token, every request filling its ``max_tokens``): a 64-token completion was predicted at 1.8 s of
decoding, so the first completions of every session were capped or sent to fast mode until the
model had learnt from a few finished ones. The figures are now saved when the daemon stops, when
the engine is replaced and every :data:`SAVE_EVERY` requests the model learnt from (warm-ups
included), and a daemon with the same engine settings starts from them.

One JSON file (``state_dir()/speed.json``, written atomically, 0600) holds the figures of the
last :data:`MAX_ENTRIES` settings, keyed by :func:`speed_key`: the ``[engine]`` section and
``completion.max_tokens`` (the fill ratio is a share of it). A file that cannot be read or is not
what this module writes is ignored (the priors are used) and replaced at the next save; a save
that fails (a full disk, a read-only folder) is logged and changes nothing else.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from pathlib import Path
from typing import Any

from app.config import Config, to_dict
from app.paths import atomic_write, state_dir

log = logging.getLogger(__name__)

FILE_NAME = "speed.json"
VERSION = 1
MAX_ENTRIES = 8  # engine settings remembered (the most recently saved)
SAVE_EVERY = 100  # requests the model learnt from (warm-ups too) between saves


def speed_key(config: Config) -> str:
    """What the learnt figures depend on: the engine's settings and the completion length."""
    basis = {"engine": to_dict(config)["engine"], "max_tokens": config.completion.max_tokens}
    text = json.dumps(basis, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class SpeedStore:
    """Reads and writes ``speed.json``; every error is logged, none raised."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else state_dir() / FILE_NAME
        self._lock = threading.Lock()  # saves from a worker thread and the loop: one at a time

    def _entries(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:  # unreadable, not JSON, not UTF-8
            log.warning("learnt engine speed not read from %s (%s): starting from the priors",
                        self.path, exc)
            return {}
        entries = data.get("entries") if isinstance(data, dict) else None
        if not isinstance(entries, dict) or data.get("version") != VERSION:
            log.warning("%s is not a speed file of this version: starting from the priors",
                        self.path)
            return {}
        return {k: v for k, v in entries.items() if isinstance(v, dict)}

    def load(self, key: str) -> dict[str, Any] | None:
        """The figures saved under ``key``, or None."""
        figures = self._entries().get(key, {}).get("figures")
        return figures if isinstance(figures, dict) else None

    def save(self, key: str, figures: dict[str, float], *, samples: int) -> bool:
        """Save ``figures`` (learnt from ``samples`` requests) under ``key``; False on error.
        Thread-safe (the other entries are read again under the same lock)."""
        with self._lock:
            return self._save(key, figures, samples)

    def _save(self, key: str, figures: dict[str, float], samples: int) -> bool:
        # the others, oldest first, then this one: it is kept whatever the clock says
        others = sorted(((k, v) for k, v in self._entries().items() if k != key),
                        key=lambda kv: _saved_at(kv[1]))
        kept = dict(others[-(MAX_ENTRIES - 1):] if MAX_ENTRIES > 1 else [])
        kept[key] = {"figures": figures, "samples": samples, "saved": time.time()}
        data = json.dumps({"version": VERSION, "entries": kept}, indent=1, sort_keys=True)
        try:
            atomic_write(self.path, data.encode("utf-8"))
        except OSError as exc:
            log.warning("learnt engine speed not saved to %s: %s", self.path, exc)
            return False
        return True


def _saved_at(entry: dict[str, Any]) -> float:
    saved = entry.get("saved")
    return float(saved) if isinstance(saved, (int, float)) else 0.0


__all__ = ["FILE_NAME", "MAX_ENTRIES", "SAVE_EVERY", "SpeedStore", "speed_key"]

"""Configuration snapshots: the configuration with the metrics of the period before each change.

When the configuration changes (``config set``, fast-mode toggle) the server calls
``SnapshotStore.save(new_config, metrics.snapshot(now), reason=..., now=time.time())`` and then
resets the metrics window. A snapshot is one JSON file in ``config_dir()/snapshots``, written
atomically (0600). The ``nospin snapshot list|show|diff`` command reads them through this module
(no daemon needed).

Snapshot ids sort by time: ``YYYYmmdd-HHMMSS-ffffff-xxxx`` (UTC, microseconds, 4 hex chars).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.config import Config, to_dict
from app.errors import ConfigError
from app.paths import atomic_write, config_dir

__all__ = [
    "ConfigChange",
    "ConfigSnapshot",
    "MetricDelta",
    "SnapshotDiff",
    "SnapshotStore",
    "default_snapshot_dir",
    "diff_snapshots",
    "flatten",
    "format_diff",
    "format_list",
]


def default_snapshot_dir() -> Path:
    """``config_dir()/"snapshots"``."""
    return config_dir() / "snapshots"


@dataclass(frozen=True, slots=True)
class ConfigSnapshot:
    """One saved snapshot."""

    id: str  # sortable id, file name without ".json"
    time: float  # wall-clock seconds when saved
    reason: str  # why the config changed, e.g. "config set tiers.force_fast=true"
    config: dict[str, Any]  # app.config.to_dict of the configuration now in force
    metrics: dict[str, Any]  # Metrics.snapshot() of the period BEFORE this change

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "time": self.time,
            "reason": self.reason,
            "config": self.config,
            "metrics": self.metrics,
        }

    @classmethod
    def from_dict(cls, data: Any) -> ConfigSnapshot:
        """Parse a stored snapshot; ValueError when fields are missing or mistyped."""
        if not isinstance(data, dict):
            raise ValueError("snapshot is not an object")
        id_, time_, reason = data.get("id"), data.get("time"), data.get("reason")
        config, metrics = data.get("config"), data.get("metrics")
        if not isinstance(id_, str) or not isinstance(reason, str):
            raise ValueError("snapshot id/reason missing")
        if not isinstance(time_, int | float) or isinstance(time_, bool):
            raise ValueError("snapshot time missing")
        if not isinstance(config, dict) or not isinstance(metrics, dict):
            raise ValueError("snapshot config/metrics missing")
        return cls(id=id_, time=float(time_), reason=reason, config=config, metrics=metrics)


@dataclass(frozen=True, slots=True)
class ConfigChange:
    key: str  # dotted key, e.g. "tiers.force_fast"
    old: Any  # value in the older snapshot (None when absent)
    new: Any  # value in the newer snapshot (None when absent)


@dataclass(frozen=True, slots=True)
class MetricDelta:
    key: str  # dotted metric key, e.g. "total_ms.p95"
    old: float | None  # value in the older snapshot
    new: float | None  # value in the newer snapshot
    delta: float | None  # new - old, when both are numbers


@dataclass(frozen=True, slots=True)
class SnapshotDiff:
    old: ConfigSnapshot
    new: ConfigSnapshot
    config_changes: tuple[ConfigChange, ...]  # only keys whose value differs
    metric_deltas: tuple[MetricDelta, ...]  # every numeric metric, side by side


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested dicts to dotted keys: ``{"a": {"b": 1}}`` -> ``{"a.b": 1}``."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict):
            out.update(flatten(value, dotted))
        else:
            out[dotted] = value
    return out


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


class SnapshotStore:
    """Snapshots in one folder; every write atomic (app.paths.atomic_write, 0600)."""

    def __init__(self, directory: Path | None = None) -> None:
        """``directory``: default ``default_snapshot_dir()`` (honours NOSPIN_HOME)."""
        self.directory = directory or default_snapshot_dir()  # where the JSON files live

    def save(
        self, config: Config, metrics: dict[str, Any], *, reason: str, now: float
    ) -> ConfigSnapshot:
        """Write a snapshot of ``config`` with ``metrics`` of the period before; return it.
        Raises OSError when the folder cannot be written (the caller reports it)."""
        config_data = to_dict(config)
        stamp = _dt.datetime.fromtimestamp(now, _dt.UTC).strftime("%Y%m%d-%H%M%S-%f")
        body = json.dumps([config_data, reason, now], sort_keys=True, default=str)
        suffix = hashlib.blake2b(body.encode(), digest_size=2).hexdigest()
        # snapshots saved within the same microsecond sort in save order (then "latest" is right)
        seq = sum(1 for _ in self.directory.glob(f"{stamp}-*.json"))
        snapshot_id = f"{stamp}-{seq:02d}{suffix}"
        snapshot = ConfigSnapshot(
            id=snapshot_id, time=now, reason=reason, config=config_data, metrics=metrics
        )
        data = json.dumps(snapshot.to_dict(), indent=2, sort_keys=True, default=str) + "\n"
        atomic_write(self.directory / f"{snapshot_id}.json", data.encode("utf-8"))
        return snapshot

    def list(self) -> list[ConfigSnapshot]:
        """All snapshots, oldest first; unreadable files are skipped."""
        try:
            paths = sorted(self.directory.glob("*.json"))
        except OSError:
            return []
        out: list[ConfigSnapshot] = []
        for path in paths:
            try:
                out.append(ConfigSnapshot.from_dict(json.loads(path.read_text("utf-8"))))
            except (OSError, ValueError):
                continue
        out.sort(key=lambda s: (s.time, s.id))
        return out

    def show(self, ref: str) -> ConfigSnapshot:
        """A snapshot by id, unique id prefix, "latest" or "previous"; ConfigError if none."""
        snapshots = self.list()
        if ref in ("latest", "previous"):
            index = -1 if ref == "latest" else -2
            if len(snapshots) < -index:
                raise ConfigError(f"no {ref} snapshot: {len(snapshots)} saved")
            return snapshots[index]
        exact = [s for s in snapshots if s.id == ref]
        if exact:
            return exact[0]
        matches = [s for s in snapshots if s.id.startswith(ref)] if ref else []
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise ConfigError(f"no snapshot {ref!r}")
        raise ConfigError(f"snapshot {ref!r} is ambiguous: {len(matches)} match")

    def diff(self, old_ref: str = "previous", new_ref: str = "latest") -> SnapshotDiff:
        """Changed config keys (old -> new) and metric deltas between two snapshots."""
        return diff_snapshots(self.show(old_ref), self.show(new_ref))


def diff_snapshots(old: ConfigSnapshot, new: ConfigSnapshot) -> SnapshotDiff:
    """Compare two snapshots: config keys that differ, numeric metrics side by side."""
    old_cfg, new_cfg = flatten(old.config), flatten(new.config)
    changes = tuple(
        ConfigChange(key, old_cfg.get(key), new_cfg.get(key))
        for key in sorted(old_cfg.keys() | new_cfg.keys())
        if old_cfg.get(key) != new_cfg.get(key)
    )
    old_m, new_m = flatten(old.metrics), flatten(new.metrics)
    deltas: list[MetricDelta] = []
    for key in sorted(old_m.keys() | new_m.keys()):
        a, b = _number(old_m.get(key)), _number(new_m.get(key))
        if a is None and b is None:
            continue
        deltas.append(MetricDelta(key, a, b, None if a is None or b is None else b - a))
    return SnapshotDiff(old=old, new=new, config_changes=changes, metric_deltas=tuple(deltas))


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4g}"
    return json.dumps(value, default=str)


def format_list(snapshots: list[ConfigSnapshot]) -> str:
    """Table for ``nospin snapshot list``: id, time, reason, requests, p95 total."""
    if not snapshots:
        return "no snapshots\n"
    lines = [f"{'id':<30} {'time (UTC)':<19} {'requests':>8} {'p95 ms':>8}  reason"]
    for s in snapshots:
        when = _dt.datetime.fromtimestamp(s.time, _dt.UTC).strftime("%Y-%m-%d %H:%M:%S")
        total = s.metrics.get("total_ms")
        p95 = total.get("p95") if isinstance(total, dict) else None
        num = s.metrics.get("num_requests", "-")
        lines.append(f"{s.id:<30} {when:<19} {_fmt(num):>8} {_fmt(p95):>8}  {s.reason}")
    return "\n".join(lines) + "\n"


def format_diff(diff: SnapshotDiff) -> str:
    """Text for ``nospin snapshot diff``: config changes, then metrics old / new / delta.

    The metrics of a snapshot belong to the period before it, so the metric columns compare
    the period before ``old`` with the period before ``new`` (the one ``old`` was in force).
    """
    lines = [f"snapshot {diff.old.id} -> {diff.new.id}", "", "config:"]
    if not diff.config_changes:
        lines.append("  (no changes)")
    for c in diff.config_changes:
        lines.append(f"  {c.key}: {_fmt(c.old)} -> {_fmt(c.new)}")
    lines += ["", f"  {'metric':<32} {'old':>10} {'new':>10} {'delta':>10}"]
    for m in diff.metric_deltas:
        delta = "-" if m.delta is None else f"{m.delta:+.4g}"
        lines.append(f"  {m.key:<32} {_fmt(m.old):>10} {_fmt(m.new):>10} {delta:>10}")
    return "\n".join(lines) + "\n"

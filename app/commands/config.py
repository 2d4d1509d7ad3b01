"""``nospin config get|set|path``: read and change the configuration from a terminal.

With a daemon running, ``get`` shows what it uses and ``set`` goes through it (``config.set``):
validated, saved into its file (comments kept), snapshotted, applied at once; engine settings
load a new engine before the answer, and one that does not start changes nothing. Without a
daemon, the file is read and edited (``app.config.update_file``, the same checks); the daemon
reads it when it starts. No daemon is started for this.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import tomlkit

from app import config as cfg
from app.client import Client
from app.errors import DaemonError
from daemon import lifecycle
from daemon.engine_settings import needs_new_engine


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "config", help="show or change settings (through the running daemon, else its file)")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    get = verbs.add_parser("get", help="the configuration, a section or one value")
    get.add_argument("key", nargs="?", help="a dotted key: engine, engine.model ...")
    get.add_argument("--json", action="store_true", help="print JSON")
    get.add_argument("--file", action="store_true",
                     help="read the file even when a daemon runs (what the next start reads)")
    get.set_defaults(func=run_get)
    put = verbs.add_parser(
        "set", help="set KEY=VALUE ... (one change: all applied or none)",
        description="Set dotted keys, e.g. `nospin config set engine.n_ctx=8192 "
        "completion.debounce_ms=100`. Values are read as the key's type (true/false, whole "
        "numbers, decimals, text). A running daemon applies them at once (engine settings "
        "load a new engine first); otherwise the file is changed for its next start.")
    put.add_argument("pairs", nargs="+", metavar="KEY=VALUE")
    put.add_argument("--file", action="store_true",
                     help="change only the file, even when a daemon runs (not applied now)")
    put.set_defaults(func=run_set)
    path = verbs.add_parser("path", help="the configuration file's path")
    path.set_defaults(func=run_path)


def _client() -> Client | None:
    """A client of the running daemon, or None when none runs."""
    if lifecycle.read_daemon_info() is None:
        return None
    return Client(autostart=False, idle_timeout_s=15.0)


def run_get(args: argparse.Namespace) -> int:
    client = None if args.file else _client()
    if client is not None:
        try:
            with client:
                values = client.config_get(args.key)
        except DaemonError as exc:
            raise DaemonError(f"the daemon did not answer ({exc.message}); `nospin config get "
                              "--file` reads its file") from exc
    else:
        data = cfg.to_dict(cfg.load())
        values = data if args.key is None else {args.key: cfg.value_at(data, args.key)}
    value = values if args.key is None else values[args.key]
    if isinstance(value, dict):  # a secret only when asked for by its own key
        value = _masked(value, args.key or "")
    if args.json:
        print(json.dumps(value, indent=2))
    elif isinstance(value, dict):
        print(tomlkit.dumps(value if args.key is None else _nest(args.key, value)).rstrip())
    else:
        print(value if isinstance(value, str) else tomlkit.item(value).as_string())
    return 0


SECRETS = frozenset({"engine.remote_api_key"})


def _masked(values: dict[str, Any], prefix: str) -> dict[str, Any]:
    """``values`` (the section at ``prefix``) with secrets that are set shown as ``"***"``."""
    out: dict[str, Any] = {}
    for name, value in values.items():
        key = f"{prefix}.{name}" if prefix else name
        if isinstance(value, dict):
            out[name] = _masked(value, key)
        else:
            out[name] = "***" if key in SECRETS and value else value
    return out


def _nest(key: str, value: Any) -> dict[str, Any]:
    out: Any = value
    for part in reversed(key.split(".")):
        out = {part: out}
    result: dict[str, Any] = out
    return result


def run_set(args: argparse.Namespace) -> int:
    changes = cfg.parse_assignments(args.pairs)
    said = ", ".join(f"{k} = {'***' if k in SECRETS and v else json.dumps(v)}"
                     for k, v in changes.items())
    client = None if args.file else _client()
    if client is None:
        path = cfg.default_config_path()
        cfg.update_file(path, changes)
        where = "" if args.file else " (no daemon runs; it reads the file when it starts)"
        print(f"set {said} in {path}{where}")
        return 0
    with client:
        before = cfg.from_dict(client.config_get())
        started = time.monotonic()
        reply = client.config_set(changes, note="nospin config set " + said)
        took = time.monotonic() - started
    after = cfg.from_dict(reply.values)
    notes = [f"snapshot {reply.snapshot}"] if reply.snapshot else []
    if needs_new_engine(before.engine, after.engine):
        notes.append(f"the daemon loaded a new engine in {took:.1f} s")
    print(f"set {said} in the running daemon" + (f" ({'; '.join(notes)})" if notes else ""))
    return 0


def run_path(args: argparse.Namespace) -> int:
    path: Path = cfg.default_config_path()
    print(path)
    return 0

"""``nospin stop`` / ``nospin restart``: stop the per-user daemon cleanly; start a new one."""

from __future__ import annotations

import argparse
from typing import Any

from app.config import load
from app.errors import ConfigError
from daemon import lifecycle


def register(sub: Any) -> None:
    stop = sub.add_parser("stop", help="stop the running daemon (clean shutdown)")
    stop.add_argument("--timeout", type=float, default=15.0,
                      help="seconds to wait for it to exit (default 15)")
    stop.set_defaults(func=run_stop)
    restart = sub.add_parser("restart", help="stop the running daemon and start a new one "
                             "(for example after editing its config file by hand)")
    restart.add_argument("--timeout", type=float, default=15.0,
                         help="seconds to wait for the old one to exit (default 15)")
    restart.set_defaults(func=run_restart)


def run_stop(args: argparse.Namespace) -> int:
    pid = lifecycle.stop_daemon(args.timeout)
    if pid is None:
        print("nospin daemon: not running")
    else:
        print(f"nospin daemon: stopped (pid {pid})")
    return 0


def run_restart(args: argparse.Namespace) -> int:
    try:  # the configuration the new daemon will read: checked before the old one stops
        load()
    except ConfigError as exc:
        raise ConfigError(f"{exc.message}: the running daemon was left as it is",
                          detail=exc.detail) from exc
    old = lifecycle.stop_daemon(args.timeout)
    proc, log_file = lifecycle.spawn_daemon()
    lifecycle.wait_for_socket(proc, log_file, timeout_s=30.0)
    info = lifecycle.read_daemon_info()
    pid = info.pid if info else proc.pid
    was = f" (was pid {old})" if old is not None else ""
    print(f"nospin daemon: started, pid {pid}{was}; log {log_file}; the engine loads in the "
          "background (`nospin status`)")
    return 0

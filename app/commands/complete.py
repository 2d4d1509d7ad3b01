"""``nospin complete FILE:LINE:COL``: one completion from the daemon (started when none runs).

LINE and COL are 1-based, as editors show them. The daemon reads the file from disk (or uses its
open buffer when an editor has it open). Prints the completion, then its latency and tier.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import msgspec

from app.client import Client
from app.commands.argtypes import positive_int
from app.errors import CursorError, InputError
from daemon import lifecycle
from daemon import protocol as p


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "complete", help="complete at FILE:LINE:COL (1-based); starts the daemon if needed")
    parser.add_argument("location", metavar="FILE:LINE:COL")
    parser.add_argument("--json", action="store_true", help="print the final reply as JSON")
    parser.add_argument("--root", default=None, help="project root (default: found from FILE)")
    parser.add_argument("--max-tokens", type=positive_int, default=None)
    parser.add_argument("--multiline", choices=("auto", "true", "false"), default="auto")
    parser.add_argument("--deadline-ms", type=positive_int, default=60_000,
                        help="answer by then (default 60 s: the first request loads the model)")
    parser.add_argument("--no-start", action="store_true", help="fail if no daemon runs")
    parser.set_defaults(func=run)


def project_root(root: str | None) -> str | None:
    """``--root`` as an absolute folder (relative to the working directory); InputError when it
    is not a folder."""
    if root is None:
        return None
    path = os.path.abspath(root)
    if not os.path.isdir(path):
        raise InputError(f"--root {root!r} is not a folder")
    return path


def parse_location(location: str) -> tuple[str, int, int]:
    """``FILE:LINE:COL`` (1-based) -> (absolute path, 0-based line, 0-based col)."""
    parts = location.rsplit(":", 2)
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
        raise InputError(f"expected FILE:LINE:COL, got {location!r}")
    line, col = int(parts[1]), int(parts[2])
    if line < 1 or col < 1:
        raise InputError("LINE and COL are 1-based")
    return os.path.abspath(parts[0]), line - 1, col - 1


def run(args: argparse.Namespace) -> int:
    path, line, col = parse_location(args.location)
    root = project_root(args.root)
    multiline: Any = {"auto": "auto", "true": True, "false": False}[args.multiline]
    with Client(autostart=not args.no_start, idle_timeout_s=max(15.0, args.deadline_ms / 1000),
                client_name="nospin-cli") as client:
        if client.aio.started_daemon:
            info = lifecycle.read_daemon_info()
            print(f"nospin: started a daemon (pid {info.pid if info else '?'}, log "
                  f"{lifecycle.log_path()})", file=sys.stderr)
        try:
            done = client.complete(path, line, col, root=root, max_tokens=args.max_tokens,
                                   multiline=multiline, deadline_ms=args.deadline_ms)
        except CursorError as exc:  # the daemon counts from 0, as editors send; the user from 1
            raise CursorError(f"{args.location}: line {line + 1}, column {col + 1} (1-based) is "
                              "outside the document", detail=exc.message) from None
    if args.json:
        data = msgspec.to_builtins(done)
        print(json.dumps(data, indent=2))
        return 0
    print(done.text)
    print(summary_line(done), file=sys.stderr)
    return 0


def summary_line(done: p.DoneReply) -> str:
    """The line after the completion: tier (and why, when degraded), times, tokens, cache and
    context."""
    t = done.timings
    tier_names = {1: "normal", 2: "cap", 3: "fast"}
    tier = (f"tier {done.tier} ({tier_names[done.tier]})" if done.tier in tier_names
            else done.tier_reason or "no tier")
    if done.tier in (2, 3) and done.tier_reason:  # degraded: say why
        tier = f"{tier}: {done.tier_reason}"
    summary = (f"-- {tier}, first token "
               f"{t.first_token_ms:.0f} ms, total {t.total_ms:.0f} ms, {done.num_tokens} tokens, "
               f"{done.finish_reason}, cache {done.cache}")
    if done.context.budget_tokens:  # a context was assembled
        c = done.context
        summary += (f", context {c.num_tokens}/{c.budget_tokens} tokens "
                    f"(saved {c.num_tokens_saved}, {c.num_dropped} dropped)")
    return summary


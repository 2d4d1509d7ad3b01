"""``nospin lsp``: a language server over stdio for any LSP editor (docs/editors.md).

Editors start it as their language server for the languages they want completed. It talks to
this user's daemon (started on demand) and never writes anything but LSP to stdout.
"""

from __future__ import annotations

import argparse
import logging
import os
from typing import Any

from app.commands.argtypes import positive_int


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "lsp", help="language server over stdio (inline completion, completion) for editors")
    parser.add_argument("--stdio", action="store_true",
                        help="accepted for clients that pass it; stdio is the only transport")
    parser.add_argument("--endpoint", default=None, type=_endpoint,
                        help="daemon endpoint, ipc://PATH or tcp://HOST:PORT (default: this "
                             "user's ipc socket, NOSPIN_ENDPOINT)")
    parser.add_argument("--deadline-ms", type=positive_int, default=None,
                        help="answer every completion by then (default 2500)")
    parser.add_argument("--max-tokens", type=positive_int, default=None,
                        help="most tokens per completion (default: the daemon's setting)")
    parser.add_argument("--completion", choices=("auto", "on", "off"), default="auto",
                        help="also serve textDocument/completion: auto = for clients without "
                             "inline completion")
    parser.add_argument("--no-start", action="store_true", help="do not start a daemon")
    parser.add_argument("--log", default=None, metavar="FILE",
                        help="write the server's log to FILE (default: stderr, warnings only)")
    parser.set_defaults(func=run)


def _endpoint(value: str) -> str:
    """``--endpoint``: a bad address is a usage error, before any editor traffic."""
    from app.client import check_endpoint
    from app.errors import ConfigError

    try:
        return check_endpoint(value)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    from app.client import check_endpoint
    from app.lsp.server import LspSettings, serve
    from daemon import protocol as p

    if not args.endpoint and (env := os.environ.get("NOSPIN_ENDPOINT")):
        check_endpoint(env)  # ConfigError: "nospin: error: ...", exit status 1

    if args.log:
        handler = logging.FileHandler(args.log)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root = logging.getLogger()
        for other in root.handlers:  # stderr stays at warnings: editors log it as errors
            other.setLevel(logging.WARNING)
        root.addHandler(handler)
        root.setLevel(logging.DEBUG if args.verbose else logging.INFO)
    settings = LspSettings(
        endpoint=args.endpoint, autostart=not args.no_start,
        deadline_ms=args.deadline_ms or p.DEFAULT_DEADLINE_MS, max_tokens=args.max_tokens,
        completion=args.completion)
    serve(settings)
    return 0

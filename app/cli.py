"""The ``nospin`` console command: one entry point, subcommands registered from app/commands/."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from app import __version__
from app.errors import NospinError

# Each module in app/commands/ exposes ``register(subparsers)``; the parser it adds sets
# ``func`` (``(args) -> int``). Add new commands here, one line each.
COMMAND_MODULES: tuple[str, ...] = (
    "app.commands.context",
    "app.commands.bench",
    "app.commands.model",
    "app.commands.quantize",  # after model: adds `quantize` to its `model` group
    "app.commands.daemon",
    "app.commands.status",
    "app.commands.stop",  # stop and restart
    "app.commands.config",
    "app.commands.complete",
    "app.commands.snapshot",
    "app.commands.eval",
    "app.commands.tray",
    "app.commands.lsp",
    "app.commands.install",  # install and uninstall
    "app.commands.doctor",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nospin", description="Local AI code completion that answers before you finish typing."
    )
    parser.add_argument("--version", action="version", version=f"nospin {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        result: int = args.func(args)
        return result
    except NospinError as exc:
        print(f"nospin: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into head & co.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())

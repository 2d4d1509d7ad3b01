"""``nospin daemon``: run the per-user daemon in the foreground, logging to the terminal."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import os
import sys
from typing import Any

from app import config as cfg
from app.errors import ConfigError
from daemon.supervisor import EngineFactory


def register(sub: Any) -> None:
    parser = sub.add_parser("daemon", help="run the daemon in the foreground (logs to stderr)")
    parser.add_argument("--config", default=None,
                        help="config file, which must exist (default: the user's; defaults "
                        "when that is missing)")
    parser.add_argument("--log-file", default="", help=argparse.SUPPRESS)  # set by auto-start
    parser.add_argument("--no-index", action="store_true",
                        help="do not index project folders (context from the current file only)")
    # tests: "module:callable" taking the Config and returning an Engine; the environment
    # variable NOSPIN_ENGINE_FACTORY sets it for daemons that clients start on demand
    parser.add_argument("--engine-factory", default=os.environ.get("NOSPIN_ENGINE_FACTORY", ""),
                        help=argparse.SUPPRESS)
    parser.set_defaults(func=run)


def engine_factory(config: cfg.Config, spec: str = "") -> EngineFactory:
    """The factory the supervisor calls (again after each engine death); the daemon asks for
    another when engine settings change (``config.set``)."""
    if spec:
        module_name, _, attr = spec.partition(":")
        try:
            make = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as exc:
            raise ConfigError(f"cannot load engine factory {spec!r}", detail=str(exc)) from exc
        return lambda: make(config)

    def create() -> Any:
        from engine.factory import create_engine

        return create_engine(config)

    return create


def log_to_own_descriptor() -> None:
    """Point the root logger's stderr handlers at a copy of descriptor 2.

    llama-cpp-python (not verbose) points descriptors 1 and 2 at /dev/null while a model loads,
    for the whole process: in the daemon, whose stderr is its log, the lines other threads
    logged meanwhile were lost (84 of 178 in a test logging every 5 ms beside a load). Native
    output to descriptor 2 stays silenced there; the log does not.
    """
    try:
        stream = open(os.dup(2), "w", buffering=1, encoding="utf-8",  # noqa: SIM115
                      errors="backslashreplace")
    except OSError:  # no descriptor 2: nothing to keep
        return
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.StreamHandler) and \
                handler.stream in (sys.stderr, sys.__stderr__):
            handler.setStream(stream)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from daemon.runner import run_daemon

    logging.getLogger().setLevel(logging.DEBUG if args.verbose else logging.INFO)
    log_to_own_descriptor()
    path = Path(args.config) if args.config else cfg.default_config_path()
    config = cfg.load(path, must_exist=bool(args.config))  # a typo is not "defaults"
    asyncio.run(run_daemon(
        config, engine_factory=engine_factory(config, args.engine_factory), config_path=path,
        log_file=args.log_file, index_projects=not args.no_index, crash_reports=True,
        engine_factory_for=lambda changed: engine_factory(changed, args.engine_factory),
    ))
    return 0

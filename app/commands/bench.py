"""``nospin bench NAME ...``: benchmarks in bench/, each printing one JSON object.

Each benchmark module in bench/ exposes ``add_arguments(parser)`` and ``run(args) -> dict``.
"""

from __future__ import annotations

import argparse
import importlib
import json
from typing import Any

# name -> module; add one line per benchmark
BENCHMARKS: dict[str, str] = {
    "context": "bench.context",
    "load": "bench.load",
    "engine": "bench.engine",
    "latency": "bench.latency",
    "speculation": "bench.speculation",
    "postprocess": "bench.postprocess",
    "weights": "bench.weights",
    "indexing": "bench.indexing",
    "watching": "bench.watching",
}


def register(sub: Any) -> None:
    parser = sub.add_parser("bench", help="run a benchmark (prints JSON)")
    bench_sub = parser.add_subparsers(dest="bench", metavar="NAME")
    for name, module_name in BENCHMARKS.items():
        module = importlib.import_module(module_name)
        p = bench_sub.add_parser(name, help=(module.__doc__ or "").strip().splitlines()[0])
        module.add_arguments(p)
        p.add_argument("--json", action="store_true", help="print JSON only (the default)")
        p.set_defaults(func=_runner(module_name))


def _runner(module_name: str) -> Any:
    def run(args: argparse.Namespace) -> int:
        module = importlib.import_module(module_name)
        result: dict[str, Any] = module.run(args)
        print(json.dumps(result, indent=2, sort_keys=False))
        return 0

    return run

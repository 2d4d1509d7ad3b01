"""``nospin bench NAME ...``: benchmarks in bench/, each printing one JSON object.

Each benchmark module in bench/ exposes ``add_arguments(parser)`` and ``run(args) -> dict``.
A module is imported only when its benchmark runs (or shows its help): they import most of
nospin, which every other command would otherwise pay for at start (0.25-0.3 s of the CLI's
0.45 s with ``eval``'s registration).
"""

from __future__ import annotations

import argparse
import importlib
import json
from typing import Any

# name -> (module, the first line of its docstring: the help text); one line per benchmark
BENCHMARKS: dict[str, tuple[str, str]] = {
    "context": ("bench.context", "Context assembly on real files: speed, budget, token "
                "reduction and identifier recall."),
    "load": ("bench.load", "Load on the daemon: N concurrent clients x M completions on the "
             "real socket."),
    "engine": ("bench.engine", "llamacpp engine figures: prefill/decode speed, first token "
               "cold/warm/restored, speculation."),
    "latency": ("bench.latency", "Typing replay: nospin's completion pipeline against a naive "
                "whole-file prompt, same model."),
    "speculation": ("bench.speculation", "Speculative decoding: plain vs draft model vs prompt "
                    "lookup, same model, same prompts."),
    "postprocess": ("bench.postprocess", "Cost per streamed piece of the stop/block filter at "
                    "growing completion lengths (CPU only)."),
    "weights": ("bench.weights", "CPU weights: speed and fidelity of the embedded model's "
                "re-quantizations vs the shipped file."),
    "indexing": ("bench.indexing", "Indexing beside the engine: prefill speed while the "
                 "project indexer's initial scan runs."),
    "startup": ("bench.startup", "Start-up: README's first completion with no daemon "
                "running, the CLI's start, an idle daemon."),
    "watching": ("bench.watching", "Watching: the project watcher's CPU while a build, a test "
                 "run or an install touches the project."),
    "large-buffers": ("bench.large_buffers", "Large buffers (up to max_file_bytes): parse and "
                      "context assembly time by cursor place."),
    "open-buffers": ("bench.open_buffers", "Open buffers over the index: what a completion in "
                     "another file pays for unsaved buffers."),
    "parse": ("bench.parsing", "Parsing per language: summarize() and the bare tree-sitter "
              "parse of generated files."),
    "memory": ("bench.memory", "Memory of a long-running daemon: many open documents, an "
               "indexed root, rounds of edits."),
    "kv-states": ("bench.kv_states", "KV states: the llamacpp engine's resident memory while "
                  "requests switch among documents."),
    "restart": ("bench.restart", "A restart: the first completions of a daemon session, "
                "before and after a restart."),
    "body-end": ("bench.body_end", "Function ends: completions on the last statement line of "
                 "long functions (writing top-down)."),
    "tokenizer": ("bench.tokenizer", "Tokenizer: count() speed and load time, GGUF-metadata "
                  "tokenizer vs llama-cpp-python's."),
}


def register(sub: Any) -> None:
    names = "\n".join(f"  {name:<12} {text}" for name, (_, text) in BENCHMARKS.items())
    parser = sub.add_parser(
        "bench", help="run a benchmark (prints JSON)",
        description=f"benchmarks, each printing one JSON object:\n{names}\n\n"
                    "`nospin bench NAME --help` shows a benchmark's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name", metavar="NAME", choices=sorted(BENCHMARKS),
                        help="the benchmark (listed above)")
    options = parser.add_argument("options", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    options.required = False  # may be empty: not in "the following arguments are required"
    parser.set_defaults(func=run)


def benchmark_parser(name: str) -> argparse.ArgumentParser:
    """The options of benchmark ``name`` (imports its module)."""
    module_name, text = BENCHMARKS[name]
    module = importlib.import_module(module_name)
    parser = argparse.ArgumentParser(prog=f"nospin bench {name}", description=text)
    module.add_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON only (the default)")
    return parser


def run(args: argparse.Namespace) -> int:
    bench_args = benchmark_parser(args.name).parse_args(args.options)
    module = importlib.import_module(BENCHMARKS[args.name][0])
    result: dict[str, Any] = module.run(bench_args)
    print(json.dumps(result, indent=2, sort_keys=False))
    return 0

"""The CLI starts without importing what only some commands need."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

from app.commands.bench import BENCHMARKS, benchmark_parser


def test_building_the_parser_leaves_benchmarks_evaluation_and_context_unimported() -> None:
    code = ("import json, sys, app.cli; app.cli.build_parser(); print(json.dumps(sorted("
            "m for m in sys.modules if m.startswith(('bench', 'app.evaluation.', 'numpy', "
            "'daemon.context', 'engine.exllama', 'llama_cpp')))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert json.loads(out) == []


def test_each_benchmarks_help_is_its_docstrings_first_line() -> None:
    for name, (module_name, text) in BENCHMARKS.items():
        doc = importlib.import_module(module_name).__doc__ or ""
        assert doc.strip().splitlines()[0] == text, name
        assert benchmark_parser(name).prog == f"nospin bench {name}"

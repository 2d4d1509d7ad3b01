"""Large buffers (up to max_file_bytes): parse and context assembly time by cursor place.

The parse is ``summarize_stable``, the assembly ``assemble_context``, at the cursor's start,
middle and end; ``history_every_line_s``: the edit history recording an edit of every line of
the buffer (a reformat: ``EditHistory.record_edit`` with the buffer's summary, which holds the
history's lock while it names the definitions touched).

Buffers: 1 MB of ``x = 1`` lines (an outline of 166,666 entries), 1 MB of standard-library
modules concatenated, one 1 MB line, and one ordinary module (``argparse.py``, 30 KB); and,
summarised only, TypeScript: a 1 MB union type alias of object members (``typescript_union``:
the signature join scans brackets once, over at most 4,000 characters; a first version
rescanned from the start for each line) and 1 MB of interface overloads without semicolons
(``typescript_overloads``: each such file is parsed twice, daemon/grammar_fixes.py). CPU
seconds per call (``time.process_time``), the mean of ``--repeat`` runs; no project index. The
figures of docs/context.md, "Large buffers", come from this (the "before" column: the same
command run from a worktree of the code before).
"""

from __future__ import annotations

import argparse
import sysconfig
import time
from functools import partial
from pathlib import Path
from typing import Any

from app.config import Config, ContextConfig
from daemon.context import ContextRequest, assemble_context, summarize_stable
from daemon.history import EditHistory
from daemon.parse import summarize
from daemon.symbols import FileSummary
from daemon.tokens import LineCachedCounter
from engine.base import TokenCounter
from engine.factory import load_tokenizer

SIZE = 1_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--budgets", default="2048,256", help="comma-separated token budgets")
    parser.add_argument("--repeat", type=int, default=2, help="runs per figure (mean)")


def buffers() -> dict[str, str]:
    """The buffers, each about ``SIZE`` characters (the ordinary module as it is)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    modules: list[str] = []
    size = 0
    for path in sorted(stdlib.glob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        modules.append(text)
        size += len(text)
        if size >= SIZE:
            break
    return {
        "assignments": "x = 1\n" * (SIZE // 6),
        "stdlib_modules": "".join(modules)[:SIZE],
        "one_line": "x = [" + "1, " * ((SIZE - 6) // 3) + "]\n",
        "argparse": (stdlib / "argparse.py").read_text(encoding="utf-8"),
    }


def typescript_buffers() -> dict[str, str]:
    """The TypeScript buffers, each about ``SIZE`` characters."""
    member = "  field{}: string\n"
    members = "".join(member.format(i) for i in range(SIZE // len(member.format(99999))))
    overload = "  <K{0} extends keyof M>(key: K{0}): M[K{0}]\n"
    overloads = "".join(overload.format(i) for i in range(SIZE // len(overload.format(9999))))
    return {
        "typescript_union": f"export type Big =\n  | {{\n{members}  }}\n  | string\n",
        "typescript_overloads": f"interface Get<M> {{\n{overloads}}}\n",
    }


def _record_every_line(path: str, text: str, saved: FileSummary) -> None:
    """A fresh history records an edit of every line of ``text`` (a trailing space added)."""
    EditHistory().record_edit(
        path, text, text.replace("\n", " \n"), source="editor", summary=saved, when=0.0
    )


def _cpu_s(fn: Any, repeat: int) -> tuple[float, Any]:
    total, result = 0.0, None
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        total += time.process_time() - t0
    return round(total / repeat, 3), result


def run(args: argparse.Namespace) -> dict[str, Any]:
    config = Config()
    context: ContextConfig = config.context
    loaded = load_tokenizer(config)
    counter: TokenCounter | None = LineCachedCounter(loaded) if loaded is not None else None
    budgets = [int(b) for b in args.budgets.split(",")]
    out: dict[str, Any] = {"counter": "exact" if counter else "estimate", "repeat": args.repeat}
    for name, text in buffers().items():
        lines = text.count("\n") + (0 if text.endswith("\n") else 1)
        rows: dict[str, Any] = {"chars": len(text), "lines": lines}
        saved = summarize(f"{name}.py", text)
        rows["history_every_line_s"], _ = _cpu_s(
            partial(_record_every_line, f"{name}.py", text, saved), args.repeat
        )
        for where, line in (("start", 0), ("middle", lines // 2), ("end", max(0, lines - 1))):
            path = f"{name}.py"
            parse_s, summary = _cpu_s(
                partial(summarize_stable, path, text, line, "python"), args.repeat
            )
            row: dict[str, Any] = {"summarize_s": parse_s}
            for budget in budgets:
                request = ContextRequest(path=path, text=text, line=line, column=0,
                                         language="python", budget_tokens=budget)
                row[f"assemble_s_{budget}"], ctx = _cpu_s(
                    partial(assemble_context, request, counter=counter, config=context,
                            summary=summary),
                    args.repeat,
                )
                row[f"tokens_{budget}"] = ctx.num_tokens
            rows[where] = row
        out[name] = rows
    for name, text in typescript_buffers().items():
        summarize_s, summary = _cpu_s(partial(summarize, f"{name}.ts", text), args.repeat)
        out[name] = {"chars": len(text), "lines": text.count("\n"), "summarize_s": summarize_s,
                     "definitions": len(summary.definitions),
                     "syntax_errors": summary.has_syntax_errors}
    return out

"""Cost per streamed piece of the stop/block filter at growing completion lengths (CPU only).

The engine thread runs ``StreamFilter.push`` once per generated token, so its cost must not grow
with the completion: the figure to watch is ``growth`` (cost per piece at the longest length over
the shortest; about 1 when linear). ``postprocess_ms_N`` is the final clean-up of the whole
completion, ``cut_short_ms_N`` the same for one the engine stopped at its cap inside a call its
first line opened (``whole_lines``' worst case: no line end is whole). The completion is real
code: a method body of this repository's own source, streamed in 4-character pieces as a
tokenizer would cut it.
"""

from __future__ import annotations

import argparse
import inspect
import time
from typing import Any

from engine.blocks import block_scope
from engine.postprocess import postprocess
from engine.stream_filter import StreamFilter

LENGTHS = (64, 256, 1024)  # pieces (tokens)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repeat", type=int, default=7, help="best of N runs (default 7)")


def _completion(chars: int) -> str:
    """A long indented block of real code (method bodies of StreamFilter, repeated)."""
    lines = [
        "        " + line.strip() + "\n"
        for line in inspect.getsource(StreamFilter).splitlines()
        if line.strip() and not line.strip().startswith(("def ", "class ", '"""', "@"))
    ]
    text = ""
    while len(text) < chars:
        text += "".join(lines)
    return text[:chars]


def run(args: argparse.Namespace) -> dict[str, Any]:
    prefix = "class A:\n    def f(self):\n        "
    scope = block_scope(prefix, "python")
    longest = _completion(LENGTHS[-1] * 4)
    out: dict[str, Any] = {"piece_chars": 4, "lengths": list(LENGTHS)}
    for n in LENGTHS:
        pieces = [longest[i : i + 4] for i in range(0, n * 4, 4)]
        best = float("inf")
        for _ in range(max(1, args.repeat)):
            f = StreamFilter(block=scope)
            started = time.perf_counter()
            for piece in pieces:
                _, reason = f.push(piece)
                if reason is not None:
                    raise RuntimeError(f"the block ended early ({reason}): not a fair test")
            best = min(best, time.perf_counter() - started)
        out[f"push_us_per_piece_{n}"] = round(best / n * 1e6, 2)
        started = time.perf_counter()
        postprocess("".join(pieces), prefix, "\n", "python", True)
        out[f"postprocess_ms_{n}"] = round((time.perf_counter() - started) * 1e3, 2)
        # stopped at the token cap inside a call opened on its first line: every line end is
        # unfinished (whole_lines' worst case)
        held = "log(\n" + "".join(pieces)
        started = time.perf_counter()
        postprocess(held, prefix, "\n", "python", True, cut_short=True)
        out[f"cut_short_ms_{n}"] = round((time.perf_counter() - started) * 1e3, 2)
    out["growth"] = round(
        out[f"push_us_per_piece_{LENGTHS[-1]}"] / out[f"push_us_per_piece_{LENGTHS[0]}"], 2
    )
    return out

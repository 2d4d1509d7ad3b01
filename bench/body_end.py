"""Function ends: completions on the last statement line of long functions (writing top-down).

Draws ``--samples`` seeded functions and methods of at least ``--min-lines`` lines (one per
file, outside ``test``/``tests`` folders) from the standard library or ``--root``, puts the
cursor 1-5 characters into the function's last statement line (the rest of that line hidden,
the lines below kept), builds the prompt as ``nospin eval``'s nospin mode does at ``--budget``
tokens (what the daemon sends: the project index with the buffer's stable parse, the model's
own token counts) and completes it single-line with the configured engine (by default the
embedded model; greedy, post-processed). Prints how many prompts show the
enclosing ``def``, exact lines and edit similarity. The cursor on the next statement at the end
of a body is where the stable parse used to lose the function (docs/context.md, "The function
being written keeps its signature"); ``nospin eval``'s points almost never sit there.
"""

from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from app.config import Config
from app.evaluation.corpus_archive import corpus_folder
from app.evaluation.sampling import EvalPoint

MIN_LINE_CHARS = 6  # a last line shorter than this leaves too little to hide


@dataclass(frozen=True, slots=True)
class BodyEndPoint:
    """A line point of the eval's kind, on a function's last statement line."""

    point: EvalPoint  # kind "line": the rest of the line hidden, the lines below kept
    signature: str  # the function's first line, stripped


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", type=corpus_folder, default=None,
                        help="folder (default: the stdlib)")
    parser.add_argument("--samples", type=int, default=40, help="functions, one per file")
    parser.add_argument("--min-lines", type=int, default=25, help="shortest function")
    parser.add_argument("--budget", type=int, default=256, help="context budget (tokens)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--exclude", action="append", default=[], help="pattern to leave out")


def sample_points(
    root: Path, paths: list[str], count: int, seed: int, min_lines: int
) -> list[BodyEndPoint]:
    """Up to ``count`` points, one per file, from ``paths`` (Python files under ``root``) in a
    seeded order: each file's functions of at least ``min_lines`` lines in seeded order, the
    first whose last line is a statement long enough to hide a part of."""
    from daemon.parse import summarize
    from daemon.symbols import DefKind

    rng = random.Random(seed)
    order = sorted(p for p in paths if p.endswith(".py") and not _in_tests(p))
    rng.shuffle(order)
    points: list[BodyEndPoint] = []
    for rel in order:
        if len(points) >= count:
            break
        try:
            text = (root / rel).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        lines = text.split("\n")
        kinds = (DefKind.FUNCTION, DefKind.METHOD)
        defs = [
            d for d in summarize(rel, text, "python").definitions
            if d.kind in kinds and d.end_line - d.start_line >= min_lines
        ]
        rng.shuffle(defs)
        for d in defs:
            content = lines[d.end_line]
            body = content.strip()
            if len(body) < MIN_LINE_CHARS or body.startswith(("#", '"', "'", ")", "]", "}")):
                continue
            indent = len(content) - len(content.lstrip())
            column = indent + rng.randrange(1, min(6, len(body) - 2))
            point = EvalPoint(
                id=f"{rel}:{d.end_line + 1}:{column + 1}", path=rel, language="python",
                kind="line", line=d.end_line, column=column,
                before="\n".join([*lines[: d.end_line], content[:column]]),
                hidden=content[column:], after="\n" + "\n".join(lines[d.end_line + 1 :]),
                num_hidden_lines=1,
            )
            points.append(BodyEndPoint(point, lines[d.start_line].strip()))
            break
    return points


def _in_tests(path: str) -> bool:
    parts = path.split("/")[:-1]
    return any(p in ("test", "tests", "idle_test") for p in parts)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from app.evaluation.corpus import build_index
    from app.evaluation.metrics import edit_similarity, exact_match
    from app.evaluation.modes import build_prompt
    from app.evaluation.runner import generate
    from bench.latency import default_root
    from daemon.history import EditHistory
    from daemon.tokens import LineCachedCounter
    from engine.base import EngineTokenCounter, GenerationRequest
    from engine.factory import create_engine
    from engine.postprocess import postprocess

    root = (args.root or default_root()).resolve()
    exclude = tuple(args.exclude) + (() if args.root else ("site-packages/",))
    config = Config()
    context = msgspec.structs.replace(config.context, budget_tokens=args.budget)
    index, index_s = build_index(root, config, exclude)
    points = sample_points(root, list(index.paths()), args.samples, args.seed, args.min_lines)
    engine = create_engine(config)  # the embedded model on the CPU unless configured otherwise
    engine.start()
    rows: list[dict[str, Any]] = []
    try:
        exact = EngineTokenCounter(engine)
        counter = LineCachedCounter(exact)  # the budget counted as the daemon counts it
        for i, (pt, signature) in enumerate((b.point, b.signature) for b in points):
            built = build_prompt(  # the eval's nospin prompt: what the daemon sends
                "nospin", pt, index=index, history=EditHistory(), config=context, exact=exact,
                max_prompt_tokens=engine.capabilities.n_ctx, budget_counter=counter,
            )
            parts = built.parts
            request = GenerationRequest(f"b{i}", prompt=parts, single_line=True, max_new_tokens=24,
                                        speculation=False, cache_key=pt.path)
            fin, _ = generate(engine, request, max_lines=None, timeout_s=300)
            pred = postprocess(fin.text, parts.prefix, parts.suffix, "python", False)
            prompt = "".join(s.text for s in parts.snippets) + parts.prefix + parts.suffix
            rows.append({
                "point": pt.id,
                "def_in_prompt": signature in prompt,
                "exact": exact_match(pred, pt.hidden),
                "similarity": round(edit_similarity(pred, pt.hidden), 3),
                "prompt_tokens": fin.stats.num_prompt_tokens,
                "prediction": pred,
            })
    finally:
        engine.close()
    n = max(1, len(rows))
    return {
        "root": str(root),
        "budget": args.budget,
        "index_build_s": round(index_s, 1),
        "points": len(rows),
        "def_in_prompt": sum(r["def_in_prompt"] for r in rows),
        "exact": round(sum(r["exact"] for r in rows) / n, 3),
        "edit_similarity": round(statistics.fmean(r["similarity"] for r in rows), 3)
        if rows else 0.0,
        "prompt_tokens_mean": round(statistics.fmean(r["prompt_tokens"] for r in rows), 1)
        if rows else 0.0,
        "rows": rows,
    }

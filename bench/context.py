"""Context assembly on real files: speed, budget, token reduction and identifier recall.

Samples seeded cursor positions in files under ``--root``. The ground truth at each point (the
rest of the cursor line and the next line) is removed from the document, and the document's
index entry is replaced by the parse of that buffer, so no prompt and no index entry sees it.
Three prompts are compared: nospin's assembled context, the whole current file (naive_full) and
the text just before the cursor cut to the same budget (naive_tail). Identifier recall: of the
identifiers the ground truth uses but does not itself introduce, the share found in the prompt.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgspec

from app import config as config_mod
from app.config import Config, ContextConfig
from app.evaluation.corpus import (
    IDENT,
    buffer_in_index,
    build_index,
    code_part,
    cut_tail,
    percentile,
    used_identifiers,
)
from app.evaluation.corpus_archive import corpus_folder
from app.evaluation.crossfile import CrossFileResolver
from daemon.context import (
    AssembledContext,
    ContextRequest,
    Kind,
    Segment,
    assemble_context,
    expected_suffix_tokens,
    stable_text,
    summarize_stable,
)
from daemon.index import ProjectIndex
from daemon.languages import detect_language
from daemon.parse import summarize
from daemon.symbols import FileSummary
from daemon.tokens import CharEstimator, LineCachedCounter
from engine.base import TokenCounter
from engine.postprocess import open_state


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", required=True, type=corpus_folder,
                        help="project folder to sample")
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--budget", type=int, default=2048)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--tokenizer",
        choices=("exact", "estimate"),
        default="exact",
        help="count with the embedded model's tokenizer (default) or the character estimator",
    )
    parser.add_argument(
        "--config", type=Path, default=None, help="config file (default: the user's config)"
    )
    parser.add_argument(
        "--layout",
        choices=("auto", "stable", "cursor"),
        default=None,
        help="context layout (default: config, context.layout)",
    )
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="PATTERN",
        help="gitignore-style pattern to leave out (repeatable), e.g. site-packages/",
    )


def _sample_points(
    index: ProjectIndex, root: Path, count: int, seed: int
) -> list[tuple[str, str, int, int]]:
    rng = random.Random(seed)
    paths = [p for p in index.paths() if detect_language(p) != "text"]
    points: list[tuple[str, str, int, int]] = []
    attempts = 0
    while len(points) < count and attempts < count * 50 and paths:
        attempts += 1
        path = rng.choice(paths)
        try:
            text = (root / path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        lines = text.splitlines(keepends=True)
        if len(lines) < 20:
            continue
        line = rng.randrange(5, len(lines) - 2)
        content = lines[line].rstrip("\r\n")
        stripped = content.lstrip()
        if len(stripped) < 4 or stripped.startswith(("#", "//", "*", '"', "'")):
            continue
        indent = len(content) - len(stripped)
        column = rng.randrange(indent, len(content))
        points.append((path, text, line, column))
    return points


def _lines_above(window: Segment) -> int:
    """Lines above the cursor line in a cursor window: its source is ``path:start-end``
    (1-based, the cursor line last)."""
    first, _, last = window.source.rpartition(":")[2].partition("-")
    return int(last) - int(first)


def _recall(used: set[str], prompt: str) -> tuple[int, int]:
    if not used:
        return 0, 0
    present = set(IDENT.findall(prompt))
    return len(used & present), len(used)


def run(args: argparse.Namespace) -> dict[str, Any]:
    root = args.root.resolve()
    config = config_mod.load(args.config) if args.config else Config()
    context_config: ContextConfig = config.context
    if args.layout:
        context_config = msgspec.structs.replace(context_config, layout=args.layout)
    index, build_s = build_index(root, config, tuple(args.exclude))
    exact: TokenCounter | None = None
    if args.tokenizer == "exact":
        from engine.factory import load_tokenizer

        loaded = load_tokenizer(config)
        exact = LineCachedCounter(loaded) if loaded is not None else None
    points = _sample_points(index, root, args.samples, args.seed)
    assemble_ms: list[float] = []  # steady state while typing (token counts cached)
    assemble_cold_ms: list[float] = []  # first request at a point of a file not seen before
    parse_ms: list[float] = []
    parse_no_prose_ms: list[float] = []
    hint_ms: list[float] = []  # the daemon's suffix estimate for its scheduler (request path)
    hint_error: list[int] = []  # that estimate minus the assembled prompt's suffix, in tokens
    state_mismatch = 0  # prompts whose open brackets / string at the cursor differ from the file's
    window_above: list[int] = []  # lines above the cursor line the cursor window shows
    over_budget = 0
    tokens_full: list[int] = []
    tokens_assembled: list[int] = []
    tokens_saved: list[int] = []
    reprefill: list[int] = []  # tokens to prefill after Enter (cursor to the next line)
    keystroke: list[int] = []  # tokens to prefill after one more character typed
    found = {"nospin": 0, "naive_full": 0, "naive_tail": 0}
    total_used = 0
    resolver = CrossFileResolver(index.snapshot())
    cross_names = 0  # names the hidden text takes from other files (app.evaluation.crossfile)
    cross_defined = 0  # of those, the ones a part from outside the file's window shows
    for path, text, line, column in points:
        lines = text.splitlines(keepends=True)
        before = "".join(lines[:line]) + lines[line][:column]
        hidden = lines[line][column:] + (lines[line + 1] if line + 1 < len(lines) else "")
        after = "".join(lines[line + 2 :])
        buffer = before + ("\n" if not before.endswith("\n") and after else "") + after
        language = detect_language(path)
        counter = exact or CharEstimator(language)
        t0 = time.perf_counter()
        buffer_summary = summarize_stable(path, buffer, line, language)
        parse_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()  # what the index's parse costs (no prose spans)
        summarize(path, stable_text(buffer, line), language)
        parse_no_prose_ms.append((time.perf_counter() - t0) * 1000)
        with buffer_in_index(index, path, buffer_summary):
            request = ContextRequest(
                path=path,
                text=buffer,
                line=line,
                column=column,
                language=language,
                budget_tokens=args.budget,
            )
            ctx = assemble_context(
                request,
                index=index,
                counter=counter,
                config=context_config,
                summary=buffer_summary,
            )
            # the next keystroke's request at the same point: the file's lines are counted
            again = assemble_context(
                request,
                index=index,
                counter=counter,
                config=context_config,
                summary=buffer_summary,
            )
            t0 = time.perf_counter()  # as the daemon does it, the cursor's offset known
            hint = expected_suffix_tokens(request, context_config, counter, offset=len(before))
            hint_ms.append((time.perf_counter() - t0) * 1000)
            hint_error.append(hint - counter.count(ctx.to_prompt_parts().suffix))
            # Enter at the end of the line: the cursor on the next line, the KV cache holds
            # this prompt; what the engine must prefill anew is what the next prompt changes
            reprefill.append(_next_line_reprefill(request, ctx, index, counter, context_config))
            # one more character typed on the line: only the cursor line should change
            if hidden[:1].strip():
                keystroke.append(
                    _keystroke_reprefill(
                        request, ctx, index, counter, context_config, buffer_summary, hidden[0]
                    )
                )
        assemble_cold_ms.append(ctx.assemble_ms)
        assemble_ms.append(again.assemble_ms)
        if ctx.num_tokens > args.budget:
            over_budget += 1
        tokens_full.append(counter.count(buffer))
        tokens_assembled.append(ctx.num_tokens)
        tokens_saved.append(ctx.num_tokens_saved)
        used = used_identifiers(code_part(text, language, len(before), len(hidden)))
        prompt = "".join(s.text for s in ctx.segments)
        names = resolver.names(path, language, before, hidden, text[len(before) + len(hidden) :])
        shown = set(IDENT.findall("".join(
            s.text for s in ctx.segments if s.kind in (Kind.RELATED, Kind.RETRIEVED)
        )))
        cross_names += len(names)
        cross_defined += sum(1 for name in names if name in shown)
        if open_state(ctx.to_prompt_parts().prefix, language) != open_state(before, language):
            state_mismatch += 1
        window_above.extend(_lines_above(s) for s in ctx.segments if s.kind is Kind.CURSOR_WINDOW)
        tail = cut_tail(before, args.budget, counter)
        for name, text_seen in (("nospin", prompt), ("naive_full", buffer), ("naive_tail", tail)):
            hit, _ = _recall(used, text_seen)
            found[name] += hit
        total_used += len(used)
    full_mean = statistics.fmean(tokens_full) if tokens_full else 0.0
    assembled_mean = statistics.fmean(tokens_assembled) if tokens_assembled else 0.0
    return {
        "root": str(root),
        "samples": len(points),
        "budget": args.budget,
        "layout": context_config.layout,
        "file_block_share": context_config.file_block_share,
        "seed": args.seed,
        "tokenizer": "exact (embedded model)" if exact else "char-estimator",
        "files_indexed": len(index),
        "files_skipped": len(index.skipped),
        "index_build_s": round(build_s, 3),
        "assemble_ms_p50": round(percentile(assemble_ms, 0.5), 3),
        "assemble_ms_p95": round(percentile(assemble_ms, 0.95), 3),
        "assemble_cold_ms_p50": round(percentile(assemble_cold_ms, 0.5), 3),
        "assemble_cold_ms_p95": round(percentile(assemble_cold_ms, 0.95), 3),
        "buffer_parse_ms_p50": round(percentile(parse_ms, 0.5), 3),
        "buffer_parse_ms_p95": round(percentile(parse_ms, 0.95), 3),
        "buffer_parse_no_prose_ms_p50": round(percentile(parse_no_prose_ms, 0.5), 3),
        "buffer_parse_no_prose_ms_p95": round(percentile(parse_no_prose_ms, 0.95), 3),
        # the scheduler's hint of the FIM suffix (context.expected_suffix_tokens), made on the
        # daemon's request path before assembly: its cost and its error against the prompt
        "suffix_hint_ms_p50": round(percentile(hint_ms, 0.5), 4),
        "suffix_hint_ms_p95": round(percentile(hint_ms, 0.95), 4),
        "suffix_hint_error_tokens_mean": round(statistics.fmean(hint_error), 1)
        if hint_error else 0.0,
        "suffix_hint_exact_share": round(sum(e == 0 for e in hint_error) / len(hint_error), 3)
        if hint_error else 0.0,
        # the prompt leaves a string or brackets open at the cursor that the file does not, or
        # the other way round (a part that starts inside a docstring or a long literal)
        "prompt_state_mismatch": state_mismatch,
        "window_lines_above_mean": round(statistics.fmean(window_above), 1) if window_above else 0,
        "window_without_lines_above": sum(1 for n in window_above if n == 0),
        "over_budget": over_budget,
        "tokens_naive_full_mean": round(full_mean, 1),
        "tokens_assembled_mean": round(assembled_mean, 1),
        "tokens_saved_by_trim_mean": round(statistics.fmean(tokens_saved), 1)
        if tokens_saved
        else 0,
        "token_reduction": round(1 - assembled_mean / full_mean, 4) if full_mean else 0.0,
        # after Enter the cursor is on a new line: prompt tokens past the part the previous
        # prompt shares (the KV cache holds that part), window start moves included
        "next_line_reprefill_tokens_mean": round(statistics.fmean(reprefill), 1)
        if reprefill
        else 0.0,
        "next_line_reprefill_tokens_p95": round(percentile([float(n) for n in reprefill], 0.95), 1),
        # one more character typed at the cursor: tokens past the shared part (the cursor line
        # and the suffix when nothing else moves)
        "keystroke_reprefill_tokens_mean": round(statistics.fmean(keystroke), 1)
        if keystroke
        else 0.0,
        "keystroke_reprefill_tokens_p95": round(percentile([float(n) for n in keystroke], 0.95), 1),
        # of the names the hidden text takes from other files (defined in 1-3 other files,
        # not in this one: eval's cross-file rule), the share a related or retrieved part of
        # the prompt shows (by name: a definition, or a skeleton's member list)
        "cross_file_names": cross_names,
        "cross_file_definition_recall": round(cross_defined / cross_names, 4)
        if cross_names else 0.0,
        "identifiers_scored": total_used,
        "identifier_recall": round(found["nospin"] / total_used, 4) if total_used else 0.0,
        "identifier_recall_naive_full": round(found["naive_full"] / total_used, 4)
        if total_used
        else 0.0,
        "identifier_recall_naive_tail": round(found["naive_tail"] / total_used, 4)
        if total_used
        else 0.0,
    }


def _next_line_reprefill(
    request: ContextRequest,
    ctx: AssembledContext,
    index: ProjectIndex,
    counter: TokenCounter,
    config: ContextConfig,
) -> int:
    """Tokens of the prompt after Enter (a new empty line below the cursor line, the cursor on
    it at the same indentation) that follow the part it shares with the prompt ``ctx``."""
    lines = request.text.split("\n")
    current = lines[request.line]
    indent = current[: len(current) - len(current.lstrip())]
    lines.insert(request.line + 1, indent)
    text = "\n".join(lines)
    line = request.line + 1
    nxt = assemble_context(
        replace(request, text=text, line=line, column=len(indent)),
        index=index,
        counter=counter,
        config=config,
        summary=summarize_stable(request.path, text, line, request.language),
    )
    return _reprefill(ctx, nxt, counter)


def _keystroke_reprefill(
    request: ContextRequest,
    ctx: AssembledContext,
    index: ProjectIndex,
    counter: TokenCounter,
    config: ContextConfig,
    summary: FileSummary,
    char: str,
) -> int:
    """Tokens of the prompt after one more character typed at the cursor that follow the part it
    shares with the prompt ``ctx`` (the daemon reuses the stable parse while typing on a line)."""
    lines = request.text.split("\n")
    current = lines[request.line]
    lines[request.line] = current[: request.column] + char + current[request.column :]
    nxt = assemble_context(
        replace(request, text="\n".join(lines), column=request.column + 1),
        index=index,
        counter=counter,
        config=config,
        summary=summary,
    )
    return _reprefill(ctx, nxt, counter)


def _reprefill(ctx: AssembledContext, nxt: AssembledContext, counter: TokenCounter) -> int:
    """Tokens of ``nxt``'s prompt past the part it shares with ``ctx``'s (what the KV cache
    holds), the suffix included."""
    before, after = ctx.to_prompt_parts(), nxt.to_prompt_parts()
    old = "".join(s.text for s in before.snippets) + before.prefix
    new = "".join(s.text for s in after.snippets) + after.prefix
    pairs = enumerate(zip(old, new, strict=False))
    shared = next((i for i, (a, b) in pairs if a != b), min(len(old), len(new)))
    shared = new.rfind("\n", 0, shared) + 1  # a token may straddle the first difference
    return counter.count(new[shared:]) + counter.count(after.suffix)

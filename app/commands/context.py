"""``nospin context FILE:LINE:COL``: show the assembled context, segment by segment.

Needs no daemon and no model (the model's tokenizer is used when installed): it indexes
``--root`` (default: the project root above FILE, found as the daemon finds it), assembles the
context for the cursor and prints each segment with its tier, source and tokens (or JSON with
``--json``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.commands.argtypes import at_least
from app.commands.complete import parse_location
from app.config import MIN_BUDGET_TOKENS, Config, load
from app.errors import InputError, NospinError

if TYPE_CHECKING:  # imported when the command runs: the CLI's other commands start without
    from daemon.context import AssembledContext
    from daemon.index import ProjectIndex
    from engine.base import TokenCounter


def register(sub: Any) -> None:
    p = sub.add_parser("context", help="show the context nospin would send for a cursor")
    p.add_argument("location", help="FILE:LINE:COL (1-based line and column)")
    p.add_argument("--root", type=Path, default=None, help="project root (default: detected)")
    p.add_argument("--budget", type=at_least(MIN_BUDGET_TOKENS), default=None,
                   help=f"token budget, at least {MIN_BUDGET_TOKENS} (default: config)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--no-index", action="store_true", help="current file only (no project index)")
    p.set_defaults(func=run)


def build_context(
    location: str, *, root: Path | None, budget: int | None, use_index: bool = True
) -> AssembledContext:
    from daemon.context import ContextRequest, assemble_context
    from daemon.documents import find_root, read_disk_text
    from daemon.history import EditHistory
    from daemon.index import ProjectIndex
    from daemon.indexer import ProjectIndexer

    config = load()
    abs_path, line, col = parse_location(location)
    path = Path(abs_path).resolve()
    # as the daemon reads a file no editor has open (no FIFO or device, at most max_file_bytes)
    text = read_disk_text(str(path), max_bytes=config.context.max_file_bytes)
    if root is not None and not root.is_dir():
        raise InputError(f"--root {str(root)!r} is not a folder")
    root = (root or Path(find_root(str(path)))).resolve()
    index: ProjectIndex | None = None
    if use_index:
        index = ProjectIndex(root)
        ProjectIndexer(root, config, index, EditHistory()).build()
    try:
        rel = path.relative_to(root).as_posix()
    except ValueError:
        rel = str(path)
    request = ContextRequest(
        path=rel,
        text=text,
        line=line,
        column=col,
        budget_tokens=budget or config.context.budget_tokens,
    )
    return assemble_context(request, index=index, counter=_counter(config), config=config.context)


def _counter(config: Config) -> TokenCounter | None:
    """The configured model's tokenizer when it is installed, else None (the estimator)."""
    from daemon.tokens import LineCachedCounter
    from engine.factory import load_tokenizer

    try:
        tokenizer = load_tokenizer(config)
    except NospinError:
        return None
    return LineCachedCounter(tokenizer) if tokenizer is not None else None


def context_to_json(ctx: AssembledContext) -> dict[str, Any]:
    return {
        "path": ctx.path,
        "language": ctx.language,
        "budget_tokens": ctx.budget_tokens,
        "num_tokens": ctx.num_tokens,
        "num_tokens_before_trim": ctx.num_tokens_before_trim,
        "num_tokens_saved": ctx.num_tokens_saved,
        "assemble_ms": round(ctx.assemble_ms, 3),
        "segments": [
            {
                "kind": s.kind.value,
                "tier": s.tier.name,
                "role": s.role.value,
                "source": s.source,
                "num_tokens": s.num_tokens,
                "text": s.text,
            }
            for s in ctx.segments
        ],
        "dropped": [
            {
                "kind": d.kind.value,
                "tier": d.tier.name,
                "source": d.source,
                "num_tokens": d.num_tokens,
                "reason": d.reason,
            }
            for d in ctx.dropped
        ],
    }


def run(args: argparse.Namespace) -> int:
    ctx = build_context(
        args.location, root=args.root, budget=args.budget, use_index=not args.no_index
    )
    if args.json:
        print(json.dumps(context_to_json(ctx), indent=2))
        return 0
    out = sys.stdout
    out.write(
        f"{ctx.path} [{ctx.language}]  {ctx.num_tokens}/{ctx.budget_tokens} tokens "
        f"({ctx.num_tokens_saved} saved by trimming, {len(ctx.dropped)} segments dropped, "
        f"{ctx.assemble_ms:.1f} ms)\n"
    )
    for s in ctx.segments:
        out.write(
            f"\n--- {s.kind.value} {s.tier.name} {s.role.value} {s.source} "
            f"({s.num_tokens} tokens)\n"
        )
        out.write(s.text if s.text.endswith("\n") or not s.text else s.text + "\n")
    if ctx.dropped:
        out.write("\n--- dropped\n")
        for d in ctx.dropped:
            out.write(
                f"{d.kind.value} {d.tier.name} {d.source} ({d.num_tokens} tokens): {d.reason}\n"
            )
    return 0

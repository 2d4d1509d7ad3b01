"""``nospin eval --corpus DIR``: completion quality per prompt mode, stored with the config.

Runs ``app.evaluation.run_eval`` with the configured engine (the embedded model by default),
writes the full result (every point, every prediction) to ``--out`` (default
``state_dir()/eval/<snapshot id>.json``), saves a configuration snapshot whose metrics are the
eval's figures (``nospin snapshot list`` shows it, reason ``eval ...``), and optionally writes a
markdown report with a text and a PNG chart and the PASS/FAIL lines of the targets.
``--against OLD.json`` exits 3 when compile-pass or exact match dropped by more than 2 points in
any mode (design.md §5); the report and stderr say which. ``--from RESULT.json`` (repeatable)
runs nothing and reports on stored results, one section each.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gzip
import json
import sys
import time
from pathlib import Path
from typing import Any

from app import config as config_mod
from app.errors import InputError
from app.paths import atomic_write, state_dir

EXIT_REGRESSION = 3  # --against found a drop of more than 2 points


def register(sub: Any) -> None:
    from app.evaluation import DEFAULT_MODES  # without the evaluation modules
    from app.evaluation import MODE_NAMES as MODES

    parser = sub.add_parser(
        "eval", help="completion quality on real code per prompt mode (exact match, compile-pass)")
    parser.add_argument("--corpus", type=_corpus_folder, default=None,
                        help="folder of source files (required unless --from)")
    parser.add_argument("--samples", type=int, default=200, help="completion points (200)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--config", type=Path, default=None,
                        help="config file to measure (default: the user's config)")
    parser.add_argument("--modes", default=",".join(DEFAULT_MODES),
                        help=f"comma-separated, from {', '.join(MODES)} "
                        f"(default {','.join(DEFAULT_MODES)})")
    parser.add_argument("--budget", type=int, default=None, metavar="TOKENS",
                        help="context budget of every mode (default: the config's "
                        "context.budget_tokens)")
    parser.add_argument("--top-k", type=int, default=1,
                        help="candidates per point; > 1 adds sampled alternatives")
    parser.add_argument("--temperature", type=float, default=0.8,
                        help="sampling temperature of the top-k alternatives (0.8)")
    parser.add_argument("--naive-full-max", type=int, default=60,
                        help="naive_full runs on a seeded subset of at most this many points")
    parser.add_argument("--exclude", action="append", default=[], metavar="PATTERN",
                        help="gitignore-style pattern to leave out (repeatable)")
    parser.add_argument("--line-tokens", type=int, default=32, help="max new tokens, line points")
    parser.add_argument("--block-tokens", type=int, default=96,
                        help="max new tokens, block points")
    parser.add_argument("--as-shown", action="store_true",
                        help="run block points to their end as the editor shows them and "
                        "compile-check them so too (compile_pass_shown); slower")
    parser.add_argument("--json", action="store_true",
                        help="print the result (without per-point lists) as JSON")
    parser.add_argument("--report", type=Path, default=None, help="write a markdown report")
    parser.add_argument("--chart", type=Path, default=None,
                        help="PNG chart (default: next to --report, same name .png)")
    parser.add_argument("--out", type=Path, default=None, help="full result JSON file")
    parser.add_argument("--against", type=Path, default=None,
                        help="earlier result: exit 3 if compile-pass or exact match drops > 2 pts")
    parser.add_argument("--reuse", type=Path, action="append", default=[], metavar="OLD.json",
                        help="take the modes not run here (e.g. the naive baselines) from an "
                        "earlier result of the same points and model; repeatable")
    parser.add_argument("--unchanged-from", type=Path, default=None, metavar="OLD.json",
                        help="take each point's result from an earlier run (same model) that "
                        "sent the engine the same prompt: only the points a change touched "
                        "are run")
    parser.add_argument("--points-from", type=Path, default=None, metavar="OLD.json",
                        help="the points of an earlier result instead of sampling (for a "
                        "change to the index, which would draw other points; with "
                        "--unchanged-from the same file)")
    parser.add_argument("--no-snapshot", action="store_true",
                        help="do not save a configuration snapshot")
    parser.add_argument("--from", dest="from_result", type=Path, action="append",
                        default=None, metavar="RESULT.json",
                        help="run nothing: take an earlier result, e.g. to merge baselines "
                        "(--reuse), compare (--against) or report (--report) on it; "
                        "repeatable to report on several results (e.g. both budgets)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from app.evaluation.modes import MODES
    from app.evaluation.runner import EvalOptions, run_eval

    modes = tuple(m.strip() for m in args.modes.split(",") if m.strip())
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        raise InputError(f"unknown mode(s) {unknown}; modes: {', '.join(MODES)}")
    if args.samples < 1 or args.top_k < 1:
        raise InputError("--samples and --top-k must be at least 1")
    if args.from_result is None and args.corpus is None:
        raise InputError("--corpus is required (or --from RESULT.json to run nothing)")
    if args.corpus is not None and not args.corpus.is_dir():
        raise InputError(f"--corpus {args.corpus} is not a folder")
    against: dict[str, Any] | None = None
    if args.against is not None:  # read it first: a bad file should not cost a whole run
        against = _read_json(args.against)
    reuse = [(path, _read_json(path)) for path in args.reuse]
    unchanged = _read_json(args.unchanged_from) if args.unchanged_from is not None else None
    points_from = _read_json(args.points_from) if args.points_from is not None else None
    if args.from_result is not None:
        if unchanged is not None:
            raise InputError("--unchanged-from takes results into a run; --from runs nothing")
        if len(args.from_result) > 1:
            if reuse or against is not None or args.out is not None:
                raise InputError("several --from results are only reported: --reuse, "
                                 "--against and --out take one")
            return _report_many(args, [(p, _read_json(p)) for p in args.from_result])
        return _report_only(args, _read_json(args.from_result[0]), reuse, against)
    for path, earlier in reuse:  # what can be told before the run; reuse_modes checks the rest
        check_reusable(path, earlier, args.corpus, num_samples=args.samples, seed=args.seed,
                       naive_full_max=args.naive_full_max)
    config = config_mod.load(args.config, must_exist=True) if args.config else config_mod.load()
    if args.budget is not None:
        if args.budget < 32:
            raise InputError("--budget must be at least 32 tokens")
        import msgspec

        config = msgspec.structs.replace(
            config, context=msgspec.structs.replace(config.context, budget_tokens=args.budget))
    corpus: Path = args.corpus
    options = EvalOptions(
        corpus=corpus, num_samples=args.samples, seed=args.seed, modes=modes,
        top_k=args.top_k, temperature=args.temperature, naive_full_max=args.naive_full_max,
        exclude=tuple(args.exclude), line_max_tokens=args.line_tokens,
        block_max_tokens=args.block_tokens, as_shown=args.as_shown,
    )
    result = run_eval(
        options, config, progress=lambda msg: print(f"eval: {msg}", file=sys.stderr),
        unchanged_from=unchanged, points_from=points_from,
    )
    if points_from is not None:
        result["points_from"] = str(args.points_from)
    if unchanged is not None:
        result["unchanged_from"] = {
            "path": str(args.unchanged_from),
            "reused": {m: s.get("reused_points", 0) for m, s in result["summary"].items()},
        }
        print(f"eval: results taken from {args.unchanged_from} (same requests): "
              + ", ".join(f"{m} {n}" for m, n in result["unchanged_from"]["reused"].items()),
              file=sys.stderr)
    _reuse(result, reuse)
    if not args.no_snapshot:
        result["snapshot_id"] = _save_snapshot(config, result)
    out = args.out or state_dir() / "eval" / f"{result['snapshot_id'] or _stamp()}.json"
    result["result_path"] = str(out)
    atomic_write(out, _encode(result, out), mode=0o600)
    return _finish(args, result, against, written=out)


def _report_only(
    args: argparse.Namespace,
    result: dict[str, Any],
    reuse: list[tuple[Path, dict[str, Any]]],
    against: dict[str, Any] | None,
) -> int:
    """``--from``: merge, compare and report an earlier result; written only to ``--out``."""
    _reuse(result, reuse)
    if args.out is not None:
        result["result_path"] = str(args.out)
        atomic_write(args.out, _encode(result, args.out), mode=0o600)
    return _finish(args, result, against, written=args.out)


def check_reusable(path: Path, earlier: dict[str, Any], corpus: Path, *, num_samples: int,
                   seed: int, naive_full_max: int) -> None:
    """InputError unless the ``--reuse`` result ``earlier`` (read from ``path``) was run with
    these sampling options on this corpus: a history corpus by its pinned manifests
    (``pins_digest``: the same pins in another checkout are the same corpus), other corpora
    (and results from before the digest was kept) by their resolved path."""
    from app.evaluation.history import pins_digest

    old = earlier.get("options", {})
    for key, value in (("num_samples", num_samples), ("seed", seed),
                       ("naive_full_max", naive_full_max)):
        if old.get(key) != value:
            raise InputError(f"--reuse {path}: it was run with {key} "
                             f"{old.get(key)!r}, this run has {value!r}")
    pins, old_pins = pins_digest(corpus), old.get("corpus_pins", "")
    if pins and old_pins:
        if pins != old_pins:
            raise InputError(f"--reuse {path}: it was run on other pinned commits (corpus "
                             f"{old.get('corpus')!r}), this run's corpus is {str(corpus)!r}")
    elif old.get("corpus") != str(corpus.resolve()):
        raise InputError(f"--reuse {path}: it was run with corpus "
                         f"{old.get('corpus')!r}, this run has {str(corpus.resolve())!r}")


def _reuse(result: dict[str, Any], reuse: list[tuple[Path, dict[str, Any]]]) -> None:
    """``--reuse``: copy into ``result`` the modes each earlier result has and it lacks."""
    from app.evaluation.runner import reuse_modes

    for path, old in reuse:
        old["result_path"] = str(path)  # named as given
        copied = reuse_modes(result, old)
        print(f"eval: reused {', '.join(copied) or 'no modes'} from {path}", file=sys.stderr)


def _report_many(args: argparse.Namespace, results: list[tuple[Path, dict[str, Any]]]) -> int:
    """Several ``--from`` results: each reported in its own section (no PNG chart)."""
    from app.evaluation.report import render_markdown

    if args.json:
        print(json.dumps({str(path): {k: v for k, v in result.items()
                                      if k not in ("points", "results")}
                          for path, result in results}, indent=2))
    else:
        for path, result in results:
            print(f"== {path}")
            _print_table(result)
    if args.report is not None:
        note = "one PNG per result: report each with a single --from"
        text = "\n".join(
            f"<!-- {path.name} -->\n" + render_markdown(result, chart_note=note)
            .replace("# nospin eval", f"# nospin eval: {path.name}", 1)
            for path, result in results)
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(text, encoding="utf-8")
    return 0


def _finish(args: argparse.Namespace, result: dict[str, Any],
            against: dict[str, Any] | None, *, written: Path | None) -> int:
    """Report, print and compare a result (run here or taken with ``--from``)."""
    from app.evaluation.report import compare, render_chart, render_markdown

    comparison = compare(against, result) if against is not None else None
    if args.report is not None:
        chart_path = args.chart or args.report.with_suffix(".png")
        note = render_chart(result, chart_path)
        chart_ref = None if note else _relative(chart_path, args.report.parent)
        text = render_markdown(result, chart=chart_ref, chart_note=note, comparison=comparison)
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(text, encoding="utf-8")
    elif args.chart is not None:
        note = render_chart(result, args.chart)
        if note:
            print(f"eval: chart {note}", file=sys.stderr)
    if args.json:
        brief = {k: v for k, v in result.items() if k not in ("points", "results")}
        print(json.dumps(brief, indent=2))
    else:
        _print_table(result)
    if written is not None:
        print(f"eval: result written to {written}", file=sys.stderr)
    if comparison is not None:
        for note_text in comparison.notes:
            print(f"eval: note: {note_text}", file=sys.stderr)
        for r in comparison.regressions:
            print(f"eval: REGRESSION {r.describe()}", file=sys.stderr)
        if not comparison.ok:
            return EXIT_REGRESSION
    return 0


def _corpus_folder(path: str) -> Path:
    """``--corpus``: a folder, unpacked from ``NAME.tar.xz`` beside it when only that exists
    (imported here so that building the parser imports no evaluation module)."""
    from app.evaluation.corpus_archive import corpus_folder

    return corpus_folder(path)


def _encode(result: dict[str, Any], path: Path) -> bytes:
    """A result as written to ``path``: JSON, gzip-compressed when the name ends in ``.gz``."""
    raw = (json.dumps(result, indent=1) + "\n").encode("utf-8")
    return gzip.compress(raw, mtime=0) if path.suffix == ".gz" else raw


def _read_json(path: Path) -> dict[str, Any]:
    """A stored result, plain JSON or gzip-compressed JSON (``.json.gz``)."""
    try:
        raw = path.read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, EOFError) as exc:
        raise InputError(f"cannot read the result {path}: {exc}") from exc
    if not isinstance(data, dict) or "summary" not in data:
        raise InputError(f"{path} is not a nospin eval result")
    from app.evaluation.report import fill_accepted

    return fill_accepted(data)  # results stored before accepted characters existed


def _save_snapshot(config: config_mod.Config, result: dict[str, Any]) -> str | None:
    """A config snapshot whose metrics are this eval's figures; its id, or None on failure."""
    from daemon.snapshots import SnapshotStore

    metrics = {
        "eval": {
            mode: {group: figures[group] for group in ("all", "line", "block", "cross_file")}
            | {"run_s": figures.get("run_s")}
            for mode, figures in result["summary"].items()
        }
    }
    opts = result["options"]
    reason = (f"eval {Path(opts['corpus']).name} samples={opts['num_samples']} "
              f"seed={opts['seed']} modes={','.join(opts['modes'])}")
    try:
        return SnapshotStore().save(config, metrics, reason=reason, now=time.time()).id
    except OSError as exc:
        print(f"eval: could not save a config snapshot: {exc}", file=sys.stderr)
        return None


def _stamp() -> str:
    return _dt.datetime.now(_dt.UTC).strftime("%Y%m%d-%H%M%S")


def _relative(path: Path, base: Path) -> str:
    try:
        return str(path.resolve().relative_to(base.resolve()))
    except ValueError:
        return str(path.resolve())


def _print_table(result: dict[str, Any]) -> None:
    """Every mode side by side (all points), the text chart and the targets' lines."""
    from app.evaluation.report import peer_targets, targets, text_chart

    print(f"{'mode':<11} {'n':>4} {'exact':>7} {'edit':>6} {'id-F1':>6} {'accept':>7} "
          f"{'share':>6} {'compile':>8} {'top-k':>6} {'tokens':>7} {'p50 ms':>8} "
          f"{'p95 ms':>8} {'run s':>7}")
    for mode, figures in result["summary"].items():
        s = figures["all"]
        top = "-" if s["top_k_hit"] is None else f"{s['top_k_hit'] * 100:.1f}%"
        accepted = s.get("accepted_chars_mean")
        share = s.get("accepted_share")
        print(f"{mode:<11} {s['n']:>4} {s['exact_match'] * 100:>6.1f}% "
              f"{s['edit_similarity']:>6.3f} {s['identifier_f1']:>6.3f} "
              f"{'-' if accepted is None else f'{accepted:.1f}':>7} "
              f"{'-' if share is None else f'{share * 100:.1f}%':>6} "
              f"{s['compile_pass'] * 100:>7.1f}% {top:>6} {s['prompt_tokens_mean']:>7.0f} "
              f"{s['latency_ms_p50']:>8.0f} {s['latency_ms_p95']:>8.0f} "
              f"{figures.get('run_s', 0):>7.1f}")
    print()
    print("\n".join(text_chart(result)))
    lines = targets(result) + peer_targets(result)
    if lines:
        print()
        print("\n".join(lines))

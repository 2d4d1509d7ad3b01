"""``run_eval``: sample points, run every mode through the real engine, score, aggregate.

The pipeline per point and mode: build the mode's prompt (``modes.build_prompt``) -> generate
with the configured engine (greedy; single-line stop for line points) -> ``postprocess`` as the
daemon does -> score against the hidden text (``metrics``). One engine is loaded once and serves
every mode; modes run one after the other over points sorted by file and line, with the file as
the KV-cache key, so consecutive points of a file reuse the cached prefix (latencies are those of
a warm, sequential editor session, not of cold prompts).

Top-k (``top_k > 1``): the greedy completion plus ``top_k - 1`` sampled alternatives
(temperature ``temperature``, a fixed seed per point and candidate); a hit is any of the ``k``
whose first line matches exactly. The alternatives reuse the whole prompt from the KV cache, so
they cost decoding only; their time is reported apart and left out of the latency figures.
"""

from __future__ import annotations

import hashlib
import platform
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from app.config import Config, to_dict
from app.errors import InputError
from app.evaluation import DEFAULT_MODES
from app.evaluation.corpus import build_index, percentile
from app.evaluation.history import (
    ReplayedPoint,
    history_corpora,
    pins_digest,
    sample_history_points,
)
from app.evaluation.history import describe as describe_history
from app.evaluation.metrics import (
    CompileChecker,
    accepted_chars,
    accepted_share,
    copied_below,
    edit_similarity,
    exact_match,
    identifier_f1,
)
from app.evaluation.metrics import mean as _mean
from app.evaluation.metrics import rate as _rate
from app.evaluation.modes import build_prompt
from app.evaluation.sampling import (
    EvalPoint,
    SamplingPlan,
    SamplingReport,
    sample_points,
    subset,
)
from app.evaluation.sampling import points_from as points_from_result
from daemon.history import EditHistory
from daemon.import_names import cut_unknown_names, line_before_cursor
from daemon.index import ProjectIndex
from daemon.tokens import LineCachedCounter
from engine.avoid import placeholder_starts
from engine.base import (
    Engine,
    EngineTokenCounter,
    Finished,
    FinishReason,
    GenerationRequest,
    PromptParts,
    TokenCounter,
    generate_sync,
)
from engine.postprocess import CUT_SHORT, postprocess

SCHEMA = 1  # version of the result JSON
LEAK_MIN_CHARS = 16  # hidden texts at least this long are looked for in prompts


@dataclass(frozen=True, slots=True)
class EvalOptions:
    """What ``nospin eval`` was asked to do (stored in the result)."""

    corpus: Path
    num_samples: int = 200
    seed: int = 0
    modes: tuple[str, ...] = DEFAULT_MODES
    top_k: int = 1  # candidates per point; > 1 adds sampled alternatives
    temperature: float = 0.8  # sampling temperature of the top-k alternatives
    naive_full_max: int = 60  # naive_full runs on a seeded subset of at most this many points
    exclude: tuple[str, ...] = ()  # extra gitignore-style patterns (e.g. "site-packages/")
    line_max_tokens: int = 32  # max_new_tokens of line points (they stop at the line end)
    block_max_tokens: int = 96  # max_new_tokens of block points (up to 5 lines)
    block_share: float = 0.4
    cross_share: float = 0.3
    timeout_s: float = 300.0  # per generation
    # block points run to their end (the block's end or the token cap) as the editor shows
    # them, and are also compile-checked so (``compile_pass_shown``); their scores stay on the
    # first lines as many as the ground truth has
    as_shown: bool = False


@dataclass(slots=True)
class PointResult:
    """One point in one mode."""

    point: str  # EvalPoint.id
    mode: str
    kind: str
    cross_file: bool
    prediction: str  # post-processed completion (block: cut to the hidden line count)
    exact_match: bool
    edit_similarity: float
    identifier_f1: float
    identifier_em: bool
    compile_pass: bool | None  # None: skipped (original does not compile/parse, no checker)
    top_k_hit: bool | None  # None when top_k == 1
    num_prompt_tokens: int  # as the engine counted them
    num_budgeted_tokens: int  # as the prompt builder counted them
    num_cached_tokens: int
    num_snippets: int  # cross-file snippets in the prompt (Qwen: repo-level form when > 0)
    build_ms: float
    first_token_ms: float
    latency_ms: float  # build + engine time to the finished completion
    finish_reason: str
    error: str = ""
    leak_suspect: bool = False  # hidden text found in the prompt but not in the buffer
    alternatives: list[str] = field(default_factory=list)
    # what reached the engine (prompt and generation settings: ``request_digest``), and
    # whether the result was taken from an earlier run that sent the same (``--unchanged-from``)
    prompt_digest: str = ""
    reused: bool = False
    # ``--as-shown``: the completion as the editor shows it (block points; line points: the
    # prediction) and whether the file compiles with it in place of the ground truth
    shown: str = ""
    compile_pass_shown: bool | None = None
    # ``--as-shown``, block points: whether the shown completion repeats lines of the code
    # below the cursor that the ground truth does not have (``metrics.copied_below``)
    copies_below: bool | None = None
    # ``--as-shown``: the engine's text before post-processing (line points since 2026-12-02):
    # a later run with --unchanged-from post-processes and scores it again
    raw: str = ""
    # characters of the prediction a user keeps (``metrics.accepted_chars``) and of the
    # ground truth; results stored before they existed get them from ``report.fill_accepted``
    accepted_chars: int = 0
    target_chars: int = 0


# (mode, point id) -> an earlier run's result of that point, as stored (``unchanged_results``)
Previous = dict[tuple[str, str], dict[str, Any]]


ProgressFn = Callable[[str], None]


def run_eval(
    options: EvalOptions,
    config: Config,
    *,
    engine: Engine | None = None,
    progress: ProgressFn | None = None,
    unchanged_from: dict[str, Any] | None = None,
    points_from: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Run the evaluation; returns the result (JSON-ready). Loads the configured engine unless
    ``engine`` (started) is given, and closes only an engine it loaded itself.
    ``unchanged_from``: an earlier result; a point whose request is the same as there (same
    prompt digest, mode and point) takes that result instead of running (``reused``), so an
    A/B of a context change costs only the points it changed. ``points_from``: an earlier
    result whose points are used instead of sampling (a change to the index draws others)."""
    say = progress or (lambda _msg: None)
    started = time.perf_counter()
    root = options.corpus.resolve()
    plan = SamplingPlan(
        num_samples=options.num_samples, seed=options.seed,
        block_share=options.block_share, cross_share=options.cross_share,
    )
    # editing sessions replayed from commits (history corpora): each point has its checkout
    folders = history_corpora(root)
    if folders and points_from is not None:
        raise InputError("--points-from takes points cut from files; history points are "
                         "drawn again from the same --seed")
    workdir = tempfile.TemporaryDirectory(prefix="nospin-history-")
    try:
        return _run(options, config, root, plan, folders, Path(workdir.name), engine=engine,
                    say=say, started=started, unchanged_from=unchanged_from,
                    points_from=points_from)
    finally:
        workdir.cleanup()


def _run(
    options: EvalOptions, config: Config, root: Path, plan: SamplingPlan,
    folders: list[Path], workdir: Path, *, engine: Engine | None, say: ProgressFn,
    started: float, unchanged_from: dict[str, Any] | None,
    points_from: dict[str, Any] | None,
) -> dict[str, Any]:
    """``run_eval`` once its history checkouts (if any) have a folder: ``workdir``."""
    history = EditHistory()
    replayed: dict[str, ReplayedPoint] = {}
    history_report: dict[str, Any] | None = None
    if folders:
        t0 = time.perf_counter()
        sessions, report = sample_history_points(folders, plan, config, workdir, say)
        build_s = time.perf_counter() - t0
        replayed = {r.point.id: r for r in sessions}
        points = [r.point for r in sessions]
        history_report = describe_history(report)
        index = ProjectIndex(root)  # not read: each point brings its checkout's index
        num_files = sum(len(ix) for ix in {id(r.index): r.index for r in sessions}.values())
        sampling = SamplingReport()
        say(f"replayed {len(points)} points from {report.num_commits} commits in "
            f"{build_s:.1f} s" + (f"; {report.shortfall} short of --samples (the pinned "
                                  "commits hold no more)" if report.shortfall else ""))
    else:
        index, build_s = build_index(root, config, options.exclude, history=history)
        num_files = len(index)
        say(f"indexed {len(index)} files in {build_s:.1f} s")
        if points_from is not None:
            points = points_from_result(points_from.get("points") or [], root)
            sampling = SamplingReport()
            say(f"took the {len(points)} points of the earlier result")
        else:
            points, sampling = sample_points(index, root, plan)
            say(f"sampled {len(points)} points ({sampling.num_attempts} draws)")
    own_engine = engine is None
    load_s = 0.0
    if engine is None:
        from engine.factory import create_engine

        t0 = time.perf_counter()
        engine = create_engine(config)
        engine.start()
        load_s = time.perf_counter() - t0
    try:
        n_ctx = engine.capabilities.n_ctx
        exact = EngineTokenCounter(engine)
        # the budget counted as the daemon counts it (daemon.service: exact tokenizer, per line)
        budget_counter = LineCachedCounter(exact) if engine.capabilities.exact_tokenizer else None
        previous: Previous = {}
        if unchanged_from is not None:
            previous = unchanged_results(
                unchanged_from, options, config, engine.name, engine.stats().model
            )
        full_ids = {p.id for p in subset(points, options.naive_full_max, options.seed)}
        checker = CompileChecker()
        results: list[PointResult] = []
        mode_info: dict[str, dict[str, Any]] = {}
        for mode in options.modes:
            todo = [p for p in points if mode != "naive_full" or p.id in full_ids]
            t_mode = time.perf_counter()
            extra_s = 0.0
            for i, point in enumerate(todo):
                session = replayed.get(point.id)
                result, alt_s = _run_point(
                    mode, point, engine=engine,
                    index=session.index if session else index,
                    history=session.replay.history if session else history, config=config,
                    options=options, exact=exact, n_ctx=n_ctx, checker=checker, number=i,
                    budget_counter=budget_counter, previous=previous, replayed=session,
                )
                results.append(result)
                extra_s += alt_s
                if (i + 1) % 10 == 0 or i + 1 == len(todo):
                    say(f"{mode}: {i + 1}/{len(todo)} ({time.perf_counter() - t_mode:.0f} s)")
            mode_info[mode] = {
                "num_points": len(todo),
                "reused_points": sum(1 for r in results if r.mode == mode and r.reused),
                "run_s": round(time.perf_counter() - t_mode, 2),
                "top_k_extra_s": round(extra_s, 2),
            }
        engine_name = engine.name
        engine_model = engine.stats().model
        counted_by = "exact" if budget_counter is not None else "estimate"
    finally:
        if own_engine:
            engine.close()
    out = _result(
        options, config, root=root, points=points, results=results, mode_info=mode_info,
        full_ids=full_ids, sampling=asdict(sampling), num_files=num_files,
        history_entries=len(history), build_s=build_s, load_s=load_s,
        total_s=time.perf_counter() - started, engine_name=engine_name,
        engine_model=engine_model, n_ctx=n_ctx, counted_by=counted_by,
    )
    if history_report is not None:
        out["corpus"]["history"] = history_report
    return out


def _run_point(
    mode: str,
    point: EvalPoint,
    *,
    engine: Engine,
    index: ProjectIndex,
    history: EditHistory,
    config: Config,
    options: EvalOptions,
    exact: EngineTokenCounter,
    n_ctx: int,
    checker: CompileChecker,
    number: int,
    budget_counter: TokenCounter | None = None,
    previous: Previous | None = None,
    replayed: ReplayedPoint | None = None,
) -> tuple[PointResult, float]:
    line_point = point.kind == "line"
    max_new = options.line_max_tokens if line_point else options.block_max_tokens
    built = build_prompt(
        mode, point, index=index, history=history, config=config.context, exact=exact,
        max_prompt_tokens=n_ctx - max_new - 16, budget_counter=budget_counter,
        replayed=replayed,
    )
    parts = built.parts
    request = GenerationRequest(
        request_id=f"eval-{mode}-{number}", prompt=parts, max_new_tokens=max_new,
        single_line=line_point, cache_key=f"{mode}:{point.path}",
        speculation=config.engine.speculation,
        avoid_starts=() if line_point else placeholder_starts(parts.prefix, point.language),
    )
    digest = request_digest(request)
    earlier = (previous or {}).get((mode, point.id))
    if earlier is not None and earlier.get("prompt_digest") == digest:
        stored = {k: v for k, v in earlier.items() if k in _RESULT_FIELDS}
        taken = replace(PointResult(**stored), build_ms=built.build_ms, reused=True)
        if options.as_shown and (taken.raw or not (taken.prediction or taken.shown)):
            # the engine's text is kept: post-processing and checks as they are now
            reason = FinishReason(taken.finish_reason)
            taken = replace(taken, **_scores(taken.raw, reason, parts, point, checker, True,
                                             built.import_names))
        else:  # the checks are cheap and may have changed since: made again
            cut = cut_unknown_names(line_before_cursor(parts.prefix), taken.prediction,
                                    built.import_names)
            if cut != taken.prediction:  # the import-list cut, newer than the stored result
                taken = replace(taken, **_text_scores(cut, point))
            taken.compile_pass = checker.check(
                point.path, point.language, point.original(),
                point.with_completion(taken.prediction))
            if options.as_shown:
                taken.compile_pass_shown, taken.copies_below = _shown_checks(
                    checker, point, taken.shown, taken.prediction, taken.compile_pass)
        taken.accepted_chars = accepted_chars(taken.prediction, point.hidden)
        taken.target_chars = len(point.hidden)
        return taken, 0.0
    lines = None if line_point or options.as_shown else point.num_hidden_lines
    fin, enough = generate(engine, request, max_lines=lines, timeout_s=options.timeout_s)
    error = fin.error if fin.reason is FinishReason.ERROR else ""
    raw = fin.text if not error else ""
    scores = _scores(raw, fin.reason, parts, point, checker, options.as_shown,
                     built.import_names)
    prediction = scores["prediction"]
    top_hit: bool | None = None
    alternatives: list[str] = []
    alt_s = 0.0
    if options.top_k > 1:
        t0 = time.perf_counter()
        hits = [exact_match(prediction, point.hidden)]
        for k in range(1, options.top_k):
            alt = replace(
                request, request_id=f"{request.request_id}-alt{k}",
                temperature=options.temperature, seed=_seed(options.seed, point.id, k),
                speculation=False,
            )
            alt_fin, _ = generate(engine, alt, max_lines=lines, timeout_s=options.timeout_s)
            text = _prediction(alt_fin.text, parts, point, alt_fin.reason) if alt_fin.text else ""
            alternatives.append(text)
            hits.append(exact_match(text, point.hidden))
        top_hit = any(hits)
        alt_s = time.perf_counter() - t0
    stats = fin.stats
    return PointResult(
        point=point.id, mode=mode, kind=point.kind, cross_file=point.cross_file,
        **scores, top_k_hit=top_hit, num_prompt_tokens=stats.num_prompt_tokens,
        num_budgeted_tokens=built.num_tokens_budgeted, num_cached_tokens=stats.num_cached_tokens,
        num_snippets=len(parts.snippets), build_ms=built.build_ms,
        first_token_ms=stats.first_token_ms,
        latency_ms=built.build_ms + stats.total_ms,
        finish_reason="lines" if enough else fin.reason.value, error=error,
        leak_suspect=_leak_suspect(point, parts), alternatives=alternatives,
        prompt_digest=digest, raw=raw if options.as_shown else "",
    ), alt_s


def _scores(
    raw: str, reason: FinishReason, parts: PromptParts, point: EvalPoint,
    checker: CompileChecker, as_shown: bool, import_names: frozenset[str] | None = None,
) -> dict[str, Any]:
    """The PointResult fields that follow from the engine's text ``raw`` and why it stopped:
    the prediction and its scores, and with ``as_shown`` the text shown and its check.
    ``import_names``: ``BuiltPrompt.import_names`` (the daemon's import-list cut)."""
    scored, scored_reason = raw, reason
    if as_shown and point.kind == "block":
        # scored as a run without --as-shown would have: the text up to where it would have
        # been stopped for having the ground truth's lines (cancelled: not cut short)
        stop = line_end(raw, point.num_hidden_lines)
        if stop is not None:
            scored, scored_reason = raw[:stop], FinishReason.CANCELLED
    line_before = line_before_cursor(parts.prefix)
    prediction = cut_unknown_names(
        line_before, _prediction(scored, parts, point, scored_reason), import_names)
    compiled = checker.check(
        point.path, point.language, point.original(), point.with_completion(prediction)
    )
    shown, compiled_shown, copies = "", None, None
    if as_shown:
        shown = prediction if point.kind == "line" else cut_unknown_names(line_before, postprocess(
            raw, parts.prefix, parts.suffix, point.language, True, cut_short=reason in CUT_SHORT),
            import_names)
        compiled_shown, copies = _shown_checks(checker, point, shown, prediction, compiled)
    return {
        **_text_scores(prediction, point), "compile_pass": compiled,
        "shown": shown, "compile_pass_shown": compiled_shown, "copies_below": copies,
    }


def _text_scores(prediction: str, point: EvalPoint) -> dict[str, Any]:
    """The PointResult fields that compare ``prediction`` with the hidden text."""
    ids = identifier_f1(prediction, point.hidden, point.language)
    return {
        "prediction": prediction, "exact_match": exact_match(prediction, point.hidden),
        "edit_similarity": edit_similarity(prediction, point.hidden),
        "accepted_chars": accepted_chars(prediction, point.hidden),
        "target_chars": len(point.hidden),
        "identifier_f1": ids.f1, "identifier_em": ids.exact,
    }


_RESULT_FIELDS = frozenset(PointResult.__dataclass_fields__)


def request_digest(request: GenerationRequest) -> str:
    """A digest of what a request asks the engine: the prompt (path, language, snippets,
    prefix, suffix) and the generation settings; the id and cache key left out."""
    p = request.prompt
    shown = (
        (p.path, p.language, tuple((s.path, s.text) for s in p.snippets), p.prefix, p.suffix)
        if p is not None else request.prompt_text
    )
    what = (
        shown,
        request.max_new_tokens, request.single_line, request.speculation, tuple(request.stop),
        tuple(request.avoid_starts), request.temperature,
    )
    return hashlib.blake2b(repr(what).encode("utf-8"), digest_size=12).hexdigest()


def unchanged_results(
    old: dict[str, Any], options: EvalOptions, config: Config, engine_name: str, model: str
) -> Previous:
    """The results of ``old`` that a run of ``options`` may take for points whose requests
    are the same; InputError naming what differs when ``old`` ran another model or scored
    otherwise (the digest covers the request, not these)."""
    differs: list[str] = []
    if old.get("engine", {}).get("model") != model:
        differs.append(f"model ({old.get('engine', {}).get('model')!r}, here {model!r})")
    if old.get("engine", {}).get("name", engine_name) != engine_name:
        differs.append("engine")
    old_engine = old.get("config", {}).get("engine", {})
    for key in ("token_healing", "n_ctx"):
        if old_engine.get(key) != getattr(config.engine, key):
            differs.append(f"engine.{key}")
    old_options = {"as_shown": False, **old.get("options", {})}  # (older results: without)
    for key in ("top_k", "temperature", "seed", "as_shown"):
        if old_options.get(key) != getattr(options, key):
            differs.append(f"--{key.replace('_', '-')}")
    if differs:
        raise InputError("--unchanged-from: the earlier result differs in " + ", ".join(differs))
    found: Previous = {}
    for r in old.get("results", []):
        if r.get("prompt_digest") and not r.get("error"):
            found[(r["mode"], r["point"])] = r
    return found


def generate(
    engine: Engine, request: GenerationRequest, *, max_lines: int | None, timeout_s: float
) -> tuple[Finished, bool]:
    """Run ``request`` to the end, or cancel it once ``max_lines`` complete lines have streamed
    (block points: lines past the ground truth's count are not scored, so not generated).

    Returns the Finished event (its text is what was generated) and whether it was stopped
    for having enough lines.
    """
    if max_lines is None:
        return generate_sync(engine, request, timeout_s=timeout_s)[0], False
    limit = max_lines
    stopped = [False]

    def enough(text: str) -> bool:
        stopped[0] = line_end(text, limit) is not None
        return stopped[0]

    fin, _ = generate_sync(engine, request, timeout_s=timeout_s, stop_when=enough)
    return fin, stopped[0] and fin.reason is FinishReason.CANCELLED


def line_end(text: str, lines: int) -> int | None:
    """Where ``text`` has ``lines`` complete lines (leading line breaks not counted): the end
    of its ``lines``-th line break; None when it has fewer."""
    start = len(text) - len(text.lstrip("\r\n"))
    pos = start - 1
    for _ in range(lines):
        pos = text.find("\n", pos + 1)
        if pos == -1:
            return None
    return pos + 1 if lines else start


def _prediction(text: str, parts: PromptParts, point: EvalPoint, reason: FinishReason) -> str:
    """The post-processed completion as the daemon shows it (``reason``: why the engine stopped:
    one stopped at its token cap is cut at its last whole line); block points keep as many
    lines as the ground truth has (the editor would show more; the score compares like with
    like)."""
    multiline = point.kind == "block"
    out = postprocess(
        text, parts.prefix, parts.suffix, point.language, multiline,
        cut_short=reason in CUT_SHORT,
    )
    if multiline:
        out = "\n".join(out.split("\n")[: point.num_hidden_lines])
    return out


def _shown_checks(
    checker: CompileChecker, point: EvalPoint, shown: str, prediction: str, compiled: bool | None
) -> tuple[bool | None, bool | None]:
    """``--as-shown``: whether the file compiles with the shown completion, and (block
    points) whether it copies the code below the cursor."""
    copies = copied_below(shown, point.hidden, point.after) if point.kind == "block" else None
    return _compiles_shown(checker, point, shown, prediction, compiled), copies


def _compiles_shown(
    checker: CompileChecker, point: EvalPoint, shown: str, prediction: str, compiled: bool | None
) -> bool | None:
    """Whether the file compiles with the completion as the editor shows it inserted at the
    cursor: the buffer is the file without the ground truth, the lines below it included (a
    body's later lines, the rest of a statement a 5-line ground truth cut). Tried and not
    kept: replacing the body's later lines too (``--as-shown`` at 238ab66), which judged
    another edit than the buffer's and passed bodies that left the buffer broken."""
    if shown == prediction:
        return compiled
    return checker.check(point.path, point.language, point.original(),
                         point.with_completion(shown))


def _seed(seed: int, point_id: str, k: int) -> int:
    digest = hashlib.blake2b(f"{seed}:{point_id}:{k}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big")


def _leak_suspect(point: EvalPoint, parts: PromptParts) -> bool:
    """The hidden text appears in the prompt although the buffer does not contain it (then it
    came from another file, legitimately duplicated, or through a leak)."""
    core = point.hidden.strip()
    if len(core) < LEAK_MIN_CHARS or core in point.buffer:
        return False
    prompt = "".join(s.text for s in parts.snippets) + parts.prefix + parts.suffix
    return core in prompt


# --- aggregation --------------------------------------------------------------------------------


def reuse_modes(result: dict[str, Any], old: dict[str, Any]) -> list[str]:
    """Copy into ``result`` the modes that ``old`` ran and ``result`` did not (baselines that
    change only with the model), when both scored the same points with the same model; returns
    the modes copied. Raises InputError naming what differs. naive_tail is cut to nospin's
    budget, so it is reused only when the context budget and suffix lines match."""
    missing = [m for m in old.get("summary", {}) if m not in result["summary"]]
    if not missing:
        return []
    ids = [p["id"] for p in result["points"]]
    differs: list[str] = []
    if [p.get("id") for p in old.get("points", [])] != ids:
        differs.append("points (corpus, samples, seed or sampling)")
    if old.get("naive_full_subset") != result["naive_full_subset"]:
        differs.append("naive_full subset")
    if old.get("engine", {}).get("model") != result["engine"]["model"]:
        differs.append("model")
    healing = [r.get("config", {}).get("engine", {}).get("token_healing", False)
               for r in (old, result)]  # results from before healing existed: off
    if healing[0] != healing[1]:
        differs.append("engine.token_healing")
    for key in ("line_max_tokens", "block_max_tokens", "top_k", "temperature"):
        if old.get("options", {}).get(key) != result["options"].get(key):
            differs.append(f"--{key.replace('_', '-')}")
    if "naive_tail" in missing:
        new_ctx, old_ctx = result["config"]["context"], old.get("config", {}).get("context", {})
        for key in ("budget_tokens", "suffix_max_lines", "suffix_share"):
            if old_ctx.get(key) != new_ctx.get(key):
                differs.append(f"context.{key} (naive_tail is cut to nospin's budget)")
        counted = old.get("engine", {}).get("budget_counter", "estimate")
        if counted != result["engine"].get("budget_counter", "estimate"):
            differs.append("how the budget was counted (naive_tail is cut to nospin's budget)")
    if differs:
        raise InputError(f"cannot reuse modes {missing}: the results differ in "
                         + ", ".join(differs))
    for mode in missing:
        result["summary"][mode] = {**old["summary"][mode], "reused_from": old.get("result_path")}
        result["results"].extend(r for r in old.get("results", []) if r.get("mode") == mode)
    result["options"]["modes"] = [*result["options"]["modes"], *missing]
    result["reused_modes"] = {"modes": missing, "from": old.get("result_path"),
                              "created": old.get("created")}
    return missing


def summarize_results(results: Sequence[PointResult]) -> dict[str, Any]:
    """Aggregate figures of a group of results (one mode, one breakdown)."""
    compile_rate, compile_n, compile_skipped = _rate([r.compile_pass for r in results])
    shown_flags = [r.compile_pass_shown for r in results]
    copies = [r.copies_below for r in results if r.copies_below is not None]
    tops = [r.top_k_hit for r in results if r.top_k_hit is not None]
    latency = [r.latency_ms for r in results]
    first = [r.first_token_ms for r in results if r.first_token_ms]
    out: dict[str, Any] = {
        "n": len(results),
        "exact_match": _mean(float(r.exact_match) for r in results),
        "edit_similarity": _mean(r.edit_similarity for r in results),
        "identifier_f1": _mean(r.identifier_f1 for r in results),
        "identifier_em": _mean(float(r.identifier_em) for r in results),
        "accepted_chars_mean": _mean(float(r.accepted_chars) for r in results),
        "accepted_share": accepted_share([r.accepted_chars for r in results],
                                         [r.target_chars for r in results]),
        "compile_pass": compile_rate,
        "compile_counted": compile_n,
        "compile_skipped": compile_skipped,
        # ``--as-shown`` only: compile-pass of the completions as the editor shows them
        "compile_pass_shown": _rate(shown_flags)[0] if any(
            f is not None for f in shown_flags) else None,
        # ``--as-shown`` only: share of block completions shown that copy the code below
        "copies_below": _mean(float(c) for c in copies) if copies else None,
        "top_k_hit": _mean(float(t) for t in tops) if tops else None,
        "prompt_tokens_mean": _mean(float(r.num_prompt_tokens) for r in results),
        "cached_tokens_mean": _mean(float(r.num_cached_tokens) for r in results),
        "latency_ms_p50": percentile(latency, 0.5),
        "latency_ms_p95": percentile(latency, 0.95),
        "first_token_ms_p50": percentile(first, 0.5),
        "first_token_ms_p95": percentile(first, 0.95),
        "empty": _mean(float(not r.prediction) for r in results),
        "errors": sum(1 for r in results if r.error),
        "leak_suspects": sum(1 for r in results if r.leak_suspect),
    }
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in out.items()}


def breakdown(results: Sequence[PointResult], full_ids: set[str]) -> dict[str, Any]:
    """Summaries of one mode: all, line, block, cross_file, and the naive_full subset."""
    groups: dict[str, list[PointResult]] = {
        "all": list(results),
        "line": [r for r in results if r.kind == "line"],
        "block": [r for r in results if r.kind == "block"],
        "cross_file": [r for r in results if r.cross_file],
        "full_subset": [r for r in results if r.point in full_ids],
    }
    return {name: summarize_results(rs) for name, rs in groups.items()}


def _result(
    options: EvalOptions,
    config: Config,
    *,
    root: Path,
    points: list[EvalPoint],
    results: list[PointResult],
    mode_info: dict[str, dict[str, Any]],
    full_ids: set[str],
    sampling: dict[str, Any],
    num_files: int,
    history_entries: int,
    build_s: float,
    load_s: float,
    total_s: float,
    engine_name: str,
    engine_model: str,
    n_ctx: int,
    counted_by: str,
) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for mode in options.modes:
        mine = [r for r in results if r.mode == mode]
        summary[mode] = {**mode_info.get(mode, {}), **breakdown(mine, full_ids)}
    opts = asdict(options)
    opts["corpus"] = str(root)
    opts["corpus_pins"] = pins_digest(root)  # a history corpus's identity (``--reuse``)
    return {
        "schema": SCHEMA,
        "created": time.time(),
        "options": opts,
        "config": to_dict(config),
        "snapshot_id": None,  # filled in when the result is stored with a config snapshot
        # budget_counter: how nospin's and naive_tail's budget was counted ("exact": the
        # engine's tokenizer, as the daemon counts; "estimate": characters, before 2026-11-30)
        "engine": {"name": engine_name, "model": engine_model, "n_ctx": n_ctx,
                   "budget_counter": counted_by},
        "host": {"python": sys.version.split()[0], "machine": platform.machine()},
        "corpus": {
            "root": str(root),
            "num_files": num_files,
            "index_build_s": round(build_s, 2),
            "sampling": sampling,
        },
        "checks": {
            "history_entries": history_entries,  # must be 0: the ground truth never went there
            "leak_suspects": sum(1 for r in results if r.leak_suspect),
        },
        "timing": {"model_load_s": round(load_s, 2), "total_s": round(total_s, 2)},
        "num_points": len(points),
        "num_line": sum(1 for p in points if p.kind == "line"),
        "num_block": sum(1 for p in points if p.kind == "block"),
        "num_cross_file": sum(1 for p in points if p.cross_file),
        "naive_full_subset": sorted(full_ids),
        "summary": summary,
        "points": [
            {
                "id": p.id, "path": p.path, "language": p.language, "kind": p.kind,
                "cross_file": p.cross_file, "cross_names": list(p.cross_names),
                "hidden": p.hidden,
            }
            for p in points
        ],
        "results": [
            {
                **{k: (round(v, 2) if isinstance(v, float) else v) for k, v in asdict(r).items()}
            }
            for r in results
        ],
    }

"""Reading an eval result: markdown report, charts, targets, comparison with an earlier result.

``compare`` implements the guardrail of design.md §5: a drop of more than ``MAX_DROP`` (2 points)
in compile-pass or exact match, in any mode both results have, is a regression. ``text_chart``
draws every mode side by side in text (the report and the terminal); the PNG chart needs
matplotlib (``pip install 'nospin[eval]'``); without it the report says the chart was skipped.
``targets`` and ``peer_targets`` give PASS/FAIL lines for the benchmark targets; results stored
before the accepted-characters metric existed get it from their stored predictions
(``fill_accepted``).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.evaluation import PEER_MODES
from app.evaluation.metrics import accepted_chars, accepted_share

MAX_DROP = 0.02  # 2 points of compile-pass or exact match
GUARDED = ("compile_pass", "exact_match")
# guarded too when both results have it (``--as-shown`` runs)
GUARDED_WHEN_BOTH = ("compile_pass_shown",)
GROUPS = ("all", "line", "block", "cross_file", "full_subset")
# the issue-42 targets against the peer modes (``peer_targets``)
PEER_EM_MARGIN = 0.03  # nospin's exact match at least 3 points above the best peer's
PEER_ACCEPTED_GAIN = 1.05  # and 5% more accepted characters than the best peer's
TAIL_XF_MARGIN = 0.05  # exact match at least 5 points above naive_tail's on cross-file points
PEER_COMPILE_SLACK = 0.02  # compile-pass at most 2 points below any peer's
MIN_POOLED_POINTS = 300
MIN_LANGUAGES = 3
CHART_WIDTH = 32  # characters of the longest bar of ``text_chart``


@dataclass(frozen=True, slots=True)
class Regression:
    mode: str
    metric: str
    old: float
    new: float

    @property
    def drop_points(self) -> float:
        return (self.old - self.new) * 100

    def describe(self) -> str:
        return (
            f"{self.mode}: {self.metric} dropped {self.drop_points:.1f} points "
            f"({self.old * 100:.1f}% -> {self.new * 100:.1f}%)"
        )


@dataclass(frozen=True, slots=True)
class Comparison:
    regressions: tuple[Regression, ...]
    rows: tuple[tuple[str, str, float, float], ...]  # (mode, metric, old, new)
    notes: tuple[str, ...]  # e.g. "different points: comparison is loose"

    @property
    def ok(self) -> bool:
        return not self.regressions


def compare(old: dict[str, Any], new: dict[str, Any]) -> Comparison:
    """Compare the "all" figures of every mode both results ran."""
    rows: list[tuple[str, str, float, float]] = []
    regressions: list[Regression] = []
    notes: list[str] = []
    old_points = [p.get("id") for p in old.get("points", [])]
    new_points = [p.get("id") for p in new.get("points", [])]
    if old_points != new_points:
        notes.append(
            "the two results scored different points (corpus, seed or sample count differ): "
            "differences mix sampling noise with real changes"
        )
    for mode, figures in new.get("summary", {}).items():
        before = old.get("summary", {}).get(mode)
        if not isinstance(before, dict):
            continue
        for metric in (*GUARDED, *GUARDED_WHEN_BOTH, "edit_similarity", "identifier_f1",
                       "accepted_share", "prompt_tokens_mean", "latency_ms_p50"):
            a, b = before.get("all", {}).get(metric), figures.get("all", {}).get(metric)
            if not isinstance(a, int | float) or not isinstance(b, int | float):
                continue
            rows.append((mode, metric, float(a), float(b)))
            if metric in (*GUARDED, *GUARDED_WHEN_BOTH) and a - b > MAX_DROP + 1e-9:
                regressions.append(Regression(mode, metric, float(a), float(b)))
    if not rows:
        notes.append("no mode in common: nothing compared")
    elif old_points == new_points:
        notes.extend(point_changes(old, new))
    return Comparison(tuple(regressions), tuple(rows), tuple(notes))


def point_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Per mode both results ran on the same points: how many predictions and prompts changed,
    and how many points turned compiling / exact or stopped (a step judged point by point)."""
    def by_point(result: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
        return {(r["mode"], r["point"]): r for r in result.get("results", [])}

    before, after = by_point(old), by_point(new)
    lines: list[str] = []
    for mode in new.get("summary", {}):
        pairs = [(before[k], r) for k, r in after.items() if k[0] == mode and k in before]
        if not pairs:
            continue
        changed = sum(a["prediction"] != b["prediction"] for a, b in pairs)
        prompts = sum(a["num_prompt_tokens"] != b["num_prompt_tokens"] for a, b in pairs)
        moves = []
        for metric in GUARDED:
            gained = sum(bool(b[metric]) and not a[metric] for a, b in pairs)
            lost = sum(bool(a[metric]) and not b[metric] for a, b in pairs)
            moves.append(f"{metric} gained on {gained}, lost on {lost}")
        lines.append(
            f"{mode}: {changed} of {len(pairs)} predictions changed ({prompts} prompt sizes); "
            + "; ".join(moves)
        )
    return lines


def _pct(value: Any) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def _num(value: Any, digits: int = 0) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def render_markdown(
    result: dict[str, Any], *, chart: str | None = None, chart_note: str = "",
    comparison: Comparison | None = None,
) -> str:
    """The report: settings, one table per breakdown, targets, timing, comparison."""
    opts = result["options"]
    eng = result["engine"]
    when = _dt.datetime.fromtimestamp(result["created"], _dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    top_k = opts["top_k"]
    lines = [
        "# nospin eval",
        "",
        f"- when: {when}; corpus `{opts['corpus']}` ({result['corpus']['num_files']} files)",
        f"- points: {result['num_points']} (line {result['num_line']}, block "
        f"{result['num_block']}, cross-file {result['num_cross_file']}), seed {opts['seed']}",
        f"- engine: {eng['name']} `{eng['model']}`, n_ctx {eng['n_ctx']}; context budget "
        f"{result['config']['context']['budget_tokens']} tokens",
        f"- naive_full ran on a seeded subset of {len(result['naive_full_subset'])} points "
        "(column `full_subset` compares every mode on it)",
        f"- config snapshot: `{result.get('snapshot_id') or 'not stored'}`",
    ]
    if top_k > 1:
        lines.append(
            f"- top-{top_k}: greedy + {top_k - 1} sampled alternatives (temperature "
            f"{opts['temperature']}, fixed seed per point); hit = any first line matches"
        )
    sources: dict[str, list[str]] = {}  # modes copied with --reuse, per source (one or more)
    for mode, figures in result["summary"].items():
        if "reused_from" in figures:
            sources.setdefault(str(figures["reused_from"]), []).append(mode)
    for source, modes in sources.items():
        lines.append(
            f"- modes {', '.join(modes)} reused from `{source}` (same points, "
            "model and options; measured in that run)"
        )
    shortfall = result["corpus"]["sampling"].get("shortfall")
    if shortfall:
        lines.append(f"- sampling shortfall (points not found): {shortfall}")
    checks = result["checks"]
    lines.append(
        f"- leak checks: edit-history entries {checks['history_entries']}, hidden text found in "
        f"a prompt but not in the buffer: {checks['leak_suspects']}"
    )
    for group in GROUPS:
        lines += ["", f"## {group.replace('_', ' ')}", ""]
        header = ("| mode | n | exact match | edit sim | identifier F1 | accepted chars | "
                  "accepted share | compile-pass (skipped) |"
                  + (f" top-{top_k} |" if top_k > 1 else "")
                  + " prompt tokens | p50 / p95 latency ms | empty |")
        lines += [header, "|" + "---|" * (header.count("|") - 1)]
        for mode, figures in result["summary"].items():
            s = figures.get(group, {})
            if not s or not s.get("n"):
                continue
            row = (
                f"| {mode} | {s['n']} | {_pct(s['exact_match'])} | {s['edit_similarity']:.3f} | "
                f"{s['identifier_f1']:.3f} | {_num(s.get('accepted_chars_mean'), 1)} | "
                f"{_pct(s.get('accepted_share'))} | {_pct(s['compile_pass'])} "
                f"({s['compile_skipped']}) |"
            )
            if top_k > 1:
                row += f" {_pct(s['top_k_hit'])} |"
            row += (
                f" {_num(s['prompt_tokens_mean'])} | {_num(s['latency_ms_p50'])} / "
                f"{_num(s['latency_ms_p95'])} | {_pct(s['empty'])} |"
            )
            lines.append(row)
        shown = [(mode, figures[group]["compile_pass_shown"])
                 for mode, figures in result["summary"].items()
                 if figures.get(group, {}).get("compile_pass_shown") is not None]
        if shown:  # --as-shown
            lines += ["", "compile-pass of the completions as the editor shows them (block "
                      "points run to their end): " + ", ".join(
                          f"{mode} {_pct(rate)}" for mode, rate in shown)]
        copies = [(mode, figures[group]["copies_below"])
                  for mode, figures in result["summary"].items()
                  if figures.get(group, {}).get("copies_below") is not None]
        if copies:
            lines += ["", "block completions shown that copy 2 lines of the code below the "
                      "cursor the ground truth does not have: " + ", ".join(
                          f"{mode} {_pct(rate)}" for mode, rate in copies)]
    lines += ["", "## chart (all points)", "", "```", *text_chart(result), "```"]
    lines += ["", "## targets (quality guardrail)", ""]
    lines += [f"- {t}" for t in targets(result)] or ["- (needs the nospin and naive modes)"]
    lines += ["", "## targets against the peer modes", ""]
    lines += [f"- {t}" for t in peer_targets(result)] or [
        "- (needs the nospin mode and a peer mode or naive_tail)"]
    lines += ["", "## run time per mode", "", "| mode | points | run s | top-k extra s |",
              "|---|---|---|---|"]
    for mode, figures in result["summary"].items():
        lines.append(f"| {mode} | {figures.get('num_points', '-')} | {figures.get('run_s', '-')} "
                     f"| {figures.get('top_k_extra_s', '-')} |")
    timing = result["timing"]
    lines.append("")
    lines.append(f"Index build {result['corpus']['index_build_s']} s, model load "
                 f"{timing['model_load_s']} s, total {timing['total_s']} s.")
    if chart:
        lines += ["", f"![quality against prompt tokens and latency]({chart})"]
    elif chart_note:
        lines += ["", f"Chart: {chart_note}"]
    if comparison is not None:
        lines += ["", "## comparison with the earlier result", ""]
        lines += [f"- note: {n}" for n in comparison.notes]
        if comparison.regressions:
            lines += [f"- **REGRESSION** {r.describe()}" for r in comparison.regressions]
        else:
            lines.append("- no drop of more than 2 points in compile-pass or exact match")
        lines += ["", "| mode | metric | before | now |", "|---|---|---|---|"]
        for mode, metric, a, b in comparison.rows:
            lines.append(f"| {mode} | {metric} | {a:.4g} | {b:.4g} |")
    return "\n".join(lines) + "\n"


def targets(result: dict[str, Any]) -> list[str]:
    """The benchmark targets of issue 5, each with PASS/FAIL and its figures."""
    s = result["summary"]
    out: list[str] = []
    if "nospin" in s and "naive_full" in s:
        mine, full = s["nospin"]["full_subset"], s["naive_full"]["full_subset"]
        if mine.get("n") and full.get("n"):
            ratio = mine["prompt_tokens_mean"] / full["prompt_tokens_mean"] if full[
                "prompt_tokens_mean"] else 0.0
            out.append(f"{_verdict(ratio <= 0.5)} nospin uses at most half of naive_full's prompt "
                       f"tokens: {ratio:.2f}x ({mine['prompt_tokens_mean']:.0f} vs "
                       f"{full['prompt_tokens_mean']:.0f}, naive_full subset)")
            for metric in GUARDED:
                a, b = mine[metric], full[metric]
                out.append(f"{_verdict(a >= b - MAX_DROP)} nospin {metric} within 2 points of "
                           f"naive_full or better: {_pct(a)} vs {_pct(b)} (naive_full subset)")
    if "nospin" in s and "naive_tail" in s:
        mine, tail = s["nospin"]["cross_file"], s["naive_tail"]["cross_file"]
        if mine.get("n") and tail.get("n"):
            better = (mine["exact_match"], mine["edit_similarity"]) > (
                tail["exact_match"], tail["edit_similarity"])
            out.append(f"{_verdict(better)} nospin beats naive_tail on the cross-file subset "
                       f"(exact match, then edit similarity): {_pct(mine['exact_match'])} / "
                       f"{mine['edit_similarity']:.3f} vs {_pct(tail['exact_match'])} / "
                       f"{tail['edit_similarity']:.3f} (n={mine['n']})")
    return out


def peer_targets(result: dict[str, Any]) -> list[str]:
    """The targets of issue 42, each with PASS/FAIL and its figures: against the best peer
    mode (``PEER_MODES`` the result ran) on all points, exact match ``PEER_EM_MARGIN`` above
    and accepted characters ``PEER_ACCEPTED_GAIN`` times, prompt tokens no more than any
    peer's, compile-pass (as shown when every mode has it) at most ``PEER_COMPILE_SLACK``
    below any peer's; exact match ``TAIL_XF_MARGIN`` above naive_tail's on the cross-file
    points; and whether the sample is as large as the target asks."""
    s = result["summary"]
    mine = s.get("nospin", {}).get("all", {})
    if not mine.get("n"):
        return []
    peers = [m for m in PEER_MODES if s.get(m, {}).get("all", {}).get("n")]
    out: list[str] = []
    languages = {p.get("language") for p in result.get("points", []) if p.get("language")}
    out.append(f"{_verdict(mine['n'] >= MIN_POOLED_POINTS and len(languages) >= MIN_LANGUAGES)}"
               f" sample of at least {MIN_POOLED_POINTS} points from at least "
               f"{MIN_LANGUAGES} languages: {mine['n']} points, {len(languages)} languages")
    if peers:
        figures = {m: s[m]["all"] for m in peers}
        best = max(peers, key=lambda m: figures[m]["exact_match"])
        em, top = mine["exact_match"], figures[best]["exact_match"]
        out.append(f"{_verdict(em >= top + PEER_EM_MARGIN - 1e-9)} nospin exact match at least "
                   f"{PEER_EM_MARGIN * 100:.0f} points above the best peer's: {_pct(em)} vs "
                   f"{best} {_pct(top)}")
        if all(f.get("accepted_chars_mean") is not None for f in (mine, *figures.values())):
            best = max(peers, key=lambda m: figures[m]["accepted_chars_mean"])
            acc, top = mine["accepted_chars_mean"], figures[best]["accepted_chars_mean"]
            ratio = f"{acc / top:.2f}x" if top else "-"
            out.append(f"{_verdict(acc >= top * PEER_ACCEPTED_GAIN - 1e-9)} nospin accepts at "
                       f"least {(PEER_ACCEPTED_GAIN - 1) * 100:.0f}% more characters than the "
                       f"best peer: {acc:.1f} vs {best} {top:.1f} a point ({ratio}; share "
                       f"{_pct(mine.get('accepted_share'))} vs "
                       f"{_pct(figures[best].get('accepted_share'))})")
        else:
            out.append("FAIL accepted characters: a mode's result has none (no predictions "
                       "stored)")
        fewest = min(peers, key=lambda m: figures[m]["prompt_tokens_mean"])
        tokens, least = mine["prompt_tokens_mean"], figures[fewest]["prompt_tokens_mean"]
        out.append(f"{_verdict(tokens <= least + 1e-9)} nospin prompt tokens no more than any "
                   f"peer's: {tokens:.0f} vs {fewest} {least:.0f}")
        metric = "compile_pass_shown" if all(
            f.get("compile_pass_shown") is not None for f in (mine, *figures.values())
        ) else "compile_pass"
        below = [m for m in peers if figures[m][metric] - mine[metric] > PEER_COMPILE_SLACK + 1e-9]
        worst = max(peers, key=lambda m: figures[m][metric])
        out.append(f"{_verdict(not below)} nospin {metric} at most "
                   f"{PEER_COMPILE_SLACK * 100:.0f} points below any peer's: "
                   f"{_pct(mine[metric])} vs {worst} {_pct(figures[worst][metric])}"
                   + (f" (below: {', '.join(below)})" if below else ""))
    xf, tail = s["nospin"].get("cross_file", {}), s.get("naive_tail", {}).get("cross_file", {})
    if xf.get("n") and tail.get("n"):
        em, base = xf["exact_match"], tail["exact_match"]
        out.append(f"{_verdict(em >= base + TAIL_XF_MARGIN - 1e-9)} nospin exact match at least "
                   f"{TAIL_XF_MARGIN * 100:.0f} points above naive_tail's on the cross-file "
                   f"points: {_pct(em)} vs {_pct(base)} (n={xf['n']})")
    return out


def text_chart(result: dict[str, Any], group: str = "all") -> list[str]:
    """Every mode side by side as text bars: exact match, accepted share, compile-pass (as
    shown when every mode has it) and prompt tokens of ``group``; each bar scaled to the
    largest value of its metric, the value printed after it."""
    rows = {m: f[group] for m, f in result["summary"].items() if f.get(group, {}).get("n")}
    if not rows:
        return ["(no mode has points here)"]
    compiled = "compile_pass_shown" if all(
        r.get("compile_pass_shown") is not None for r in rows.values()) else "compile_pass"
    width = max(len(m) for m in rows)
    lines: list[str] = []
    for metric, label, percent in (
        ("exact_match", "exact match", True),
        ("accepted_share", "accepted share", True),
        (compiled, compiled.replace("_", "-").replace("-shown", " as shown"), True),
        ("prompt_tokens_mean", "prompt tokens", False),
    ):
        values = {m: r.get(metric) for m, r in rows.items()}
        if any(v is None for v in values.values()):
            continue
        top = max(values.values()) or 1.0
        n = next(iter(rows.values()))["n"]
        lines.append(f"{label} ({group.replace('_', ' ')}, n={n})")
        for mode, value in values.items():
            eighths = round(value / top * CHART_WIDTH * 8)
            bar = "█" * (eighths // 8) + ("▏▎▍▌▋▊▉"[eighths % 8 - 1] if eighths % 8 else "")
            shown = f"{value * 100:5.1f}%" if percent else f"{value:6.0f}"
            other = f" (n={rows[mode]['n']})" if rows[mode]["n"] != n else ""  # naive_full
            lines.append(f"  {mode:<{width}} {bar:<{CHART_WIDTH + 1}} {shown}{other}")
    return lines


def fill_accepted(result: dict[str, Any]) -> dict[str, Any]:
    """Add the accepted-characters figures to a result stored before they existed, from its
    stored predictions and ground truths: ``accepted_chars`` and ``target_chars`` per point
    result, ``accepted_chars_mean`` and ``accepted_share`` per mode and group (a group whose
    results are not all stored is left without). Figures already there are kept."""
    hidden = {p.get("id"): p["hidden"] for p in result.get("points", [])
              if isinstance(p.get("hidden"), str)}
    results = result.get("results", [])
    for r in results:
        target = hidden.get(r.get("point"))
        if "accepted_chars" in r or target is None or not isinstance(r.get("prediction"), str):
            continue
        r["accepted_chars"] = accepted_chars(r["prediction"], target)
        r["target_chars"] = len(target)
    full = set(result.get("naive_full_subset", []))
    for mode, figures in result.get("summary", {}).items():
        mine = [r for r in results if r.get("mode") == mode and "accepted_chars" in r]
        groups = {
            "all": mine,
            "line": [r for r in mine if r.get("kind") == "line"],
            "block": [r for r in mine if r.get("kind") == "block"],
            "cross_file": [r for r in mine if r.get("cross_file")],
            "full_subset": [r for r in mine if r.get("point") in full],
        }
        for group, members in groups.items():
            s = figures.get(group)
            if not isinstance(s, dict) or "accepted_share" in s or s.get("n") != len(members):
                continue
            if not members:
                continue
            accepted = [int(r["accepted_chars"]) for r in members]
            s["accepted_chars_mean"] = round(sum(accepted) / len(accepted), 4)
            s["accepted_share"] = round(
                accepted_share(accepted, [int(r["target_chars"]) for r in members]), 4)
    return result


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def render_chart(result: dict[str, Any], path: Path) -> str:
    """Write the PNG chart; returns "" on success, else why it was skipped (no matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "skipped: matplotlib is not installed (pip install 'nospin[eval]')"
    summary = result["summary"]
    group = "full_subset" if "naive_full" in summary else "all"
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    panels = (("prompt_tokens_mean", "mean prompt tokens"), ("latency_ms_p50", "p50 latency (ms)"))
    colors = {mode: f"C{i}" for i, mode in enumerate(summary)}
    for ax, (x_key, x_label) in zip(axes, panels, strict=True):
        for mode, figures in summary.items():
            s = figures.get(group, {})
            if not s.get("n"):
                continue
            for metric, marker in (("exact_match", "o"), ("compile_pass", "s"),
                                   ("accepted_share", "^")):
                if s.get(metric) is None:
                    continue
                ax.scatter(s[x_key], s[metric] * 100, marker=marker, s=60, color=colors[mode],
                           label=f"{mode}: {metric.replace('_', ' ')}")
                ax.annotate(mode, (s[x_key], s[metric] * 100), textcoords="offset points",
                            xytext=(5, 4), fontsize=8)
        ax.set_xlabel(x_label)
        ax.set_ylabel("% (circle: exact match, square: compile-pass, triangle: accepted share)")
        ax.grid(True, alpha=0.3)
    axes[0].legend(fontsize=7, loc="best")
    fig.suptitle(f"nospin eval: quality per mode ({group.replace('_', ' ')}, "
                 f"n={summary.get('nospin', next(iter(summary.values())))[group]['n']})")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return ""

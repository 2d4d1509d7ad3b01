"""History points (``app/evaluation/history.py``): real commits of a real git repository,
pinned and fetched by ``bench.history_corpus``, replayed through the daemon's document and
project API (``replay.EditorReplay``), and cut as the sampler cuts.

The repository is made here with ``git`` (three commits on a small Python package); the
shipped corpora (``bench/corpora/history``) are checked the same way.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from app.config import Config
from app.errors import InputError
from app.evaluation.diffs import apply_file, edit_between, parse_diff
from app.evaluation.history import (
    history_corpora,
    load_corpus,
    ordered_hunks,
    parent_states,
    sample_history_points,
)
from app.evaluation.sampling import SamplingPlan
from bench import history_corpus
from daemon.documents import apply_edits

SHIPPED = Path(__file__).resolve().parents[2] / "bench" / "corpora" / "history"

SHAPES_V0 = '''"""Shapes and their measures."""

import math


def circle_area(radius: float) -> float:
    return math.pi * radius ** 2


def circle_perimeter(radius: float) -> float:
    return 2 * math.pi * radius


def rectangle_area(width: float, height: float) -> float:
    return width * height


def rectangle_perimeter(width: float, height: float) -> float:
    return 2 * (width + height)


def square_area(side: float) -> float:
    return side * side


def total_area(areas: list[float]) -> float:
    total = 0.0
    for area in areas:
        total += area
    return total
'''

REPORT_V0 = '''"""A report of shapes."""

from pkg.shapes import circle_area, rectangle_area


def describe(radius: float, width: float, height: float) -> str:
    circle = circle_area(radius)
    rect = rectangle_area(width, height)
    return f"circle {circle:.2f}, rectangle {rect:.2f}"
'''


def _edit(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True)
    return done.stdout.strip()


def _commit(repo: Path, files: dict[str, str], message: str) -> str:
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", message)
    return _git(repo, "rev-parse", "HEAD")


def make_repo(repo: Path) -> list[str]:
    """Four commits: the package, a change in three hunks (two files), a one-hunk change (not
    pinned: it reaches the next commit's parent as an advance diff), a change in two hunks."""
    repo.mkdir()
    _git(repo, "init", "-q")
    shas = [_commit(repo, {"pkg/shapes.py": SHAPES_V0, "pkg/report.py": REPORT_V0,
                           "LICENSE": "MIT\n"}, "shapes")]
    shapes = _edit(SHAPES_V0, "    return 2 * math.pi * radius\n",
                   "    return 2 * math.pi * radius\n\n\ndef circle_diameter(radius: float) "
                   "-> float:\n    diameter = radius * 2\n    return diameter\n")
    shapes = _edit(shapes, "    return side * side\n",
                   "    return side * side\n\n\ndef square_perimeter(side: float) -> float:\n"
                   "    perimeter = side * 4\n    return perimeter\n")
    report = _edit(REPORT_V0, "import circle_area, rectangle_area",
                   "import circle_area, circle_diameter, rectangle_area")
    shas.append(_commit(repo, {"pkg/shapes.py": shapes, "pkg/report.py": report},
                        "diameter and square perimeter"))
    shapes = _edit(shapes, '"""Shapes and their measures."""', '"""Shapes, measured."""')
    shas.append(_commit(repo, {"pkg/shapes.py": shapes}, "docstring"))
    shapes = _edit(shapes, "    return width * height\n",
                   "    surface = width * height\n    return surface\n")
    shapes = _edit(shapes, "    for area in areas:\n        total += area\n",
                   "    for area in areas:\n        if area < 0:\n"
                   "            raise ValueError(\"negative area\")\n        total += area\n")
    shas.append(_commit(repo, {"pkg/shapes.py": shapes}, "surface; negative areas"))
    return shas


@pytest.fixture(scope="module")
def pinned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[str]]:
    """(git dir, folder with ``demo.json`` and the fetched ``demo/``, the commits)."""
    tmp = tmp_path_factory.mktemp("history")
    repo = tmp / "repo"
    shas = make_repo(repo)
    out = tmp / "corpora"
    out.mkdir()
    git_dir = repo / ".git"
    assert history_corpus.main([
        "pin", "--git", str(repo), "--repo", "https://example.org/demo", "--name", "demo",
        "--range", f"{shas[0]}..{shas[-1]}", "--path", "pkg",
        "--manifest", str(out / "demo.json")]) == 0
    assert history_corpus.main(["fetch", str(out / "demo.json"), "--git", str(git_dir)]) == 0
    return git_dir, out, shas


def _copy(pinned: tuple[Path, Path, list[str]], tmp_path: Path) -> Path:
    """A copy of the fetched corpus folder (with its pin) to spoil."""
    target = tmp_path / "corpora"
    shutil.copytree(pinned[1], target)
    return target


def _show(git_dir: Path, rev: str, rel: str) -> str:
    return subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{rev}:{rel}"],
                          check=True, capture_output=True, text=True).stdout


def test_pin_takes_the_commits_of_two_hunks_or_more(
        pinned: tuple[Path, Path, list[str]]) -> None:
    git_dir, out, shas = pinned
    manifest = json.loads((out / "demo.json").read_text(encoding="utf-8"))
    assert [c["sha"] for c in manifest["commits"]] == [shas[1], shas[3]]  # not the one-hunk
    assert manifest["base"] == shas[0] and manifest["digest"]
    corpus = load_corpus(out / "demo")
    assert corpus.commits[1].advance  # the skipped commit reaches the next parent as a diff
    assert (out / "demo.tar.xz").is_file() and (out / "demo" / "LICENSE").is_file()
    for commit, files, diff in parent_states(corpus):  # the checkouts are the real parents
        for rel, text in files.items():
            assert text == _show(git_dir, commit.parent, rel)
        for file in diff:  # and the diffs bring them to the commit
            assert apply_file(files[file.path], file) == _show(git_dir, commit.sha, file.path)


def test_a_point_is_a_line_of_a_later_hunk_after_the_earlier_hunks_were_typed(
        pinned: tuple[Path, Path, list[str]], tmp_path: Path) -> None:
    git_dir, out, _ = pinned
    plan = SamplingPlan(num_samples=3, seed=0, block_share=0.0)
    points, report = sample_history_points([out / "demo"], plan, Config(), tmp_path / "work")
    assert len(points) == 3 and report.shortfall == 0 and report.num_commits == 2
    corpus = load_corpus(out / "demo")
    states = {c.sha: (files, diff) for c, files, diff in parent_states(corpus)}
    for rp in points:
        p = rp.point
        files, diff = states[rp.commit]
        hunks = ordered_hunks(diff)
        target = hunks[rp.hunk]
        assert rp.hunk >= 1 and target.path == p.path and p.kind == "line"
        # the expected text: the commit's own line, from the cursor to the line's end
        final = _show(git_dir, rp.commit, p.path)
        assert p.hidden and final.startswith(p.before + p.hidden)
        assert (p.before + p.hidden).split("\n")[-1].strip() in {
            line.strip() for line in target.new[slice(*target.added)]}
        # the checkout on disk is the parent; the editor's buffer is the point's buffer
        assert (rp.root / p.path).read_text(encoding="utf-8") == files[p.path]
        assert rp.replay.text(p.path) == p.buffer
        # the earlier hunks went through the editor: open, in the edit history, recent
        earlier = {h.path for h in hunks[: rp.hunk]}
        assert all(rp.replay.is_open(path) for path in earlier)
        edited = {e.path for e in rp.replay.history.entries() if e.source == "editor"}
        assert edited == earlier | {p.path}
        assert set(rp.session.recent_files) == earlier - {p.path}
        assert len(rp.session.recent_edits) == rp.hunk + 1  # each hunk, then the typing
        if "pkg/report.py" in earlier:  # the import hunk: the first of the first commit
            assert rp.session.recent_files == ("pkg/report.py",)
            assert "circle_diameter" in dict(rp.session.open_files)["pkg/report.py"]
    again, _ = sample_history_points([out / "demo"], plan, Config(), tmp_path / "again")
    assert [r.point for r in again] == [r.point for r in points]  # seeded


def test_the_replay_assembles_with_the_edit_history_and_recent_files(
        pinned: tuple[Path, Path, list[str]], tmp_path: Path) -> None:
    from daemon.context import ContextRequest

    _, out, _ = pinned
    plan = SamplingPlan(num_samples=3, seed=0, block_share=0.0)
    points, _ = sample_history_points([out / "demo"], plan, Config(), tmp_path / "work")
    rp = next(r for r in points if "pkg/report.py" in r.session.recent_files)
    p = rp.point
    ctx = rp.replay.assemble(
        ContextRequest(path=p.path, text=p.buffer, line=p.line, column=p.column,
                       language=p.language, budget_tokens=896), Config().context, None)
    prompt = ctx.to_prompt_parts()
    text = prompt.prefix + "".join(s.text for s in prompt.snippets)
    assert "pkg/report.py" in text  # the recently edited file reached the prompt


def test_a_corpus_that_differs_from_its_pin_is_refused(
        pinned: tuple[Path, Path, list[str]], tmp_path: Path) -> None:
    folder = _copy(pinned, tmp_path)
    pin = folder / "demo.json"
    manifest = json.loads(pin.read_text(encoding="utf-8"))
    manifest["commits"] = manifest["commits"][:1]
    pin.write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(InputError, match=r"does not hold the commits demo\.json pins"):
        sample_history_points(history_corpora(folder), SamplingPlan(num_samples=2),
                              Config(), tmp_path / "work")


def test_fetch_writes_what_was_pinned_or_fails(
        pinned: tuple[Path, Path, list[str]], tmp_path: Path) -> None:
    git_dir, out, _ = pinned
    manifest = json.loads((out / "demo.json").read_text(encoding="utf-8"))
    again = history_corpus.fetch(out / "demo.json", tmp_path / "demo", git_dir)
    assert again == manifest["digest"]
    assert load_corpus(tmp_path / "demo").commits == load_corpus(out / "demo").commits
    spoilt = tmp_path / "spoilt.json"
    spoilt.write_text(json.dumps({**manifest, "digest": "0" * 64}), encoding="utf-8")
    with pytest.raises(InputError, match="differs from the pinned digest"):
        history_corpus.fetch(spoilt, tmp_path / "spoilt", git_dir)
    unknown = {**manifest, "commits": [{**manifest["commits"][0], "sha": "f" * 40}]}
    spoilt.write_text(json.dumps(unknown), encoding="utf-8")
    with pytest.raises(InputError, match="git diff"):
        history_corpus.fetch(spoilt, tmp_path / "unknown", git_dir)


def test_missing_or_bad_data_is_a_clear_error(
        pinned: tuple[Path, Path, list[str]], tmp_path: Path) -> None:
    folder = _copy(pinned, tmp_path)
    corpus = folder / "demo"
    plan = SamplingPlan(num_samples=2)

    def sample() -> None:
        sample_history_points([corpus], plan, Config(), tmp_path / "work")

    diff = corpus / "diffs" / "0001.diff"
    good = diff.read_text(encoding="utf-8")
    spoilt = good.replace(' """A report of shapes."""', ' """A report."""')
    diff.write_text(spoilt, encoding="utf-8")
    with pytest.raises(InputError, match=r"commit [0-9a-f]{10}: .*does not apply at line"):
        sample()
    diff.write_text(good.replace("@@ -", "@@ x", 1), encoding="utf-8")
    with pytest.raises(InputError, match="malformed hunk header"):
        sample()
    diff.unlink()
    with pytest.raises(InputError, match=r"cannot read diffs/0001\.diff"):
        sample()
    diff.write_text(good, encoding="utf-8")
    shutil.rmtree(corpus / "base")
    with pytest.raises(InputError, match="no base/ folder"):
        sample()
    (corpus / "history.json").write_text("{}", encoding="utf-8")
    with pytest.raises(InputError, match="not a history corpus"):
        sample()
    (corpus / "history.json").unlink()
    assert history_corpora(tmp_path / "nothing") == [] and history_corpora(corpus) == []


def test_edit_between_is_one_range_edit() -> None:
    old, new = "a\nbc\nd\n", "a\nbXYc\nZ\nd\n"
    edit = edit_between(old, new)
    assert (edit.start_line, edit.start_col) == (1, 1)
    assert apply_edits(old, [edit]) == new
    assert parse_diff("not a diff") == []


def test_the_shipped_corpora_are_pinned_and_give_points_in_four_languages(
        tmp_path: Path) -> None:
    folders = history_corpora(SHIPPED)
    assert [f.name for f in folders] == ["anyhow", "ky", "pflag", "tenacity"]
    plan = SamplingPlan(num_samples=12, seed=0)
    points, report = sample_history_points(folders, plan, Config(), tmp_path / "work")
    assert report.shortfall == 0 and len(points) == 12
    assert {p.point.language for p in points} == {"rust", "typescript", "go", "python"}
    for corpus_folder in folders:
        corpus = load_corpus(corpus_folder)
        states = {c.sha: (files, diff) for c, files, diff in parent_states(corpus)}
        for rp in (r for r in points if r.point.id.startswith(corpus.name + "@")):
            files, diff = states[rp.commit]
            file = next(f for f in diff if f.path == rp.point.path)
            final = apply_file(files.get(file.path, ""), file)
            assert final is not None
            assert final.startswith(rp.point.before + rp.point.hidden), rp.point.id


@pytest.mark.slow
def test_the_shipped_corpora_hold_300_points(tmp_path: Path) -> None:
    points, report = sample_history_points(
        history_corpora(SHIPPED), SamplingPlan(num_samples=320, seed=0), Config(),
        tmp_path / "work")
    assert len(points) == 320 and report.shortfall == 0
    assert min(report.corpora.values()) == 80


@pytest.mark.slow
def test_eval_on_history_points_with_the_embedded_model(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import main
    from engine.models import embedded_model_path

    try:
        embedded_model_path()
    except Exception as exc:  # the model packages are not installed here
        pytest.skip(str(exc))
    monkeypatch.setenv("NOSPIN_HOME", str(tmp_path / "home"))
    config = tmp_path / "config.toml"
    config.write_text("[engine]\nn_ctx = 2048\nspeculation = false\n\n"
                      "[context]\nbudget_tokens = 256\n", encoding="utf-8")
    out = tmp_path / "result.json"
    assert main([
        "eval", "--corpus", str(SHIPPED), "--samples", "4", "--modes", "nospin,naive_tail",
        "--config", str(config), "--line-tokens", "16", "--block-tokens", "40",
        "--no-snapshot", "--out", str(out),
    ]) == 0
    capsys.readouterr()
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["num_points"] == 4  # one point of each language
    assert result["corpus"]["history"]["corpora"] == {"anyhow": 1, "ky": 1, "pflag": 1,
                                                      "tenacity": 1}
    assert all("@" in p["id"] for p in result["points"])
    for mode in ("nospin", "naive_tail"):
        s = result["summary"][mode]["all"]
        assert s["n"] == 4 and s["errors"] == 0 and s["prompt_tokens_mean"] > 0
    nospin = [r for r in result["results"] if r["mode"] == "nospin"]
    assert all(0 < r["num_prompt_tokens"] <= 256 + 32 for r in nospin)


def test_archived_corpora_unpack_on_first_use_and_refuse_points_from(tmp_path: Path) -> None:
    from app.evaluation.runner import EvalOptions, run_eval

    for name in ("ky.json", "ky.tar.xz"):  # as a fresh clone has them
        shutil.copy(SHIPPED / name, tmp_path / name)
    assert history_corpora(tmp_path) == [tmp_path / "ky"]
    assert load_corpus(tmp_path / "ky").repo == "https://github.com/sindresorhus/ky"
    with pytest.raises(InputError, match="--points-from takes points cut from files"):
        run_eval(EvalOptions(corpus=tmp_path), Config(), points_from={"points": []})

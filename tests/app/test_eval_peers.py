"""The peer eval modes keep to their documented rules (docs/quality.md, "Peer modes"): each
test fails when a mode stops matching the rule it names. Real files (the interpreter's own
standard library) and the embedded model's real tokenizer; no model run (the smoke eval in
test_eval_smoke.py runs the modes through the engine)."""

from __future__ import annotations

import random
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app.config import Config, ContextConfig
from app.evaluation import peer_continue as cont
from app.evaluation import peer_llamavim as vim
from app.evaluation import peer_tabby as tabby
from app.evaluation.corpus import build_index
from app.evaluation.peer_common import PeerInput
from app.evaluation.peer_modes import build_peer_prompt
from app.evaluation.sampling import EvalPoint
from daemon.context import summarize_stable
from daemon.index import ProjectIndex
from engine.base import TokenCounter
from engine.profiles import QWEN25_CODER

STDLIB = Path(sysconfig.get_paths()["stdlib"])


@pytest.fixture(scope="module")
def tokenizer() -> Iterator[TokenCounter]:
    from app.errors import ModelNotInstalled
    from engine.factory import load_tokenizer

    try:
        counter = load_tokenizer(Config())
    except ModelNotInstalled as exc:
        pytest.skip(str(exc))
    assert counter is not None
    yield counter


def _index(folder: str) -> ProjectIndex:
    index, _ = build_index(STDLIB / folder, Config())
    return index


@pytest.fixture(scope="module")
def asyncio_index() -> ProjectIndex:
    return _index("asyncio")


@pytest.fixture(scope="module")
def json_index() -> ProjectIndex:
    return _index("json")


def point_at(root: Path, path: str, line: int, text: str) -> EvalPoint:
    """A line point in ``path`` on the 0-based ``line``, the cursor just before ``text``."""
    lines = (root / path).read_text(encoding="utf-8").splitlines(keepends=True)
    content = lines[line].rstrip("\n")
    column = content.index(text)
    return EvalPoint(
        id=f"{path}:{line + 1}:{column + 1}", path=path, language="python", kind="line",
        line=line, column=column, before="".join(lines[:line]) + content[:column],
        hidden=content[column:], after="\n" + "".join(lines[line + 1 :]), num_hidden_lines=1,
    )


def peer_input(index: ProjectIndex, point: EvalPoint, counter: TokenCounter, budget: int,
               session: Session | None = None) -> PeerInput:
    summary = summarize_stable(point.path, point.buffer, point.line, point.language)
    return PeerInput(point=point, index=index, summary=summary, counter=counter,
                     budget=budget, session=session)


@dataclass(frozen=True)
class Edit:
    path: str
    start_line: int
    end_line: int
    text: str


@dataclass(frozen=True)
class Session:
    open_files: tuple[tuple[str, str], ...] = ()
    recent_files: tuple[str, ...] = ()
    recent_edits: tuple[Edit, ...] = field(default_factory=tuple)


def _line_of(root: Path, path: str, text: str) -> int:
    lines = (root / path).read_text(encoding="utf-8").split("\n")
    return next(i for i, ln in enumerate(lines) if text in ln)


# --- llamavim -----------------------------------------------------------------------------------


def test_llamavim_local_context_is_256_lines_above_and_64_below(
    asyncio_index: ProjectIndex, tokenizer: TokenCounter,
) -> None:
    point = in_run_until_complete(asyncio_index)
    prefix, middle, suffix = vim.local_context(peer_input(asyncio_index, point, tokenizer, 896))
    assert prefix.count("\n") == vim.N_PREFIX == 256
    assert prefix.endswith("\n") and middle == point.before.split("\n")[-1]
    assert suffix.count("\n") == vim.N_SUFFIX + 1  # the cursor line's rest, then 64 lines
    # with room for all of it the server keeps it whole: the prompt's prefix is those lines
    parts, _ = vim.build_llamavim(peer_input(asyncio_index, point, tokenizer, 1_000_000))
    assert parts.prefix == prefix + middle and parts.suffix == suffix


def point_below(index: ProjectIndex, path: str, marker: str, offset: int) -> EvalPoint:
    """A point ``offset`` lines below the first line of ``path`` holding ``marker``, the
    cursor in the middle of the line's text."""
    line = _line_of(index.root, path, marker) + offset
    return point_at(index.root, path, line, point_text(index.root, path, line))


def in_run_until_complete(index: ProjectIndex) -> EvalPoint:
    """A point 8 lines into asyncio's ``run_until_complete`` (line 625 of 1,947)."""
    return point_below(index, "base_events.py", "def run_until_complete(self, future):", 8)


def point_text(root: Path, path: str, line: int) -> str:
    content = (root / path).read_text(encoding="utf-8").split("\n")[line]
    stripped = content.lstrip()
    return stripped[len(stripped) // 2 :] or stripped


def test_llamavim_cuts_as_the_server_does_at_the_budget(
    asyncio_index: ProjectIndex, tokenizer: TokenCounter,
) -> None:
    point = in_run_until_complete(asyncio_index)
    budget = 896
    parts, n = vim.build_llamavim(peer_input(asyncio_index, point, tokenizer, budget))
    n_batch = budget // 2
    middle = point.before.split("\n")[-1]
    local_prefix = parts.prefix[: len(parts.prefix) - len(middle)]
    assert tokenizer.count(local_prefix) <= 3 * (n_batch // 4)
    assert tokenizer.count(local_prefix) > 3 * (n_batch // 4) - 20  # filled, not under-cut
    assert tokenizer.count(parts.suffix) <= n_batch // 4 - 2 - tokenizer.count(middle)
    assert parts.snippets and 0 < n <= budget
    # the engine's count of the rendered prompt is what the mode reports, within a few tokens
    pieces = QWEN25_CODER.render(parts)
    engine_count = sum(1 if p.is_special else tokenizer.count(p.text) for p in pieces)
    assert abs(engine_count - n) <= 8
    # rendered as llama.cpp's /infill renders input_extra for Qwen: repo-level, before the FIM
    texts = [p.text for p in pieces]
    assert texts[0] == "<|repo_name|>" and "<|fim_prefix|>" in texts
    before_fim = texts[: texts.index("<|fim_prefix|>")]
    assert before_fim.count("<|file_sep|>") == len(parts.snippets) + 1
    assert before_fim[-1] == vim.CURRENT_FILE + "\n"  # the server's fixed current-file name


def test_llamavim_chunks_are_half_the_chunk_size_plus_one_line() -> None:
    rng = random.Random(0)
    ring = vim.Ring()
    lines = [f"value_{i} = compute({i})" for i in range(200)]
    vim.pick_chunk(ring, lines, "a.py", rng, do_evict=True)
    assert len(ring.queued[0].data) == vim.RING_CHUNK_SIZE // 2 + 1 == 33  # Vim slices: end kept
    short = [f"short_{i} = {i}" for i in range(vim.RING_CHUNK_SIZE - 2)]
    vim.pick_chunk(ring, short, "b.py", rng, do_evict=True)
    assert ring.queued[1].data == tuple(short)  # under the chunk size: taken whole
    vim.pick_chunk(ring, ["x = 1", "y = 2"], "c.py", rng, do_evict=True)
    assert len(ring.queued) == 2  # under 3 lines: not picked
    assert ring.queued[1].text == "\n".join(short) + "\n"


def test_llamavim_ring_holds_16_and_drops_the_oldest() -> None:
    rng = random.Random(0)
    ring = vim.Ring()
    for k in range(20):
        vim.pick_chunk(ring, [f"def f{k}_{i}(a{k}, b{i}): return a{k} * b{i}" for i in range(5)],
                       f"m{k}.py", rng, do_evict=True)
        vim.ring_update(ring)
    assert len(ring.chunks) == vim.RING_N_CHUNKS == 16
    assert [c.filename for c in ring.chunks] == [f"m{k}.py" for k in range(4, 20)]


def test_llamavim_dedup_and_similarity_eviction() -> None:
    rng = random.Random(0)
    text = [f"total_{i} = price_{i} * quantity_{i}" for i in range(10)]
    other = [f"print(message_{i}, end='')" for i in range(10)]
    ring = vim.Ring()
    vim.pick_chunk(ring, other, "o.py", rng, do_evict=True)
    vim.pick_chunk(ring, text, "a.py", rng, do_evict=True)
    vim.pick_chunk(ring, text, "a.py", rng, do_evict=True)  # equal: not queued again
    assert [c.filename for c in ring.queued] == ["o.py", "a.py"]
    near = [*text[:9], "total_9 = price_9 * quantity_9 + 0"]  # similarity over 0.9
    assert vim.chunk_sim(ring.queued[1].data, tuple(near)) > vim.EVICT_SIMILAR
    vim.pick_chunk(ring, near, "b.py", rng, do_evict=False)  # refused: a similar one is held
    assert [c.filename for c in ring.queued] == ["o.py", "a.py"]
    vim.pick_chunk(ring, near, "b.py", rng, do_evict=True)  # evicts the similar one
    assert [c.filename for c in ring.queued] == ["o.py", "b.py"] and ring.num_evicted == 1
    # the plugin's scan stops before index 0: a similar chunk there is never evicted
    first = vim.Ring()
    vim.pick_chunk(first, text, "a.py", rng, do_evict=True)
    vim.pick_chunk(first, near, "b.py", rng, do_evict=True)
    assert [c.filename for c in first.queued] == ["a.py", "b.py"]
    assert vim.chunk_sim(("a b", "c"), ("a", "b c")) == 1.0
    assert vim.chunk_sim(("a b",), ("c d",)) == 0.0


def test_llamavim_ring_takes_the_session_open_files(
    asyncio_index: ProjectIndex, tokenizer: TokenCounter,
) -> None:
    root = asyncio_index.root
    point = point_below(asyncio_index, "runners.py", "def run(self, coro, *, context=None):", 3)
    opened = (root / "locks.py").read_text(encoding="utf-8")
    session = Session(open_files=(("locks.py", opened),))
    peer = peer_input(asyncio_index, point, tokenizer, 4096, session)
    ring = vim.fill_ring(peer, random.Random(0))
    entered = [c for c in ring.chunks if c.filename == "locks.py"]
    assert entered and entered[0].data == tuple(opened.split("\n")[:33])  # BufEnter at line 1
    parts, _ = vim.build_llamavim(peer)
    assert "locks.py" in [s.path for s in parts.snippets]


# --- continue -----------------------------------------------------------------------------------


def test_continue_prefix_and_suffix_shares_of_the_budget(
    asyncio_index: ProjectIndex, tokenizer: TokenCounter,
) -> None:
    point = in_run_until_complete(asyncio_index)
    for budget in (256, 896):
        parts, n = cont.build_continue(peer_input(asyncio_index, point, tokenizer, budget))
        assert point.before.endswith(parts.prefix) and point.after.startswith(parts.suffix)
        # Continue's count: each line's tokens plus one per joining newline
        def lines_count(text: str) -> int:
            return sum(tokenizer.count(x) for x in text.split("\n")) + text.count("\n")
        assert lines_count(parts.prefix) <= 0.3 * budget
        one_more = point.before[: len(point.before) - len(parts.prefix) - 1].rsplit("\n", 1)[-1]
        assert lines_count(one_more + "\n" + parts.prefix) > 0.3 * budget  # whole lines, filled
        assert lines_count(parts.suffix) <= 0.2 * budget
        assert n <= budget


def test_continue_imported_definitions_as_repo_level_snippets(
    json_index: ProjectIndex, tokenizer: TokenCounter,
) -> None:
    root = json_index.root
    line = _line_of(root, "__init__.py", "cls = JSONDecoder")
    point = point_at(root, "__init__.py", line, "JSONDecoder")
    assert "JSONDecoder" not in point.before.split("\n")[-1]
    peer = peer_input(json_index, point, tokenizer, 4096)
    found = cont.import_definitions(peer)
    assert [s.filepath for s in found] == []  # the cursor hides the name: nothing to look up
    point = point_at(root, "__init__.py", line + 1, point_text(root, "__init__.py", line + 1))
    peer = peer_input(json_index, point, tokenizer, 4096)
    found = cont.import_definitions(peer)
    assert [s.filepath for s in found] == ["decoder.py"]
    assert found[0].content.startswith("class JSONDecoder(object):")
    parts, n = cont.build_continue(peer)
    assert [s.path for s in parts.snippets] == ["decoder.py"] and n <= 4096
    pieces = [p.text for p in QWEN25_CODER.render(parts)]
    assert pieces[:3] == ["<|repo_name|>", "project\n", "<|file_sep|>"]
    assert pieces[3].startswith("decoder.py\nclass JSONDecoder(object):")
    # at the normal budget the class does not fit: skipped, the prompt within the budget
    parts, n = cont.build_continue(peer_input(json_index, point, tokenizer, 896))
    assert parts.snippets == () and n <= 896


def test_continue_root_path_takes_the_superclass_definition(
    asyncio_index: ProjectIndex, tokenizer: TokenCounter,
) -> None:
    point = point_below(asyncio_index, "transports.py", "class _FlowControlMixin(Transport):", 25)
    found = cont.root_path_definitions(peer_input(asyncio_index, point, tokenizer, 4096))
    assert [s.content.split("\n")[0] for s in found] == [
        "class Transport(ReadTransport, WriteTransport):"]


def test_continue_snippet_budget_charges_ten_tokens_each(
    json_index: ProjectIndex, tokenizer: TokenCounter,
) -> None:
    peer = after_json_decoder(json_index, tokenizer, 4096)
    parts, n = cont.build_continue(peer)
    content = sum(tokenizer.count(s.text) for s in parts.snippets)
    caret = tokenizer.count(parts.prefix + parts.suffix)
    assert n == caret + content + cont.TOKEN_BUFFER * len(parts.snippets)
    # the room a snippet takes is its tokens plus the buffer: one token less and it is skipped
    room = content + cont.TOKEN_BUFFER
    caret_window = parts.prefix + parts.suffix
    assert len(cont.select_snippets(peer, caret_window, room)) == 1
    assert cont.select_snippets(peer, caret_window, room - 1) == []


def after_json_decoder(index: ProjectIndex, counter: TokenCounter, budget: int) -> PeerInput:
    """The point on the line after ``cls = JSONDecoder`` in json/__init__.py."""
    return peer_input(index, point_below(index, "__init__.py", "cls = JSONDecoder", 1),
                      counter, budget)


# --- tabby --------------------------------------------------------------------------------------


def test_tabby_segments_are_20_lines_each_way(
    asyncio_index: ProjectIndex, tokenizer: TokenCounter,
) -> None:
    point = in_run_until_complete(asyncio_index)
    prefix, suffix = tabby.segments(peer_input(asyncio_index, point, tokenizer, 896))
    assert prefix.count("\n") == tabby.MAX_PREFIX_LINES - 1 and point.before.endswith(prefix)
    assert suffix.count("\n") == tabby.MAX_SUFFIX_LINES - 1 and point.after.startswith(suffix)


def test_tabby_renders_snippets_as_comments_above_the_prefix() -> None:
    snippets = [tabby.Snippet("a/x.py", "def f():\n\n    return 1"), tabby.Snippet("b.py", "Y = 2")]
    assert tabby.render_prefix("python", "z = ", snippets) == (
        "# Path: a/x.py\n# def f():\n#\n#     return 1\n#\n# Path: b.py\n# Y = 2\nz = ")
    assert tabby.render_prefix("go", "z", snippets[1:]) == "// Path: b.py\n// Y = 2\nz"
    assert tabby.render_prefix("python", "z", []) == "z"


def test_tabby_declarations_and_the_768_character_cap(
    json_index: ProjectIndex, tokenizer: TokenCounter,
) -> None:
    peer = after_json_decoder(json_index, tokenizer, 896)
    prefix, _ = tabby.segments(peer)
    found = tabby.declarations(peer, prefix)
    assert found[0].filepath == "decoder.py" and found[0].body.startswith("class JSONDecoder")
    assert all(len(s.body) <= tabby.DECLARATION_MAX_CHARS for s in found)
    snippets = tabby.collect(peer, prefix)
    assert sum(len(s.body) for s in snippets) <= tabby.SNIPPETS_MAX_CHARS
    parts, n = tabby.build_tabby(peer)
    assert parts.snippets == () and parts.prefix.startswith("# Path: decoder.py\n# class JSONDec")
    assert parts.prefix.endswith(prefix) and n <= 896


def test_tabby_bm25_picks_the_chunk_with_the_rare_names(
    asyncio_index: ProjectIndex,
) -> None:
    ci = tabby.code_index(asyncio_index)
    assert all(len(b) <= tabby.CHUNK_SIZE for b in ci.bodies)
    query = "transport = _SelectorSocketTransport(self, sock, protocol, waiter, extra, server)"
    hits = ci.search(query, "python", exclude="")
    assert hits and hits == sorted(hits, key=lambda h: (-h[0], h[1]))
    assert "_SelectorSocketTransport" in ci.bodies[hits[0][1]]
    assert ci.paths[hits[0][1]] == "selector_events.py"
    assert all(ci.paths[d] != "selector_events.py"
               for _, d in ci.search(query, "python", exclude="selector_events.py"))
    # a repeated query token weighs again (one term query per token)
    once = dict((d, s) for s, d in ci.search("_SelectorSocketTransport", "python", ""))
    twice = dict((d, s) for s, d in ci.search("_SelectorSocketTransport " * 2, "python", ""))
    assert all(abs(twice[d] - 2 * once[d]) < 1e-6 for d in once)


def test_tabby_code_search_keeps_two_chunks_a_file_over_the_threshold(
    asyncio_index: ProjectIndex, tokenizer: TokenCounter,
) -> None:
    root = asyncio_index.root
    line = _line_of(root, "selector_events.py", "def _make_socket_transport(") + 3
    point = point_at(root, "selector_events.py", line,
                     point_text(root, "selector_events.py", line))
    peer = peer_input(asyncio_index, point, tokenizer, 896)
    prefix, _ = tabby.segments(peer)
    found = tabby.code_search(peer, prefix, 10_000)
    paths = [s.filepath for s in found]
    assert found and "selector_events.py" not in paths
    assert all(paths.count(p) <= tabby.HITS_PER_FILE for p in paths)
    small = tabby.code_search(peer, prefix, 600)
    assert sum(len(s.body) for s in small) <= 600 and small == found[: len(small)]


def test_peer_modes_stay_within_the_budget(
    asyncio_index: ProjectIndex, tokenizer: TokenCounter,
) -> None:
    point = in_run_until_complete(asyncio_index)
    for budget in (256, 896):
        config = ContextConfig(budget_tokens=budget)
        for mode in ("llamavim", "continue", "tabby"):
            parts, n = build_peer_prompt(mode, point, index=asyncio_index, config=config,
                                         counter=tokenizer)
            shown = "".join(s.text for s in parts.snippets) + parts.prefix + parts.suffix
            assert 0 < n <= budget, (mode, budget)
            if point.hidden.strip() not in point.buffer:  # never from the file on disk
                assert point.hidden.strip() not in shown, mode

"""Model profiles: rendering tables, profile choice, and special tokens only from markers."""

from __future__ import annotations

from typing import Any

import pytest

from app.errors import ConfigError
from engine.base import ContextSnippet, PromptParts
from engine.profiles import (
    CODELLAMA,
    DEEPSEEK_CODER,
    PLAIN,
    QWEN25_CODER,
    STARCODER2,
    Piece,
    select_profile,
)
from engine.tokenizer import LlamaVocab, Tokenizer

PARTS = PromptParts(path="pkg/a.py", language="python", snippets=(), prefix="x = ", suffix="\n")
SNIPPETS = (
    ContextSnippet(path="pkg/b.py", text="def g(): ..."),
    ContextSnippet(path="", text="edited f"),
)


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        (QWEN25_CODER, "<|fim_prefix|>x = <|fim_suffix|>\n<|fim_middle|>"),
        (STARCODER2, "<fim_prefix>x = <fim_suffix>\n<fim_middle>"),
        (DEEPSEEK_CODER, "<｜fim▁begin｜>x = <｜fim▁hole｜>\n<｜fim▁end｜>"),
        (CODELLAMA, "<PRE> x = <SUF>\n <MID>"),
        (PLAIN, "x = "),
    ],
)
def test_render_text(profile: Any, expected: str) -> None:
    assert profile.render_text(PARTS) == expected


def test_qwen_repo_level_form() -> None:
    parts = PromptParts("pkg/a.py", "python", SNIPPETS, "x = ", "\n")
    pieces = QWEN25_CODER.render(parts)
    assert pieces == (
        Piece("<|repo_name|>", True),
        Piece("project\n"),
        Piece("<|file_sep|>", True),
        Piece("pkg/b.py\ndef g(): ...\n"),
        Piece("<|file_sep|>", True),
        Piece("pkg/a.py\n# notes\n# edited f\n"),
        Piece("<|fim_prefix|>", True),
        Piece("x = "),
        Piece("<|fim_suffix|>", True),
        Piece("\n"),
        Piece("<|fim_middle|>", True),
    )


def test_snippets_as_comments_without_repo_format() -> None:
    parts = PromptParts("a.ts", "typescript", SNIPPETS[:1], "let x = ", "")
    assert DEEPSEEK_CODER.render_text(parts).startswith(
        "<｜fim▁begin｜>// pkg/b.py\n// def g(): ...\nlet x = "
    )


def test_render_text_strips_markers_from_source() -> None:
    parts = PromptParts("a.py", "python", (), "s = '<|fim_middle|>'", "<|endoftext|>")
    assert QWEN25_CODER.render_text(parts) == "<|fim_prefix|>s = ''<|fim_suffix|><|fim_middle|>"


def test_clean_output_cuts_at_marker() -> None:
    assert QWEN25_CODER.clean_output("a + b<|file_sep|>junk") == "a + b"
    assert QWEN25_CODER.clean_output("a + b\n```\nThis code") == "a + b\n"


@pytest.mark.parametrize(
    ("configured", "name", "metadata", "expected"),
    [
        ("starcoder2", "qwen2.5-coder.gguf", {}, STARCODER2),
        ("", "qwen2.5-coder-1.5b-q4_k_m.gguf", {}, QWEN25_CODER),
        ("", "model.gguf", {"general.basename": "Qwen2.5-Coder"}, QWEN25_CODER),
        ("", "starcoder2-3b-Q4.gguf", {}, STARCODER2),
        ("", "deepseek-coder-1.3b-base.Q4_K_M.gguf", {}, DEEPSEEK_CODER),
        ("", "codellama-7b.Q4_K_M.gguf", {}, CODELLAMA),
        ("", "mystery.gguf", {"general.name": "Llama 3"}, PLAIN),
    ],
)
def test_select_profile(
    configured: str, name: str, metadata: dict[str, str], expected: Any
) -> None:
    assert select_profile(configured, name, metadata) is expected


def test_select_profile_unknown_name() -> None:
    with pytest.raises(ConfigError, match="unknown"):
        select_profile("gpt-9")


def test_markers_in_source_never_become_special_tokens(qwen_backend: Any) -> None:
    """Source text containing marker strings tokenizes to plain tokens; only profile markers are
    special (checked on token ids with the real Qwen2.5-Coder tokenizer, both backends)."""
    tok = Tokenizer(qwen_backend, QWEN25_CODER)
    fim_ids = {tok.special_ids[m] for m in ("<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>")}
    assert len(fim_ids) == 3
    nasty = "s = '<|fim_prefix|><|fim_middle|><|endoftext|><|file_sep|>'\n"
    parts = PromptParts("a.py", "python", (ContextSnippet("b.py", nasty),), nasty, nasty)
    ids = tok.tokenize_pieces(QWEN25_CODER.render(parts), add_bos=True)
    specials = [i for i in ids if i >= 151643]  # Qwen2's special tokens start at <|endoftext|>
    assert specials == [
        tok.special_ids["<|repo_name|>"],
        tok.special_ids["<|file_sep|>"],
        tok.special_ids["<|file_sep|>"],
        tok.special_ids["<|fim_prefix|>"],
        tok.special_ids["<|fim_suffix|>"],
        tok.special_ids["<|fim_middle|>"],
    ]
    plain = tok.tokenize_text(nasty)
    assert not set(plain) & set(tok.special_ids.values())
    # the text round-trips byte for byte
    assert b"".join(tok.piece(t) for t in plain).decode() == nasty


def test_count_tokens_is_exact(qwen_vocab: Any) -> None:
    tok = Tokenizer(LlamaVocab(qwen_vocab), QWEN25_CODER)
    text = "def f(x):\n    return x + 1  # <|fim_pad|>\n"
    assert tok.count(text) == len(qwen_vocab.tokenize(text.encode(), add_bos=False, special=False))
    assert tok.count("") == 0


def test_the_healing_table_built_in_steps_is_the_table_built_at_once(qwen_backend: Any) -> None:
    """The engine builds the table in idle steps (engine.llamacpp ``IDLE_PIECES_STEP``)."""
    at_once = Tokenizer(qwen_backend, QWEN25_CODER).piece_table()
    stepped = Tokenizer(qwen_backend, QWEN25_CODER)
    steps = 1
    while stepped.build_piece_table(40_000) is None:
        assert not stepped.has_piece_table
        steps += 1
    assert steps == 4 and stepped.has_piece_table  # 151,665 texts in steps of 40,000
    table = stepped.piece_table()
    assert len(table) == len(at_once)
    for text in (" exc", "resu", "  ", "def", "\u00e9"):
        assert table.consistent(text).tolist() == at_once.consistent(text).tolist()
    assert table.exactly(" except").tolist() == qwen_backend.tokenize(" except", special=False)

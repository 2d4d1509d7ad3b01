"""The GGUF-metadata tokenizer (engine/gguf_vocab.py) gives llama.cpp's token ids, bytes and EOG
set: against llama-cpp-python on the embedded model (skipped where it is not installed), by
hard-coded ids where it is not, and on hand-made vocabularies for what Qwen2.5 does not show."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.errors import ModelError
from engine.gguf_vocab import (
    ATTR_CONTROL,
    ATTR_NORMAL,
    ATTR_USER_DEFINED,
    GGUFVocab,
    token_bytes,
    vocab_facts,
)
from engine.models import GGUFValue
from engine.profiles import QWEN25_CODER
from engine.tokenizer import LlamaVocab, Tokenizer

ROOT = Path(__file__).resolve().parents[2]

PROBE = "def área(r):\n\treturn 3.14159 * r ** 2  # <|fim_prefix|> 🎉\r\n"
PROBE_IDS = [
    750, 54171, 2601, 982, 853, 220, 18, 13, 16, 19, 16, 20, 24, 353, 435, 3070, 220, 17, 220,
    671, 82639, 69, 318, 13974, 91, 29, 11162, 236, 231, 319,
]  # llama-cpp-python 0.3.36, Qwen2.5-Coder-0.5B: the marker is text, the emoji 3 byte tokens

EDGE_CASES = [
    "", " ", "   ", "\t", "\t\t\tx = 1", "\n", "\n\n\n", "\r", "\r\n", "a\r\nb\r\n\r\n  c\r\n",
    "x\r\r\n\n\ry", "    \n        \n\t\n", "trailing   ", "   leading",
    "naïve café — 日本語のテキスト Ελληνικά русский עברית العربية हिन्दी",
    "👍🏽 👨‍👩‍👧 🎉🎉🎉 ☃︎ 🇫🇷", "\u00a0\u2003\u3000\u2028\u2029\u0085\u180e\u200b\ufeff",
    "\x00\x01\x1b[0m\x7f\x80\x9f", "\ufffd\ufffd", "e\u0301 \u0301\u0301 ﬁ Ⅻ ǅ ʰ ² ½ ٣ ߀",
    "\U0010fffd \U000e0001 \U0001f9ff", "1234567890" * 30, "0x1F2E3D 1e-10 3.14159 1_000_000",
    "<|fim_prefix|>", "s = '<|fim_prefix|><|fim_middle|><|endoftext|><|file_sep|>'\n",
    "<|endoftext|><|im_start|>user<|im_end|></s><s><unk>", "<tool_call>{}</tool_call>",
    "<|fim_pad|<|repo_name||>", "it's IT'S we'll WE'LL 'd 're 've 'M",
    "x = " + "a" * 5000, "=" * 3000 + "\n", "# " + "word " * 2000, " " * 4000 + "x",
    "\t" * 500 + "\n" * 500,
]


def _sources() -> list[Path]:
    """Every file under the unpacked corpora of bench/corpora and under tests/."""
    corpora = ROOT / "bench" / "corpora"
    files = [p for p in corpora.rglob("*") if p.is_file() and not p.name.endswith(".tar.xz")]
    files += [p for p in (ROOT / "tests").rglob("*") if p.is_file() and p.suffix != ".pyc"]
    return sorted(files)


@pytest.fixture(scope="session")
def llama(qwen_vocab: Any) -> LlamaVocab:
    return LlamaVocab(qwen_vocab)


def test_probe_and_markers_by_their_ids(gguf_vocab: GGUFVocab) -> None:
    """Runs without llama-cpp-python: the ids it gave, hard-coded."""
    assert gguf_vocab.tokenize(PROBE, special=False) == PROBE_IDS
    assert gguf_vocab.count(PROBE) == len(PROBE_IDS)
    assert b"".join(gguf_vocab.piece(t) for t in PROBE_IDS) == PROBE.encode()
    tok = Tokenizer(gguf_vocab, QWEN25_CODER)
    assert tok.bos == ()
    assert tok.special_ids == {
        "<|endoftext|>": 151643, "<|fim_middle|>": 151660, "<|fim_prefix|>": 151659,
        "<|fim_suffix|>": 151661, "<|file_sep|>": 151664, "<|repo_name|>": 151663,
        "<|fim_pad|>": 151662, "<|im_end|>": 151645,
    }
    eog = [i for i in range(gguf_vocab.n_tokens) if gguf_vocab.is_eog(i)]
    assert eog == [128247, 151643, 151645, 151662, 151663, 151664]  # </s>, found by its text
    assert gguf_vocab.piece(151659) == b"" and gguf_vocab.piece(128247) == b""
    assert gguf_vocab.piece(151657) == b"<tool_call>"  # user-defined: its text
    assert gguf_vocab.tokenize("a<tool_call>", special=False) == [64, 151657]


def test_the_xllamacpp_engine_and_its_tokenizer_import_no_llama_cpp(embedded_model: Path) -> None:
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "import engine.xllamacpp\n"
        "from engine.gguf_vocab import GGUFVocab\n"
        "from engine.profiles import QWEN25_CODER\n"
        "from engine.tokenizer import Tokenizer\n"
        f"tok = Tokenizer(GGUFVocab.load(Path({str(embedded_model)!r})), QWEN25_CODER)\n"
        f"print(tok.count({PROBE!r}), sorted(m for m in sys.modules if 'llama_cpp' in m))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    assert out.strip() == f"{len(PROBE_IDS)} []"


@pytest.mark.slow
def test_every_source_file_tokenizes_as_llama_cpp_does(
    gguf_vocab: GGUFVocab, llama: LlamaVocab
) -> None:
    files = _sources()
    assert len(files) > 900  # 12 corpora and the tests
    differ = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if gguf_vocab.tokenize(text, special=False) != llama.tokenize(text, special=False):
            differ.append(path.relative_to(ROOT))
    assert differ == []


@pytest.mark.parametrize("text", EDGE_CASES)
def test_edge_cases_tokenize_as_llama_cpp_does(
    text: str, gguf_vocab: GGUFVocab, llama: LlamaVocab
) -> None:
    ids = llama.tokenize(text, special=False)
    assert gguf_vocab.tokenize(text, special=False) == ids
    assert gguf_vocab.count(text) == len(ids)
    assert gguf_vocab.tokenize(text, special=True) == llama.tokenize(text, special=True)


@settings(max_examples=400, deadline=None)
@given(text=st.text(max_size=40))
def test_any_text_tokenizes_as_llama_cpp_does(
    text: str, gguf_vocab: GGUFVocab, llama: LlamaVocab
) -> None:
    assert gguf_vocab.tokenize(text, special=False) == llama.tokenize(text, special=False)


def test_every_token_has_llama_cpp_bytes_and_eog(gguf_vocab: GGUFVocab, llama: LlamaVocab) -> None:
    n = llama.n_tokens
    assert gguf_vocab.n_tokens == n
    assert gguf_vocab.pieces(0, n) == llama.pieces(0, n)
    assert [i for i in range(n) if gguf_vocab.is_eog(i)] == [i for i in range(n) if llama.is_eog(i)]
    assert gguf_vocab.add_special == llama.add_special


def test_special_texts_parse_as_llama_cpp_does(gguf_vocab: GGUFVocab, llama: LlamaVocab) -> None:
    """With special parsing (the profile's markers), every control or user-defined token's
    text, alone and run together with text, gives llama.cpp's ids."""
    specials = [i for i in range(151643, gguf_vocab.n_tokens) if gguf_vocab.piece(i) == b""]
    texts = [gguf_vocab.text(i) for i in specials]
    for text in [*texts, "x".join(texts) + "tail", "<tool_call><|im_start|>"]:
        assert gguf_vocab.tokenize(text, special=True) == llama.tokenize(text, special=True)
    ours, theirs = Tokenizer(gguf_vocab, QWEN25_CODER), Tokenizer(llama, QWEN25_CODER)
    assert (ours.special_ids, ours.stop_ids, ours.bos) == (
        theirs.special_ids, theirs.stop_ids, theirs.bos
    )


# --- hand-made vocabularies ---------------------------------------------------------------------

_ALPHABET = [
    *map(chr, range(0x21, 0x7F)), *map(chr, range(0xA1, 0xAD)), *map(chr, range(0xAE, 0x100)),
    *map(chr, range(0x100, 0x144)),
]  # GPT-2's 256 byte characters, "Ġ" (a space) among them


def _fields(extra: list[tuple[str, int]], **keys: GGUFValue) -> dict[str, GGUFValue]:
    """A byte-level vocabulary: the byte alphabet, "ab", "Ġab", then ``extra`` (text, type)."""
    texts = [*_ALPHABET, "ab", "Ġab", *(t for t, _ in extra)]
    types: list[GGUFValue] = [*([1] * (len(_ALPHABET) + 2)), *(ty for _, ty in extra)]
    fields: dict[str, GGUFValue] = {
        "tokenizer.ggml.model": "gpt2",
        "tokenizer.ggml.pre": "qwen2",
        "tokenizer.ggml.tokens": list(texts),
        "tokenizer.ggml.token_type": types,
        "tokenizer.ggml.merges": ["a b", "Ġ ab"],
    }
    fields.update({f"tokenizer.ggml.{k}": v for k, v in keys.items()})
    return fields


def _vocab(fields: dict[str, GGUFValue]) -> GGUFVocab:
    merges = fields["tokenizer.ggml.merges"]
    assert isinstance(merges, list)
    return GGUFVocab(vocab_facts(fields), [str(m) for m in merges])


def test_a_small_vocabulary_merges_and_keeps_control_tokens_as_text() -> None:
    n = len(_ALPHABET) + 2
    extra = [("<|im_end|>", 3), ("<x>", 4), ("<|fim_pad|>", 3), ("<y>", 3)]
    vocab = _vocab(_fields(extra, eos_token_id=n))
    ab, space_ab, im_end, user, fim_pad, ctrl = n - 2, n - 1, n, n + 1, n + 2, n + 3
    assert vocab.tokenize("ab ab", special=False) == [ab, space_ab]
    assert vocab.tokenize("<x>ab", special=False) == [user, ab]  # user-defined: always a token
    assert im_end not in vocab.tokenize("<|im_end|>", special=False)
    assert vocab.tokenize("a<|im_end|><y>", special=True) == [_ALPHABET.index("a"), im_end, ctrl]
    assert [i for i in range(vocab.n_tokens) if vocab.is_eog(i)] == [im_end, fim_pad]
    assert vocab.piece(space_ab) == b" ab" and vocab.piece(user) == b"<x>"
    assert vocab.piece(im_end) == b"" and vocab.piece(ctrl) == b""
    assert vocab.add_special == ()


def test_llama_cpp_defaults_and_overrides_by_text() -> None:
    n = len(_ALPHABET) + 2
    # llama3: BOS by default; a normal "<|eot_id|>" becomes control and ends generation
    facts = vocab_facts(_fields([("<|eot_id|>", 1), ("<s>", 3)], pre="llama3", bos_token_id=n + 1))
    assert facts.add_special == (n + 1,)
    assert facts.attrs[n] == ATTR_NORMAL | ATTR_CONTROL
    assert facts.eog == {n, 11}  # and llama.cpp's default EOS of a gpt2 vocabulary
    # the file's add_bos_token wins; add_eos_token appends EOS
    facts = vocab_facts(_fields(
        [("<s>", 3), ("</e>", 3)], pre="llama3", bos_token_id=n, eos_token_id=n + 1,
        add_bos_token=False, add_eos_token=True,
    ))
    assert facts.add_special == (n + 1,) and facts.eog == {n + 1}
    # gpt-oss: "<|end|>" does not end generation beside "<|return|>" and "<|call|>"
    extra = [("<|end|>", 3), ("<|return|>", 3), ("<|call|>", 3)]
    facts = vocab_facts(_fields(extra, eos_token_id=n + 1))
    assert facts.eog == {n + 1, n + 2} and facts.attrs[n] == ATTR_USER_DEFINED


def test_vocabularies_not_built_here_say_so() -> None:
    with pytest.raises(ModelError, match="pre-tokenizer 'tekken'"):
        vocab_facts(_fields([], pre="tekken"))
    fields = _fields([])
    fields["tokenizer.ggml.model"] = "llama"
    with pytest.raises(ModelError, match="tokenizer model 'llama'"):
        vocab_facts(fields)


def test_token_bytes_follow_llama_token_to_piece() -> None:
    assert token_bytes("Ġhello", ATTR_NORMAL) == b" hello"
    assert token_bytes("ĊĉĠ", ATTR_NORMAL) == b"\n\t "
    assert token_bytes("<0x41>", 1 << 5) == b"A"  # a byte token
    assert token_bytes("é", ATTR_NORMAL) == b"\xe9"  # a byte of a multi-byte character
    assert token_bytes("a☃", ATTR_NORMAL) == "a[UNK_BYTE_0xe29883a☃]".encode()
    assert token_bytes("<|x|>", ATTR_CONTROL) == b"" and token_bytes("[PAD1]", 1 << 1) == b""


@pytest.mark.parametrize("kind", ["xllamacpp", "llamacpp"])
def test_load_tokenizer_reads_the_gguf_for_xllamacpp(kind: str, embedded_model: Path) -> None:
    """factory.load_tokenizer: the xllamacpp engine's own vocabulary; llama.cpp's for the
    llamacpp engine where llama-cpp-python is installed, else the same GGUF one."""
    from app.config import Config, EngineConfig
    from engine.factory import load_tokenizer
    from engine.tokenizer import llama_cpp_available

    tok = load_tokenizer(Config(engine=EngineConfig(kind=kind, model=str(embedded_model))))
    assert isinstance(tok, Tokenizer)
    gguf = kind == "xllamacpp" or not llama_cpp_available()
    assert isinstance(tok.vocab, GGUFVocab if gguf else LlamaVocab)
    assert tok.count(PROBE) == len(PROBE_IDS)


def test_remote_counts_use_the_gguf_vocabulary_without_llama_cpp(
    embedded_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.remote_tokens import _gguf_counter

    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # import llama_cpp raises ImportError
    count = _gguf_counter(embedded_model, QWEN25_CODER)
    assert isinstance(getattr(count, "__self__", None), Tokenizer)
    assert isinstance(count.__self__.vocab, GGUFVocab)  # type: ignore[attr-defined]
    assert count(PROBE) == len(PROBE_IDS)

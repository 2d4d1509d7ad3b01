"""A GGUF model's exact tokenizer from the file's own metadata, without llama.cpp.

llama.cpp tokenizes with the vocabulary its GGUF file carries (``tokenizer.ggml.*``). This
module rebuilds that tokenizer with HF ``tokenizers`` (Rust) so that an engine without
llama-cpp-python (xllamacpp) builds the same prompt token ids: the pre-tokenizer regexes that
llama.cpp's ``src/llama-vocab.cpp`` uses for ``tokenizer.ggml.pre``, byte-level BPE over the
merges, the tokens typed user-defined split out of source text as llama.cpp does with special
parsing off, and control tokens left to the text (source never becomes a special token).

It follows llama.cpp's vocabulary load for what is not in the token arrays: the BOS/EOS a
tokenization with ``add_special`` adds (``tokenizer.ggml.add_bos_token``, defaults per
pre-tokenizer), the end-of-generation set (``eos``, ``eot``, ``eom``, the FIM pad/repo/separator
tokens and the ones llama.cpp finds by their text, such as ``<|endoftext|>``), the control type
it gives those tokens, and a token's bytes (``llama_token_to_piece`` with ``special`` false:
byte-level decoding, a user-defined token's text, nothing for a control token).

Only ``tokenizer.ggml.model == "gpt2"`` (byte-level BPE) is built. tests/engine/test_gguf_vocab.py
checks the qwen2 pre-tokenizer against llama-cpp-python token by token; the others in
``PRE_TOKENIZERS`` are llama.cpp's regexes, unchecked here for want of a model. Loaded by the
xllamacpp engine and by ``engine.tokenizer.open_vocab`` (where llama-cpp-python is missing).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.errors import ModelError
from engine.models import GGUFValue, read_gguf_fields

# llama.cpp's token attributes (llama.h, llama_token_attr), from the GGUF token types
ATTR_UNKNOWN = 1 << 0
ATTR_UNUSED = 1 << 1
ATTR_NORMAL = 1 << 2
ATTR_CONTROL = 1 << 3
ATTR_USER_DEFINED = 1 << 4
ATTR_BYTE = 1 << 5
_TYPE_ATTR = {1: ATTR_NORMAL, 2: ATTR_UNKNOWN, 3: ATTR_CONTROL, 4: ATTR_USER_DEFINED,
              5: ATTR_UNUSED, 6: ATTR_BYTE}  # 0 (undefined) and others: no attribute

_GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"
_LLAMA3 = (
    r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+"
    r"|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
_QWEN2 = (
    r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+"
    r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)


@dataclass(frozen=True, slots=True)
class PreTokenizer:
    """How llama.cpp splits text into words before BPE, for one ``tokenizer.ggml.pre``."""

    regexes: tuple[str, ...]  # applied in turn, each to the pieces of the one before
    ignore_merges: bool = False  # a word that is a token is that token, merges not applied
    add_bos: bool = False  # the BOS default when the file has no tokenizer.ggml.add_bos_token


_QWEN2_PRE = PreTokenizer((_QWEN2,))
_SMOLLM_PRE = PreTokenizer((r"\p{N}", _GPT2))
_GPT2_PRE = PreTokenizer((_GPT2,))
_LLAMA3_PRE = PreTokenizer((_LLAMA3,), ignore_merges=True, add_bos=True)

# tokenizer.ggml.pre -> its pre-tokenizer (llama-vocab.cpp: llama_vocab::impl::load and
# llm_tokenizer_bpe's regex_exprs)
PRE_TOKENIZERS: Mapping[str, PreTokenizer] = {
    **dict.fromkeys(
        ("qwen2", "deepseek-r1-qwen", "kormo", "f2llmv2", "megrez", "stablelm2", "hunyuan"),
        _QWEN2_PRE,
    ),
    **dict.fromkeys(
        ("smollm", "starcoder", "refact", "command-r", "codeshell", "exaone", "minerva-7b"),
        _SMOLLM_PRE,
    ),
    **dict.fromkeys(
        ("gpt-2", "phi-2", "jina-es", "jina-de", "gigachat", "jina-v2-es", "jina-v2-de",
         "mpt", "olmo", "jais", "exaone4"),
        _GPT2_PRE,
    ),
    **dict.fromkeys(("llama3", "llama-v3", "llama-bpe", "falcon3", "pixtral"), _LLAMA3_PRE),
}

# texts llama.cpp takes for a special token when the file names none (the first found)
_TEXT_SPECIALS: Mapping[str, tuple[str, ...]] = {
    "eot": ("<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>",
            "<|end_of_text|>", "<EOT>", "_<EOT>", "[EOT]", "<｜end▁of▁sentence｜>",
            "<end_of_utterance>"),
    "eom": ("<|eom_id|>",),
    "fim_pre": ("<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>", "<｜fim▁begin｜>", "<PRE>",
                "▁<PRE>", "<|code_prefix|>", "<|prefix|>"),
    "fim_suf": ("<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>", "<｜fim▁hole｜>", "<SUF>",
                "▁<SUF>", "<|code_suffix|>", "<|suffix|>"),
    "fim_mid": ("<|fim_middle|>", "<fim-middle>", "<fim_middle>", "<｜fim▁end｜>", "<MID>",
                "▁<MID>", "<|code_middle|>", "<|middle|>"),
    "fim_pad": ("<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]"),
    "fim_rep": ("<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>"),
    "fim_sep": ("<|file_sep|>",),
}
# the metadata keys of those special tokens (later keys of one name are older spellings)
_SPECIAL_KEYS: tuple[tuple[str, str], ...] = (
    ("bos", "bos_token_id"), ("eos", "eos_token_id"), ("eot", "eot_token_id"),
    ("eom", "eom_token_id"), ("fim_pre", "fim_pre_token_id"), ("fim_suf", "fim_suf_token_id"),
    ("fim_mid", "fim_mid_token_id"), ("fim_pad", "fim_pad_token_id"),
    ("fim_rep", "fim_rep_token_id"), ("fim_sep", "fim_sep_token_id"),
    ("fim_pre", "prefix_token_id"), ("fim_suf", "suffix_token_id"),
    ("fim_mid", "middle_token_id"),
)
# texts llama.cpp makes end generation, besides eos/eot/eom and the FIM pad/repo/separator
_EOG_TEXTS = frozenset((
    "<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<|flush|>", "<|calls|>",
    "<end_of_turn>", "<|endoftext|>", "</s>", "<|eom_id|>", "<EOT>", "_<EOT>", "[EOT]", "[EOS]",
    "<|end_of_text|>", "<end_of_utterance>", "<eos>", "<turn|>", "<|tool_response>",
    "<｜end▁of▁sentence｜>", "[e~[",
))
_ALWAYS_RENDERED = ("<|channel|>", "<|message|>", "<|start|>", "<|constrain|>")  # gpt-oss


def _byte_decoder() -> dict[str, int]:
    """GPT-2's byte-level alphabet, character -> byte (llama.cpp unicode_utf8_to_byte_map)."""
    kept = [*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    table = {chr(b): b for b in kept}
    n = 0
    for b in range(256):
        if b not in kept:
            table[chr(256 + n)] = b
            n += 1
    return table


_BYTE_DECODER = _byte_decoder()


@dataclass(frozen=True, slots=True)
class VocabFacts:
    """What llama.cpp derives from a GGUF vocabulary besides its BPE: pure data, no tokenizer."""

    texts: list[str]  # token id -> its text as stored
    attrs: list[int]  # token id -> llama.cpp's attribute bits (ATTR_*), after its overrides
    eog: frozenset[int]  # llama.cpp's end-of-generation tokens
    add_special: tuple[int, ...]  # what tokenizing with add_special puts first (BOS, EOS)
    pre: PreTokenizer


def vocab_facts(fields: Mapping[str, GGUFValue]) -> VocabFacts:
    """The attributes, EOG set and BOS of a ``tokenizer.*`` metadata dict, the way llama.cpp's
    ``llama_vocab::impl::load`` makes them. Raises ModelError for a vocabulary not built here."""
    model = fields.get("tokenizer.ggml.model")
    if model != "gpt2":
        raise ModelError(f"tokenizer model {model!r} is not supported without llama-cpp-python")
    pre_name = str(fields.get("tokenizer.ggml.pre", ""))
    pre = PRE_TOKENIZERS.get(pre_name)
    if pre is None:
        raise ModelError(
            f"pre-tokenizer {pre_name!r} is not supported without llama-cpp-python"
        )
    texts = [str(t) for t in _array(fields, "tokenizer.ggml.tokens")]
    texts = [t or f"[EMPTY_{i}]" for i, t in enumerate(texts)]
    n = len(texts)
    has_types = "tokenizer.ggml.token_type" in fields
    types = _array(fields, "tokenizer.ggml.token_type") if has_types else []
    attrs = [_TYPE_ATTR.get(t, 0) if isinstance(t, int) else 0 for t in types[:n]]
    if not has_types:
        attrs = [ATTR_NORMAL] * n
    if len(attrs) < n:
        raise ModelError("tokenizer.ggml.token_type is shorter than the vocabulary")

    ids: dict[str, int | None] = {name: None for name, _ in _SPECIAL_KEYS}
    ids["bos"] = ids["eos"] = 11 if n > 11 else None  # llama.cpp's defaults for gpt2
    for name, key in _SPECIAL_KEYS:
        value = fields.get(f"tokenizer.ggml.{key}")
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n:
            ids[name] = value
    by_text = {t: i for i, t in enumerate(texts)}
    for name, candidates in _TEXT_SPECIALS.items():
        if ids[name] is not None:
            continue
        for text in candidates:
            if text in by_text:
                ids[name] = by_text[text]
                attrs[by_text[text]] |= ATTR_CONTROL
                break

    eog = {ids[k] for k in ("fim_pad", "fim_rep", "fim_sep")}
    for text in _EOG_TEXTS & by_text.keys():
        eog.add(by_text[text])
        attrs[by_text[text]] |= ATTR_CONTROL
    for text in _ALWAYS_RENDERED:
        if text in by_text:
            attrs[by_text[text]] = ATTR_USER_DEFINED
    eog |= {ids["eos"], ids["eot"], ids["eom"]}
    eog.discard(None)
    eog_ids = {i for i in eog if i is not None}
    eog_texts = {texts[i] for i in eog_ids}
    if "<|end|>" in eog_texts and (
        {"<|return|>", "<|call|>"} <= eog_texts or {"<|calls|>", "<|flush|>"} <= eog_texts
    ):
        end = by_text["<|end|>"]
        eog_ids.discard(end)
        attrs[end] = ATTR_USER_DEFINED
    if "<|tool_response>" in eog_texts and "</s>" in eog_texts:
        eog_ids.discard(by_text["</s>"])
        attrs[by_text["</s>"]] = ATTR_NORMAL

    add_bos = _flag(fields, "tokenizer.ggml.add_bos_token", pre.add_bos)
    add_eos = _flag(fields, "tokenizer.ggml.add_eos_token", False)
    add_special: list[int] = []
    for wanted, name in ((add_bos, "bos"), (add_eos, "eos")):
        token = ids[name]
        if wanted:
            if token is None:
                raise ModelError(f"tokenizer.ggml.add_{name}_token is true, but no {name} is set")
            add_special.append(token)
    return VocabFacts(texts, attrs, frozenset(eog_ids), tuple(add_special), pre)


def _array(fields: Mapping[str, GGUFValue], key: str) -> list[GGUFValue]:
    value = fields.get(key)
    if not isinstance(value, list):
        raise ModelError(f"the GGUF vocabulary has no array {key}")
    return value


def _flag(fields: Mapping[str, GGUFValue], key: str, default: bool) -> bool:
    value = fields.get(key)
    return value if isinstance(value, bool) else default


def token_bytes(text: str, attr: int) -> bytes:
    """A token's bytes as ``llama_token_to_piece(..., special=False)`` gives them."""
    if attr & (ATTR_CONTROL | ATTR_UNKNOWN):
        return b""
    if attr & ATTR_USER_DEFINED:
        return text.encode("utf-8")
    if attr & ATTR_NORMAL:
        try:
            return bytes(_BYTE_DECODER[c] for c in text)
        except KeyError:
            return _decode_with_unknown(text)
    if attr & ATTR_BYTE:
        return bytes((int(text[3:5], 16),))
    return b""


def _decode_with_unknown(text: str) -> bytes:
    """llama_decode_text's output for a text with characters outside the byte alphabet."""
    out = bytearray()
    for c in text:
        if c in _BYTE_DECODER:
            out.append(_BYTE_DECODER[c])
        else:
            utf8 = c.encode("utf-8")
            out += b"[UNK_BYTE_0x" + utf8.hex().encode() + text.encode("utf-8") + b"]"
    return bytes(out)


class GGUFVocab:
    """The tokenizer backend of engine/tokenizer.py over a GGUF file's vocabulary; safe from
    any thread. Built by :meth:`load` (0.3-0.5 s for Qwen2.5's 151,936 tokens)."""

    def __init__(self, facts: VocabFacts, merges: list[str]) -> None:
        self._facts = facts
        self._texts = facts.texts
        self._attrs = facts.attrs
        self.add_special = facts.add_special
        self.n_tokens = len(facts.texts)
        self._hf = _hf_tokenizer(facts, merges)
        # llama.cpp's special-token partition with parsing on: control, user-defined and
        # unknown tokens, longest text first
        specials = [i for i, a in enumerate(self._attrs)
                    if a & (ATTR_CONTROL | ATTR_USER_DEFINED | ATTR_UNKNOWN)]
        self._specials = sorted(specials, key=lambda i: -len(self._texts[i].encode("utf-8")))
        self._pieces: list[bytes | None] = [None] * self.n_tokens
        self._lock = threading.Lock()

    @classmethod
    def load(cls, path: Path) -> GGUFVocab:
        """The vocabulary of the GGUF file at ``path``; ModelError when it cannot be built."""
        fields = read_gguf_fields(path, prefix="tokenizer.ggml.")
        facts = vocab_facts(fields)
        merges = [str(m) for m in _array(fields, "tokenizer.ggml.merges")]
        return cls(facts, merges)

    def tokenize(self, text: str, *, special: bool) -> list[int]:
        """Token ids of ``text``, nothing added; ``special``: control tokens spelt in the text
        become those tokens (markers), else they stay text (source)."""
        if not special:
            return self._encode(text)
        out: list[int] = []
        for part in self._partition(text):
            out.extend([part] if isinstance(part, int) else self._encode(part))
        return out

    def count(self, text: str) -> int:
        return len(self._encode(text))

    def _encode(self, text: str) -> list[int]:
        if not text:
            return []
        # the batch call lets go of the GIL while it works (encode holds it: a 200,000-character
        # text held the daemon's other threads for ~0.1 s), as llama_tokenize through ctypes does
        ids: list[int] = self._hf.encode_batch_fast([text], add_special_tokens=False)[0].ids
        return ids

    def _partition(self, text: str) -> list[str | int]:
        """llama.cpp's tokenizer_st_partition with parse_special: special tokens' texts cut
        out of ``text``, each special token's whole text in turn, longest first."""
        parts: list[str | int] = [text] if text else []
        for token in self._specials:
            needle = self._texts[token]
            cut: list[str | int] = []
            for part in parts:
                if isinstance(part, int) or needle not in part:
                    cut.append(part)
                    continue
                pieces = part.split(needle)
                for k, piece in enumerate(pieces):
                    if k:
                        cut.append(token)
                    if piece:
                        cut.append(piece)
            parts = cut
        return parts

    def is_eog(self, token: int) -> bool:
        return token in self._facts.eog

    def piece(self, token: int) -> bytes:
        """The bytes of one token; control tokens render as nothing."""
        if not 0 <= token < self.n_tokens:
            return b""
        cached = self._pieces[token]
        if cached is None:
            cached = token_bytes(self._texts[token], self._attrs[token])
            self._pieces[token] = cached
        return cached

    def pieces(self, start: int, end: int) -> list[bytes]:
        return [self.piece(i) for i in range(start, end)]

    def text(self, token: int) -> str:
        """A token's text as the GGUF file stores it (byte-level characters)."""
        return self._texts[token]


def _hf_tokenizer(facts: VocabFacts, merges: list[str]) -> Any:
    """The HF ``tokenizers`` BPE of a byte-level GGUF vocabulary (raises ModelError)."""
    # a batch of one text needs no thread pool: without this, the first batch call starts one
    # (a thread per core) and a later fork prints tokenizers' warning about it
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        from tokenizers import AddedToken, Regex, Tokenizer, models, pre_tokenizers
    except ImportError as exc:  # pragma: no cover - a dependency of nospin
        raise ModelError("the tokenizers package is not installed") from exc
    vocab = {text: i for i, text in enumerate(facts.texts)}
    pairs: list[tuple[str, str]] = []
    for merge in merges:
        cut = merge.find(" ", 1)  # llama.cpp: the first space after the first character
        pairs.append((merge[:cut], merge[cut + 1 :]) if cut >= 0 else ("", ""))
    try:
        bpe = models.BPE(vocab=vocab, merges=pairs, ignore_merges=facts.pre.ignore_merges)
        tok = Tokenizer(bpe)
        splits = [pre_tokenizers.Split(Regex(r), "isolated") for r in facts.pre.regexes]
        tok.pre_tokenizer = pre_tokenizers.Sequence(
            [*splits, pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]
        )
        # user-defined tokens are split out of any text, as llama.cpp does; control and
        # unknown ones only with special parsing, which encode_special_tokens turns off
        added = [
            AddedToken(text, special=not attr & ATTR_USER_DEFINED, normalized=False)
            for text, attr in zip(facts.texts, facts.attrs, strict=True)
            if attr & (ATTR_CONTROL | ATTR_USER_DEFINED | ATTR_UNKNOWN)
        ]
        tok.add_special_tokens([a for a in added if a.special])
        tok.add_tokens([a for a in added if not a.special])
        tok.encode_special_tokens = True
    except Exception as exc:  # tokenizers raises its own Exception subclasses
        raise ModelError(
            "cannot build the tokenizer of the GGUF vocabulary", detail=str(exc)
        ) from exc
    return tok

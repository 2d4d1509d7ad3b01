"""The exact tokenizer of a GGUF model, over one of two vocabulary backends.

:class:`Tokenizer` is what the CPU engines build prompts with and count tokens by: source text
tokenized with special-token parsing off (a marker spelt in source stays text), the profile's
markers by their ids, the EOG test, token bytes and the piece table of token healing. It reads
its vocabulary through :class:`VocabBackend`, which two classes implement:

- :class:`LlamaVocab`: llama-cpp-python's ``Llama`` (the loaded model, or a vocabulary-only
  load of its file): llama.cpp's own tokenizer.
- :class:`engine.gguf_vocab.GGUFVocab`: the GGUF file's ``tokenizer.ggml.*`` metadata rebuilt
  with HF ``tokenizers``, for a machine without llama-cpp-python (the xllamacpp engine).

:func:`open_vocab` picks one for a model file.
"""

from __future__ import annotations

import ctypes
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from app.errors import EngineError, ModelError
from engine.healing import PieceTable
from engine.profiles import ModelProfile, Pieces

_PIECE_BUFFER = 256  # bytes for one token's text (a longer one gets its own buffer)


class VocabBackend(Protocol):
    """A model's vocabulary: what :class:`Tokenizer` asks of it. Safe from any thread."""

    @property
    def n_tokens(self) -> int:
        """The vocabulary's size."""
        ...

    @property
    def add_special(self) -> tuple[int, ...]:
        """The tokens tokenizing with ``add_special`` adds to no text (BOS where the model
        wants one)."""
        ...

    def tokenize(self, text: str, *, special: bool) -> list[int]:
        """Token ids of ``text`` with nothing added; ``special``: control tokens spelt in the
        text become those tokens, else they stay text."""
        ...

    def count(self, text: str) -> int:
        """``len(tokenize(text, special=False))``, without building the list where it can."""
        ...

    def is_eog(self, token: int) -> bool:
        """Whether the model ends generation with ``token``."""
        ...

    def piece(self, token: int) -> bytes:
        """The bytes of one token; control tokens render as nothing."""
        ...

    def pieces(self, start: int, end: int) -> list[bytes]:
        """The bytes of tokens ``start`` to ``end - 1``."""
        ...


class Tokenizer:
    """Exact tokenizer of a model for a profile; safe to call from any thread."""

    def __init__(self, vocab: VocabBackend, profile: ModelProfile) -> None:
        self.vocab = vocab
        self._lock = threading.Lock()
        self.bos: tuple[int, ...] = vocab.add_special
        self.special_ids: dict[str, int] = {}
        markers = {profile.fim_prefix, profile.fim_suffix, profile.fim_middle}
        markers |= {profile.repo_name, profile.file_sep, *profile.stop_tokens}
        for marker in sorted(m for m in markers if m):
            ids = vocab.tokenize(marker, special=True)
            if len(ids) == 1:
                self.special_ids[marker] = ids[0]
            elif marker not in profile.stop_tokens:
                raise ModelError(
                    f"profile {profile.name!r} does not fit this model: "
                    f"{marker!r} is not one special token"
                )
        self.stop_ids: frozenset[int] = frozenset(
            self.special_ids[m] for m in profile.stop_tokens if m in self.special_ids
        )
        self._count = lru_cache(maxsize=4096)(self._count_uncached)
        self._pieces: PieceTable | None = None
        self._piece_texts: list[str] = []  # the table's texts built so far (build_piece_table)

    def tokenize_text(self, text: str) -> list[int]:
        """Token ids of source text, special-token parsing OFF (markers stay plain text)."""
        return self.vocab.tokenize(text, special=False) if text else []

    def tokenize_pieces(self, pieces: Pieces, *, add_bos: bool) -> list[int]:
        """Tokenize a rendered prompt piece by piece; specials by id, text with parsing OFF."""
        out: list[int] = list(self.bos) if add_bos else []
        for piece in pieces:
            if piece.is_special:
                try:
                    out.append(self.special_ids[piece.text])
                except KeyError:
                    raise ModelError(f"special token {piece.text!r} is unknown") from None
            else:
                out.extend(self.tokenize_text(piece.text))
        return out

    def count(self, text: str) -> int:
        """Exact token count of plain source text (cached: segments repeat across requests)."""
        if len(text) > 20_000:
            return self._count_uncached(text)
        return self._count(text)

    def _count_uncached(self, text: str) -> int:
        return self.vocab.count(text) if text else 0

    def is_eog(self, token: int) -> bool:
        return token in self.stop_ids or self.vocab.is_eog(token)

    def piece_table(self) -> PieceTable:
        """The vocabulary's token texts for token healing: built by the engine while idle
        (:meth:`build_piece_table`), else here on first use (0.5-0.7 s for Qwen's vocabulary:
        ``nospin bench startup``, ``healing_table``)."""
        table = self.build_piece_table(None)
        assert table is not None
        return table

    @property
    def has_piece_table(self) -> bool:
        return self._pieces is not None

    def build_piece_table(self, max_tokens: int | None) -> PieceTable | None:
        """Go on building the piece table, by the texts of up to ``max_tokens`` more tokens
        (None: to the end); the table once it is complete, else None. Steps of 16,384 tokens
        take 40-75 ms, the last, which sorts, 0.1-0.2 s."""
        with self._lock:
            if self._pieces is not None:
                return self._pieces
            texts = self._piece_texts
            n = self.vocab.n_tokens
            end = n if max_tokens is None else min(n, len(texts) + max(1, max_tokens))
            texts.extend(_text(p) for p in self.vocab.pieces(len(texts), end))
            if len(texts) < n:
                return None
            self._pieces = PieceTable(texts)
            self._piece_texts = []
            return self._pieces

    def piece(self, token: int) -> bytes:
        """The bytes of one token; special tokens render as nothing."""
        return self.vocab.piece(token)


def _text(piece: bytes) -> str:
    """A token's text, "" when it is not whole UTF-8 (a byte of a multi-byte character)."""
    try:
        return piece.decode("utf-8")
    except UnicodeDecodeError:
        return ""


class LlamaVocab:
    """:class:`VocabBackend` over a llama-cpp-python ``Llama``: llama.cpp's own tokenizer."""

    def __init__(self, llm: Any) -> None:
        import llama_cpp

        self._lib = llama_cpp
        self._llm = llm  # kept alive: the vocabulary belongs to its model
        self._vocab = llm._model.vocab
        self.n_tokens: int = int(llama_cpp.llama_vocab_n_tokens(self._vocab))
        self.add_special: tuple[int, ...] = tuple(llm.tokenize(b"", add_bos=True, special=False))
        self._count_buffers = threading.local()  # per-thread token buffer for counting

    def tokenize(self, text: str, *, special: bool) -> list[int]:
        if not text:
            return []
        data = text.encode("utf-8")
        cap = len(data) + 8
        buf = (self._lib.llama_token * cap)()
        n = self._lib.llama_tokenize(self._vocab, data, len(data), buf, cap, False, special)
        if n < 0:  # pragma: no cover - cannot happen: a token covers at least one byte
            raise EngineError("tokenizer buffer too small")
        return list(buf[:n])

    def count(self, text: str) -> int:
        data = text.encode("utf-8")
        local = self._count_buffers
        buf = getattr(local, "buf", None)
        if buf is None or len(buf) < len(data) + 8:
            buf = (self._lib.llama_token * max(4096, len(data) + 8))()
            local.buf = buf
        n: int = self._lib.llama_tokenize(
            self._vocab, data, len(data), buf, len(buf), False, False
        )
        return n if n >= 0 else len(self.tokenize(text, special=False))

    def is_eog(self, token: int) -> bool:
        return bool(self._lib.llama_vocab_is_eog(self._vocab, token))

    def piece(self, token: int) -> bytes:
        return self._piece_in(token, ctypes.create_string_buffer(64))

    def pieces(self, start: int, end: int) -> list[bytes]:
        buf = ctypes.create_string_buffer(_PIECE_BUFFER)
        return [self._piece_in(i, buf) for i in range(start, end)]

    def _piece_in(self, token: int, buf: ctypes.Array[ctypes.c_char]) -> bytes:
        n = self._lib.llama_token_to_piece(self._vocab, token, buf, len(buf), 0, False)
        if n < 0:
            buf = ctypes.create_string_buffer(-n)
            n = self._lib.llama_token_to_piece(self._vocab, token, buf, -n, 0, False)
        return ctypes.string_at(buf, n)

    def close(self) -> None:
        """Free a vocabulary-only model loaded by :func:`load_llama_vocab`."""
        self._llm.close()


def llama_cpp_available() -> bool:
    """Whether llama-cpp-python imports here (a compiled install; xllamacpp needs none)."""
    try:
        import llama_cpp  # noqa: F401
    except ImportError:
        return False
    return True


def load_llama_vocab(path: Path) -> LlamaVocab:
    """A vocabulary-only llama.cpp load of a GGUF file (~0.3 s); ModelError on failure."""
    try:
        import llama_cpp
    except ImportError as exc:
        raise ModelError("llama-cpp-python is not installed") from exc
    from engine.llama_log import muted

    try:
        with muted():  # its log lines would each wait for the GIL (engine/llama_log.py)
            llm = llama_cpp.Llama(str(path), vocab_only=True, n_ctx=8, verbose=False)
    except (ValueError, RuntimeError, OSError) as exc:
        raise ModelError(f"cannot read the vocabulary of {path}", detail=str(exc)) from exc
    return LlamaVocab(llm)


def open_vocab(path: Path, *, llama: bool | None = None) -> VocabBackend:
    """The vocabulary of the GGUF file at ``path``: llama.cpp's (``llama`` True), the GGUF
    metadata's through HF tokenizers (False), or llama.cpp's where llama-cpp-python is
    installed (None). Raises ModelError when it cannot be read."""
    if llama is None:
        llama = llama_cpp_available()
    if llama:
        return load_llama_vocab(path)
    from engine.gguf_vocab import GGUFVocab

    return GGUFVocab.load(path)

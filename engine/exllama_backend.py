"""What the exllamav2 engine needs from outside itself: the model folder checked, torch and
exllamav2 imported (lazily, with the reason and the fix when they are missing), token ids
through exllamav2's tokenizer with marker strings in source kept as text, and the generator
filter that steers a completion's first tokens (``engine.steering``)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from app.errors import EngineUnavailable, ModelError
from engine.exllama_logic import strip_markers
from engine.healing import PieceTable
from engine.profiles import ModelProfile
from engine.steering import StartSteer

log = logging.getLogger(__name__)

EXLLAMAV2_VERSION = "0.3.2"  # the version whose API this module was written against
INSTALL_HINT = "pip install 'nospin[gpu]' (exllamav2==0.3.2 and torch with CUDA)"


def check_model_dir(path: str, *, what: str = "engine.model") -> Path:
    """Validate an EXL2/HF safetensors folder; raise ModelError saying what is wrong."""
    if not path:
        raise ModelError(
            f"{what} is empty: the exllamav2 engine needs an EXL2 or HF safetensors folder "
            "(the embedded default model is a GGUF file for the llamacpp engine)"
        )
    p = Path(path).expanduser()
    if p.is_file():
        raise ModelError(
            f"{what} {str(p)!r} is a file: the exllamav2 engine loads EXL2 or HF safetensors "
            "folders (GGUF files run on the llamacpp engine)"
        )
    if not p.is_dir():
        raise ModelError(f"{what} {str(p)!r} does not exist")
    if not (p / "config.json").is_file():
        raise ModelError(f"{what} {str(p)!r} has no config.json")
    if not any(p.glob("*.safetensors")):
        raise ModelError(
            f"{what} {str(p)!r} has no .safetensors files (convert .bin weights first)"
        )
    if not (p / "tokenizer.json").is_file():
        raise ModelError(f"{what} {str(p)!r} has no tokenizer.json (exllamav2 needs it)")
    return p


def import_backend() -> tuple[Any, Any]:
    """Import torch and exllamav2; raise EngineUnavailable with the reason and the fix.

    Returns (torch, exllamav2). The first exllamav2 import JIT-compiles its CUDA extension when
    no prebuilt one is installed (needs nvcc and ninja; minutes).
    """
    try:
        import torch
    except ImportError as exc:
        raise EngineUnavailable(
            f"the exllamav2 engine needs PyTorch with CUDA, which is not installed: {INSTALL_HINT}"
        ) from exc
    if not torch.cuda.is_available():
        raise EngineUnavailable(
            "the exllamav2 engine needs a CUDA GPU and PyTorch sees none "
            "(use engine.kind = 'llamacpp' on this machine)",
            detail=f"torch {torch.__version__}, CUDA build {torch.version.cuda}",
        )
    try:
        import exllamav2
        import exllamav2.generator  # loads the extension and the generator
    except ImportError as exc:
        raise EngineUnavailable(
            f"exllamav2 is not installed or failed to import: {INSTALL_HINT}", detail=str(exc)
        ) from exc
    except Exception as exc:  # a failed JIT build raises RuntimeError/CalledProcessError
        raise EngineUnavailable(
            "exllamav2 could not build or load its CUDA extension (needs nvcc and ninja)",
            detail=str(exc)[:500],
        ) from exc
    version = getattr(exllamav2, "__version__", "?")
    if version != EXLLAMAV2_VERSION:
        log.warning("exllamav2 %s found; nospin was written against %s", version, EXLLAMAV2_VERSION)
    return torch, exllamav2


class Vocabulary:
    """Token ids through an ExLlamaV2Tokenizer, with marker strings in source kept as text.

    exllamav2's ``encode(text, encode_special_tokens=False)`` still hands the text to the HF
    ``tokenizers`` library, which turns added special tokens found in the text into their ids.
    Setting the HF tokenizer's ``encode_special_tokens = True`` makes it split them as text; where
    that switch is missing the marker strings are stripped from the text instead.
    """

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self.specials: dict[str, int] = {
            str(k): int(v) for k, v in dict(tokenizer.extended_piece_to_id).items() if v is not None
        }
        self.plain_text_safe = False
        self._pieces: list[str] | None = None
        self._table: PieceTable | None = None
        hf = getattr(getattr(tokenizer, "tokenizer_model", None), "hf_tokenizer", None)
        if hf is not None and hasattr(hf, "encode_special_tokens"):
            try:
                hf.encode_special_tokens = True
                self.plain_text_safe = True
            except (AttributeError, TypeError):
                self.plain_text_safe = False

    def encode_text(self, text: str) -> list[int]:
        """Ids of ``text`` as plain source (no special tokens)."""
        if not self.plain_text_safe:
            text = strip_markers(text, self.specials)
        if not text:
            return []
        ids = self.tokenizer.encode(text, encode_special_tokens=False)
        return [int(t) for t in ids[0].tolist()]

    def special_id(self, marker: str) -> int | None:
        tid = self.specials.get(marker)
        if tid is None:
            found = self.tokenizer.single_id(marker)
            tid = int(found) if found is not None else None
        return tid

    def bos_id(self, profile: ModelProfile) -> int | None:
        """BOS when the profile allows it and the tokenizer config asks for it."""
        config = getattr(self.tokenizer, "tokenizer_config_dict", None) or {}
        if profile.add_bos and config.get("add_bos_token") is True:
            bos = self.tokenizer.bos_token_id
            return int(bos) if bos is not None else None
        return None

    def pieces(self) -> list[str]:
        """Each token id's text (exllamav2 decodes them; special tokens as "")."""
        if self._pieces is None:
            found = list(self.tokenizer.get_id_to_piece_list(False))
            for tid in self.specials.values():
                if 0 <= tid < len(found):
                    found[tid] = ""
            self._pieces = [p if isinstance(p, str) else "" for p in found]
        return self._pieces

    def piece_table(self) -> PieceTable:
        """The vocabulary's texts sorted for token healing and placeholder avoidance."""
        if self._table is None:
            self._table = PieceTable(self.pieces())
        return self._table


def steer_filter(
    base: type,
    model: Any,
    tokenizer: Any,
    make_steer: Callable[[], StartSteer],
    pieces: Sequence[str],
    as_index: Callable[[np.ndarray], Any],
) -> Any:
    """A filter for one ``ExLlamaV2DynamicJob`` that applies a ``StartSteer`` to its logits.

    ``base`` is ``exllamav2.generator.filters.ExLlamaV2Filter``; ``make_steer`` gives a fresh
    steer when the job starts sampling (``begin``); ``pieces`` are the token texts fed to it;
    ``as_index`` turns an id array into what indexes the logits tensor (``torch.from_numpy``).
    """
    return _steer_filter_class(base)(model, tokenizer, make_steer, pieces, as_index)


@functools.cache
def _steer_filter_class(base: type) -> type:
    """The filter class on exllamav2's base (0.3.2, generator/filters/base.py and sampler.py).

    The sampler asks a filter whose ``can_mask_logits()`` is true for ``prepare_logit_mask()``
    (which must return True), then ``mask_logits(logits)`` on the job's 1-D logits; ``feed``
    gets each sampled token (with a draft model, only those the model accepted: the rest are
    rolled back before they are fed). ``next()`` is the allowed-set protocol, for a sampler
    that does not take the mask path.
    """

    class SteerFilter(base):  # type: ignore[misc]
        def __init__(
            self,
            model: Any,
            tokenizer: Any,
            make_steer: Callable[[], StartSteer],
            pieces: Sequence[str],
            as_index: Callable[[np.ndarray], Any],
        ) -> None:
            super().__init__(model, tokenizer)
            self.make_steer = make_steer
            self.pieces = pieces
            self.as_index = as_index
            self.steer = make_steer()
            self.pending: Any = None  # the mask prepare_logit_mask() found

        def clone(self, c: Any = None) -> Any:
            return type(self)(
                self.model, self.tokenizer, self.make_steer, self.pieces, self.as_index
            )

        def begin(self, prefix_str: str = "") -> None:
            self.steer = self.make_steer()
            self.pending = None

        def feed(self, token: Any) -> None:
            tid = int(token.item()) if hasattr(token, "item") else int(token)
            self.steer.feed(self.pieces[tid] if 0 <= tid < len(self.pieces) else "")

        def next(self) -> tuple[set[int] | None, set[int]]:
            mask = self.steer.mask()
            if mask is None:
                return None, set()
            ids = {int(i) for i in mask.ids}
            if mask.allow:
                return ids, set()
            return set(range(len(self.pieces))) - ids, set()

        def use_background_worker(self) -> bool:
            return False

        def can_mask_logits(self) -> bool:
            return True

        def prepare_logit_mask(self) -> bool:
            self.pending = self.steer.mask()
            return True

        def mask_logits(self, logits: Any) -> Any:
            mask, self.pending = self.pending, None
            if mask is None:
                return logits
            ids = mask.ids[mask.ids < logits.shape[-1]]
            if mask.allow and not len(ids):
                return logits  # nothing could spell it: better any token than none
            index = self.as_index(ids)
            if mask.allow:
                keep = logits[index]
                logits[:] = float("-inf")
                logits[index] = keep
            else:
                logits[index] = float("-inf")
            return logits

    return SteerFilter

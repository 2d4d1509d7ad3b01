"""A request's prompt as token ids, as both CPU engines build it (pure but for the tokenizer)."""

from __future__ import annotations

from dataclasses import replace

from app.errors import InputError
from engine.base import GenerationRequest
from engine.healing import split_heal, split_trailing_blanks
from engine.profiles import ModelProfile
from engine.tokenizer import Tokenizer


def prompt_tokens(
    tokenizer: Tokenizer, profile: ModelProfile, token_healing: bool, req: GenerationRequest
) -> tuple[list[int], str]:
    """Token ids of the request's prompt, and the text cut from the prefix's end.

    Spaces or tabs at the end of the prefix (after ``return ``, an indent) are cut from the
    prompt: BPE vocabularies fold them into the next word's token, so a prompt that ends in
    a lone space token leads the model astray (seen with Qwen2.5-Coder: ``return `` gave a
    wrong line, ``return`` the right one). With ``token_healing`` a partial word at the end
    is cut too (engine/healing.py) and the first tokens are constrained to re-spell it. The
    model then writes the cut text itself; the decode loop removes it from the output.
    """
    if req.prompt is not None:
        parts = req.prompt
        split = split_heal if token_healing else split_trailing_blanks
        prefix, heal = split(parts.prefix)
        if heal:
            parts = replace(parts, prefix=prefix)
        pieces = profile.render(parts)
        return tokenizer.tokenize_pieces(pieces, add_bos=profile.add_bos), heal
    if req.prompt_text is not None:
        bos = list(tokenizer.bos) if profile.add_bos else []
        return bos + tokenizer.tokenize_text(req.prompt_text), ""
    raise InputError("a request needs prompt or prompt_text")

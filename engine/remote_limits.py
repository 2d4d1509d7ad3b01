"""What a remote completions server says of its own limits: requests it runs at once (slots)
and tokens of context per request.

The daemon's scheduler plans for ``max_batch`` requests side by side; a server with fewer slots
queues the rest, and the predicted waits are then too short. Servers say so at different
endpoints, each asked once when the engine starts:

- llama.cpp server ``GET /props``: ``total_slots`` (``--parallel``) and
  ``default_generation_settings.n_ctx``, one slot's context;
- TabbyAPI ``GET /v1/model``: ``parameters.max_batch_size`` and ``parameters.max_seq_len``;
- vLLM ``GET /v1/models``: ``max_model_len`` of the model (no slot count: ``--max-num-seqs`` is
  not published).

llama-cpp-python's server has none of these (its ``/v1/models`` names the model only): nothing
is learnt and the configuration stands. The readers are pure; :func:`probe` asks in that order
and stops at the first endpoint that answers with a limit, or at the first connection error.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

__all__ = ["ServerLimits", "from_llama_cpp_props", "from_tabby_model", "from_vllm_models",
           "probe"]


@dataclass(frozen=True, slots=True)
class ServerLimits:
    slots: int | None = None  # requests the server runs at once
    n_ctx: int | None = None  # tokens of context one request may use
    source: str = ""  # the endpoint that said so (set by ``probe``; "" when none did)

    @property
    def known(self) -> bool:
        return self.slots is not None or self.n_ctx is not None


def _positive(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def from_llama_cpp_props(data: Any) -> ServerLimits:
    """llama.cpp server's ``/props``."""
    if not isinstance(data, dict):
        return ServerLimits()
    settings = data.get("default_generation_settings")
    n_ctx = _positive(settings.get("n_ctx")) if isinstance(settings, dict) else None
    return ServerLimits(_positive(data.get("total_slots")), n_ctx)


def from_tabby_model(data: Any) -> ServerLimits:
    """TabbyAPI's ``/v1/model`` (the loaded model's card)."""
    params = data.get("parameters") if isinstance(data, dict) else None
    if not isinstance(params, dict):
        return ServerLimits()
    return ServerLimits(_positive(params.get("max_batch_size")),
                        _positive(params.get("max_seq_len")))


def from_vllm_models(data: Any, model: str = "") -> ServerLimits:
    """vLLM's ``/v1/models``: ``max_model_len`` of ``model`` (of the only one when ``model``
    is not set)."""
    listed = data.get("data") if isinstance(data, dict) else None
    if not isinstance(listed, list):
        return ServerLimits()
    cards = [c for c in listed if isinstance(c, dict)]
    if model:
        cards = [c for c in cards if c.get("id") == model]
    if len(cards) != 1:
        return ServerLimits()
    return ServerLimits(None, _positive(cards[0].get("max_model_len")))


Get = Callable[[str, float], tuple[int, bytes]]  # (path, timeout s) -> (HTTP status, body)


def probe(get: Get, root: str, model: str, timeout_s: float) -> ServerLimits:
    """Ask the endpoints above in turn (``root``: the server's path before ``/v1``), all within
    ``timeout_s``; OSError from ``get`` (no server there yet) ends it with nothing learnt."""
    readers: tuple[tuple[str, Callable[[Any], ServerLimits]], ...] = (
        ("/props", from_llama_cpp_props),
        ("/v1/model", from_tabby_model),
        ("/v1/models", lambda data: from_vllm_models(data, model)),
    )
    give_up = time.monotonic() + timeout_s
    for path, read in readers:
        left = give_up - time.monotonic()
        if left <= 0:
            break
        try:
            status, body = get(root + path, left)
        except OSError:
            break
        if status != 200:
            continue
        try:
            limits = read(json.loads(body))
        except ValueError:  # not JSON: some other page at that path
            continue
        if limits.known:
            return replace(limits, source=path)
    return ServerLimits()

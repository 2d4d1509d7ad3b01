"""Which engine settings a running engine takes as they change, and which need a new one (pure).

Every ``engine.*`` setting is read when the engine is built (the model, its context size,
threads, the draft model, the KV state slots ...), so changing one means loading a new engine,
except ``engine.speculation``: each request says whether it may speculate. Turning it on needs a
new engine only when a draft model is configured and the running engine was built with
speculation off (it did not load the draft).
"""

from __future__ import annotations

import msgspec

from app.config import EngineConfig, draft_for
from engine.factory import engine_kind

__all__ = ["needs_new_engine"]


def needs_new_engine(running: EngineConfig, new: EngineConfig) -> bool:
    """True when ``new`` settings cannot take effect on an engine built from ``running``."""
    if msgspec.structs.replace(new, speculation=running.speculation) != running:
        return True
    return new.speculation and not running.speculation and bool(draft_for(new, engine_kind(new)))

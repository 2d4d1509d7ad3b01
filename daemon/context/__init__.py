"""The context assembler: what the model sees for one completion point."""

from daemon.context.assemble import (
    assemble_context,
    expected_suffix_tokens,
    stable_text,
    summarize_stable,
)
from daemon.context.types import (
    AssembledContext,
    ContextRequest,
    DroppedSegment,
    Kind,
    Role,
    Segment,
    Tier,
)

__all__ = [
    "AssembledContext",
    "ContextRequest",
    "DroppedSegment",
    "Kind",
    "Role",
    "Segment",
    "Tier",
    "assemble_context",
    "expected_suffix_tokens",
    "stable_text",
    "summarize_stable",
]

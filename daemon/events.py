"""Event subscriptions: which client asked for which topics, and publishing to them.

A client (the tray, ``nospin status --watch``) subscribes with a request id and a set of topics
(``state``, ``metrics``, ``requests``); each event it gets is an ``EventReply`` to that request
id with a per-subscription sequence number. A subscriber whose connection is gone (send fails)
is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from daemon import protocol as p
from daemon.server import Peer


@dataclass(slots=True)
class _Subscription:
    peer: Peer
    request_id: str
    topics: frozenset[str]
    seq: int = 0


class EventHub:
    """The daemon's subscriptions, keyed by (peer, request id)."""

    def __init__(self) -> None:
        self._subs: dict[tuple[str, str], _Subscription] = {}

    def __bool__(self) -> bool:
        return bool(self._subs)

    def subscribe(self, peer: Peer, request_id: str, topics: frozenset[str]) -> None:
        self._subs[(peer.key, request_id)] = _Subscription(peer, request_id, topics)

    def unsubscribe(self, peer: Peer, request_id: str) -> bool:
        """Drop one subscription; whether there was one."""
        return self._subs.pop((peer.key, request_id), None) is not None

    def drop_peer(self, peer: Peer) -> None:
        """A client disconnected: forget its subscriptions."""
        for key, sub in list(self._subs.items()):
            if sub.peer is peer:
                del self._subs[key]

    def publish(self, topic: str, data: dict[str, Any], *,
                only: tuple[Peer, str] | None = None) -> None:
        """Send ``data`` to every subscriber of ``topic`` (``only``: to that one subscription)."""
        target = (only[0].key, only[1]) if only is not None else None
        for key, sub in list(self._subs.items()):
            if topic not in sub.topics or (target is not None and key != target):
                continue
            if not sub.peer.send(p.EventReply(id=sub.request_id, topic=topic, seq=sub.seq,
                                              data=data)):
                self._subs.pop(key, None)
                continue
            sub.seq += 1

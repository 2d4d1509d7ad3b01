"""The socket I/O shell: ZeroMQ ROUTER sockets on asyncio, nothing else.

Reads frames, decodes them (daemon.protocol), answers undecodable ones with an error reply, checks
the tcp token, and hands every request to a :class:`Dispatcher` (the service) together with a
:class:`Peer` to answer through. The dispatcher must not block: long work runs in tasks/threads.

Sockets use ``ROUTER_MANDATORY``: a send to a client that disconnected fails at once, and the
peer reports it (``Peer.send`` returns False) so its work can be cancelled. ``MAXMSGSIZE`` is a
hard cap above the protocol's own size limit: messages between the two get an error reply;
beyond the hard cap libzmq drops the connection (the client library refuses to send those).

On tcp the token in ``hello`` authenticates the connection that sent it, not its routing id: a
client may set its own id, and ROUTER numbers the others in sequence, so a routing id alone
would let another local user take over an authenticated id once its connection is gone. Each
authenticated id is kept with the file descriptor of its connection (``ZMQ_SRCFD`` of the
message), and a socket monitor's disconnect events, read before every authentication check,
drop the ids of closed connections (a new connection may get a closed one's descriptor). The
same events make a closed connection's peer gone at once (its work cancelled, no longer counted
among the clients), as does a new connection with its routing id.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, cast

import msgspec
import zmq
import zmq.asyncio
from zmq.utils.monitor import parse_monitor_message

from app.errors import NospinError, ProtocolError
from daemon import protocol as p

log = logging.getLogger(__name__)

HARD_CAP_MARGIN = 1 << 20  # ZMQ_MAXMSGSIZE = protocol limit + this
HEARTBEAT_IVL_MS = 2000  # ZMTP heartbeats on tcp: dead peers are dropped by libzmq
HEARTBEAT_TIMEOUT_MS = 6000


@dataclass(frozen=True, slots=True)
class Listener:
    """One endpoint the daemon binds; tcp ones require the token in hello."""

    endpoint: str  # "ipc:///run/user/1000/nospin/daemon.sock" or "tcp://127.0.0.1:PORT"
    token: str | None = None  # required token for this endpoint (tcp); None: none (ipc)
    on_bound: Callable[[str], None] | None = None  # called with the endpoint after bind


class Peer:
    """A client as seen by one socket; ``send`` answers it."""

    __slots__ = ("_envelope", "_server", "_socket", "fd", "gone", "key", "last_seen")

    def __init__(self, server: Server, socket: zmq.asyncio.Socket, envelope: tuple[bytes, ...],
                 key: str, fd: int = -1) -> None:
        self._server = server
        self._socket = socket
        self._envelope = envelope
        self.key = key  # stable name of this client connection (for logs and bookkeeping)
        self.fd = fd  # tcp: its connection's file descriptor (-1: not known)
        self.gone = False  # a send failed: the client disconnected
        self.last_seen = time.monotonic()

    def send(self, reply: msgspec.Struct) -> bool:
        """Send one reply; False (and ``gone``) when the client is no longer connected."""
        if self.gone:
            return False
        frames = [*self._envelope, p.encode(reply)]
        fut = cast("asyncio.Future[object]", self._socket.send_multipart(frames))
        if fut.done():
            exc = fut.exception()
            if exc is not None:
                self._mark_gone(exc)
                return False
            return True
        fut.add_done_callback(self._after_send)
        return True

    def _after_send(self, fut: asyncio.Future[object]) -> None:
        if not fut.cancelled() and fut.exception() is not None:
            self._mark_gone(fut.exception())

    def _mark_gone(self, exc: BaseException | None) -> None:
        if not self.gone:
            self.gone = True
            log.info("client %s is gone (%s)", self.key, exc)
            self._server.peer_gone(self)


class Dispatcher(Protocol):
    """What the server hands requests to (daemon.service.Service)."""

    def dispatch(self, peer: Peer, request: p.Request) -> None:
        """Handle one request; must answer it exactly once through ``peer`` (now or later)."""

    def peer_gone(self, peer: Peer) -> None:
        """A client disconnected: cancel its work."""


@dataclass(slots=True)
class _Bound:
    listener: Listener
    socket: zmq.asyncio.Socket
    # tcp: routing id -> file descriptor of the connection that said hello with the token
    authenticated: dict[bytes, int] = field(default_factory=dict)
    monitor: zmq.Socket[bytes] | None = None  # tcp: disconnect events, read without waiting
    monitor_owner: zmq.asyncio.Socket | None = None  # the monitor socket ``monitor`` shadows

    def forget_closed(self) -> set[int]:
        """Drop the authentication of every connection closed since the last call; their
        file descriptors."""
        closed: set[int] = set()
        if self.monitor is None:
            return closed
        while True:
            try:
                event = parse_monitor_message(self.monitor.recv_multipart(zmq.NOBLOCK))
            except zmq.Again:
                return closed
            fd = event["value"]
            closed.add(fd)
            for routing_id in [r for r, f in self.authenticated.items() if f == fd]:
                del self.authenticated[routing_id]

    def close(self, linger_ms: int) -> None:
        if self.monitor_owner is not None:
            self.socket.disable_monitor()
            self.monitor_owner.close(linger=0)
            self.monitor = self.monitor_owner = None
        self.socket.close(linger=linger_ms)


class Server:
    """Binds the listeners and serves until ``stop`` is set."""

    def __init__(
        self,
        dispatcher: Dispatcher,
        listeners: list[Listener],
        *,
        max_message_bytes: int,
        context: zmq.asyncio.Context | None = None,
    ) -> None:
        self._dispatcher = dispatcher
        self._listeners = listeners
        self._max_bytes = max_message_bytes
        self._ctx = context or zmq.asyncio.Context.instance()
        self._bound: list[_Bound] = []
        self._peers: dict[tuple[int, tuple[bytes, ...]], Peer] = {}
        self.num_messages = 0
        self.num_bad_messages = 0

    @property
    def endpoints(self) -> list[str]:
        return [b.listener.endpoint for b in self._bound]

    def bind(self) -> None:
        """Create and bind every socket (raises DaemonError-worthy ZMQError to the caller)."""
        for listener in self._listeners:
            sock = self._ctx.socket(zmq.ROUTER)
            sock.setsockopt(zmq.ROUTER_MANDATORY, 1)
            sock.setsockopt(zmq.MAXMSGSIZE, self._max_bytes + HARD_CAP_MARGIN)
            sock.setsockopt(zmq.LINGER, 0)
            sock.setsockopt(zmq.SNDHWM, 100_000)
            sock.setsockopt(zmq.RCVHWM, 100_000)
            if listener.endpoint.startswith("tcp://"):
                sock.setsockopt(zmq.HEARTBEAT_IVL, HEARTBEAT_IVL_MS)
                sock.setsockopt(zmq.HEARTBEAT_TIMEOUT, HEARTBEAT_TIMEOUT_MS)
            sock.bind(listener.endpoint)
            bound = _Bound(listener, sock)
            if listener.token is not None:
                owner = sock.get_monitor_socket(zmq.EVENT_DISCONNECTED | zmq.EVENT_CLOSED)
                # a plain socket over the same pipe: read without waiting on the event loop
                bound.monitor, bound.monitor_owner = zmq.Socket.shadow(owner.underlying), owner
            if listener.on_bound is not None:
                listener.on_bound(listener.endpoint)
            self._bound.append(bound)
            log.info("listening on %s", listener.endpoint)

    def peer_gone(self, peer: Peer) -> None:
        self._dispatcher.peer_gone(peer)

    def live_peers(self, within_s: float) -> int:
        now = time.monotonic()
        return len({peer.key for peer in self._peers.values()
                    if not peer.gone and now - peer.last_seen < within_s})

    async def serve(self, stop: asyncio.Event) -> None:
        """Receive and dispatch until ``stop`` is set. The sockets stay open (for the final
        replies of the shutdown) until ``close``."""
        if not self._bound:
            self.bind()
        tasks = [asyncio.create_task(self._recv_loop(i, b)) for i, b in enumerate(self._bound)]
        try:
            await stop.wait()
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def close(self, *, linger_ms: int = 500) -> None:
        """Close the sockets, giving queued replies ``linger_ms`` to leave."""
        for b in self._bound:
            b.close(linger_ms)
        self._bound.clear()

    async def _recv_loop(self, index: int, bound: _Bound) -> None:
        with_fd = bound.listener.token is not None
        while True:
            fd = -1
            if with_fd:  # the connection's descriptor, for the token check
                msg = await bound.socket.recv_multipart(copy=False)
                fd = msg[-1].get(zmq.SRCFD)
                frames = [frame.bytes for frame in msg]
            else:
                frames = await bound.socket.recv_multipart()
            try:
                self._on_frames(index, bound, frames, fd)
            except Exception:  # the daemon keeps serving whatever a message does
                log.exception("unexpected error while handling a message")

    def _peer(self, index: int, bound: _Bound, envelope: tuple[bytes, ...], fd: int = -1
              ) -> Peer:
        # keyed by the whole envelope: a connection whose messages come with and without a
        # REQ delimiter gets each reply framed as its request was (one Peer per framing; both
        # share the client's key, so its documents and cancels are one client's)
        key = (index, envelope)
        peer = self._peers.get(key)
        if peer is not None and not peer.gone and peer.fd != fd:
            # tcp: another connection with a closed one's routing id (ROUTER refuses a
            # duplicate while the first lives): the first client is gone
            peer._mark_gone(ConnectionError("its connection closed"))
        if peer is None or peer.gone:
            if len(self._peers) > 10_000:
                self._forget_old_peers()
            peer = Peer(self, bound.socket, envelope, f"{index}:{envelope[0].hex()}", fd)
            self._peers[key] = peer
        peer.last_seen = time.monotonic()
        return peer

    def _forget_old_peers(self) -> None:
        now = time.monotonic()
        for key, peer in list(self._peers.items()):
            if peer.gone or now - peer.last_seen > 600:
                del self._peers[key]

    def _on_frames(self, index: int, bound: _Bound, frames: list[bytes], fd: int = -1) -> None:
        self.num_messages += 1
        if len(frames) < 2:
            return  # no routing identity: nothing can be answered
        # DEALER: [identity, payload]; REQ: [identity, b"", payload]; more frames than that
        # are not a message: its error goes to the client with the id any frame holds
        req = len(frames) >= 3 and frames[1] == b""
        envelope = tuple(frames[:2]) if req else (frames[0],)
        payload = frames[-1]
        extra = frames[len(envelope):-1]
        closed = bound.forget_closed()  # tcp: closed connections' clients are gone
        if closed:  # rare: a scan of the peers only when a connection closed
            for gone in [pr for pr in self._peers.values() if pr.fd in closed and not pr.gone]:
                gone._mark_gone(ConnectionError("its connection closed"))
        peer = self._peer(index, bound, envelope, fd)
        if extra:
            self.num_bad_messages += 1
            ids = [p.recover_id(frame) for frame in (*extra, payload)]
            peer.send(p.error_reply(next((i for i in ids if i is not None), None), ProtocolError(
                f"a message is one frame, not {len(extra) + 1}")))
            return
        try:
            request = p.decode_request(payload, max_bytes=self._max_bytes)
        except ProtocolError as exc:
            self.num_bad_messages += 1
            peer.send(p.error_reply(p.recover_id(payload), exc))
            return
        token = bound.listener.token
        if token is not None and bound.authenticated.get(envelope[0]) != fd:
            if isinstance(request, p.HelloRequest) and hmac.compare_digest(
                request.token.encode(), token.encode()
            ):
                bound.authenticated[envelope[0]] = fd
            else:
                peer.send(p.error_reply(request.id, ProtocolError(
                    "this endpoint needs a hello with the token from the token file first"
                )))
                return
        try:
            self._dispatcher.dispatch(peer, request)
        except NospinError as exc:
            peer.send(p.error_reply(request.id, exc))
        except Exception as exc:
            log.exception("dispatch failed for a %s request", type(request).__name__)
            peer.send(p.error_reply(request.id, NospinError("internal error", detail=repr(exc))))

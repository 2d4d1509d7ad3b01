"""The service's answers besides the stream: a request's one final reply and what follows it
(the completion cache, type-through followers, records), a warm-up's end, completions answered
from the type-through cache, the deadline backstop and the heartbeats. ``daemon.service.Service``
builds on it and calls these from its request coroutines and its ticker."""

from __future__ import annotations

import time

from daemon import protocol as p
from daemon.completion_cache import CacheHit, EntryStatus
from daemon.live import Follower, Live
from daemon.records import Recorder, cache_record, deadline_record, final_record, warmup_record
from daemon.replies import ReplyInput, done, done_reply, final_reply
from daemon.scheduler import EndReason, RequestEnded
from daemon.server import Peer
from daemon.service_documents import ServiceDocuments
from daemon.stages.plan import BACKSTOP_S
from daemon.stages.postprocess import PostprocessInput, postprocess_text
from engine.base import Finished, FinishReason, GenerationStats

HEARTBEAT_S = 1.0  # heartbeat to clients of queued/running requests; detects vanished clients
_COMPLETED = {FinishReason.STOP, FinishReason.LENGTH, FinishReason.NEWLINE, FinishReason.REPETITION}


class ServiceReplies(ServiceDocuments):
    """Final replies, cache answers, backstop and heartbeats of ``daemon.service.Service``."""

    _recorder: Recorder  # set in Service.__init__

    def _answer_from_cache(self, peer: Peer, request_id: str, path: str, hit: CacheHit,
                           now: float) -> bool:
        """Answer a type-through hit at once (or when its streaming source ends)."""
        if hit.status is EntryStatus.STREAMING:
            source = next((lv for lv in self._live.values()
                           if lv.key == hit.source_request_id), None)
            if source is None or source.replied_early:
                # answered at its deadline: it ends when the engine stops it, with a cut text;
                # this request is scheduled on its own instead (and gets its own deadline)
                return False
            source.followers.append(Follower(peer, request_id, now, hit.offset - len(hit.text)))
            return True
        kind = "type_through" if hit.num_typed else "hit"
        self._answer_cached(peer, request_id, path, hit.text, kind, now)
        return True

    def _answer_cached(self, peer: Peer, request_id: str, path: str, text: str, kind: str,
                       arrival: float) -> None:
        """Send a completion answered from the completion cache and record it."""
        reply = done(request_id, text, "stop", 0, "cache", kind, arrival)
        peer.send(reply)
        self._recorder.record(cache_record(request_id, path, reply.timings.total_ms))

    def _reply(self, live: Live, ended: RequestEnded, fin: Finished | None, text: str) -> None:
        """Stage 8: the request's one final reply (``final_reply``; nothing when ``_backstop``
        answered it at its deadline), then the completion cache, the followers, a warm-up of a
        shed completion's document, the records."""
        now = time.monotonic()
        stats = fin.stats if fin is not None else GenerationStats()
        if live.replied_early:  # the client has its answer; the engine is done only now
            if live.cache_key is not None:
                self._cache.discard(live.key)
            return
        if live.cache_key is not None and live.submitted_to is not None:
            if fin is not None and fin.reason is not FinishReason.ERROR and text:
                self._cache.finish(live.key, complete=fin.reason in _COMPLETED, text=text)
            else:
                self._cache.discard(live.key)
        final = final_reply(ReplyInput(live, ended, fin, stats, text, now, self.config.tiers))
        if not final.error_code and live.kind == "generate":
            self._sessions.record(live.path[len("session:"):], live.instruction, text,
                                  time.time())
        self._send_final(live, final.reply)
        self._answer_followers(live, "" if final.error_code else None)
        if ended.reason in (EndReason.SHED, EndReason.EXPIRED) and live.kind == "complete":
            self._warm_up(live, now)
        self._recorder.record_when_stopped(
            live, fin, final_record(live, ended, fin, stats, now, final.error_code))

    def _warmed(self, live: Live, ended: RequestEnded, fin: Finished | None) -> None:
        """A warm-up ended: its document is noted warm when the engine prefilled it."""
        now = time.monotonic()
        stats = fin.stats if fin is not None else GenerationStats()
        if self._warming.get(live.path) == live.key:  # not a newer warm-up that replaced it
            del self._warming[live.path]
        if fin is not None and fin.reason is FinishReason.PREFILLED and live.context is not None:
            self._hints.warm.mark(live.path, live.context.budget_tokens,
                                  fin.stats.num_prompt_tokens)
        self._recorder.record_when_stopped(
            live, fin, warmup_record(live, ended, fin, stats, now))

    def _warm_up(self, shed: Live, now: float) -> None:
        """A completion for a cold document was shed: prefill its prompt in the background
        (design.md §7), so the next keystrokes there find the KV cache warm and get served."""
        self._warm_document(shed.path, shed.text, shed.line, shed.col, shed.language, shed.root,
                            now, multiline=shed.multiline)

    def _answer_followers(self, live: Live, text: str | None) -> None:
        """Answer type-through followers of ``live`` (``text`` None: read from the cache)."""
        for f in live.followers:
            rest = self._cache.read(live.key, f.offset) if text is None else text
            self._answer_cached(f.peer, f.request_id, live.path, rest,
                                "type_through" if f.offset else "hit", f.arrival)
        live.followers = []

    def _backstop(self, now: float) -> None:
        """Answer running requests BACKSTOP_S before their deadline with what they have.

        The engine stops at the deadline between tokens and prefill steps, but a step under load
        can take longer than the time left; the client must not wait past its deadline. The
        scheduler keeps the request running until the engine's Finished arrives (its slot is busy
        until then)."""
        for live in list(self._live.values()):
            if live.replied_early or live.submitted_to is None or live.start is None \
                    or live.peer is None:
                continue
            if now - live.arrival < live.deadline_ms / 1000 - BACKSTOP_S:
                continue
            text = "".join(live.streamed)
            if live.kind == "complete":
                text = postprocess_text(PostprocessInput(live, text, cut_short=True))
            reply = done_reply(live, live.start.tier, FinishReason.DEADLINE.value,
                               GenerationStats(num_generated_tokens=len(live.streamed)),
                               text, now, self.config.tiers)
            live.replied_early = True
            live.peer.send(reply)  # (warm-ups were skipped above)
            self._answer_followers(live, None)
            # recorded when the engine stops it, with what it prefilled and decoded
            self._recorder.hold(live.key, deadline_record(live, now), now)

    def _send_final(self, live: Live, reply: p.DoneReply | p.ErrorReply) -> None:
        live.state = "done"
        self._live.pop(live.key, None)
        if live.peer is not None:
            live.peer.send(reply)

    def _heartbeat(self, now: float) -> None:
        for live in list(self._live.values()):
            if live.peer is not None and not live.replied_early \
                    and now - live.last_sent >= HEARTBEAT_S:
                live.last_sent = now
                state = "loading" if self.supervisor.state != "ready" else live.state
                live.peer.send(p.HeartbeatReply(id=live.request_id, state=state))
        for request_id, peer in list(self._config_waiting.items()):
            peer.send(p.HeartbeatReply(id=request_id, state="loading"))

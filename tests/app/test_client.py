"""The client library (asyncio core and blocking wrapper) against a real daemon socket."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import zmq
import zmq.asyncio

from app.client import PROBE_AFTER_S, PROBE_TIMEOUT_S, AsyncClient, Client
from app.errors import ConfigError, CursorError, DaemonError, InputError, ProtocolError
from daemon import lifecycle
from daemon import protocol as p
from tests.daemon.fakes import FakeEngine
from tests.daemon.harness import DaemonHandle, running_daemon, short_home, write_project

REPO = Path(__file__).parents[2]


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_home(monkeypatch) as path:
        yield path


@pytest.fixture
def daemon(home: Path) -> Iterator[DaemonHandle]:
    with running_daemon() as handle:
        yield handle


def test_async_complete_streams_and_maps_errors(daemon: DaemonHandle, home: Path) -> None:
    src = write_project(home / "proj")

    async def main() -> None:
        async with AsyncClient(autostart=False) as client:
            assert client.hello is not None and client.hello.protocol == 1
            chunks: list[str] = []
            done = await client.complete(str(src), 1, 4, multiline=True, on_chunk=chunks.append)
            assert done.text.startswith("return a + b") and "".join(chunks).startswith("return")
            # concurrent requests on one connection
            results = await asyncio.gather(*[
                client.status() for _ in range(5)])
            assert all(r.pid == results[0].pid for r in results)
            with pytest.raises(CursorError):
                await client.complete(str(src), 50, 0)
            with pytest.raises(InputError):
                await client.complete(str(home / "missing.py"), 0, 0)
            with pytest.raises(ConfigError):
                await client.config_set({"tiers.normal_ms": -1})
            reply = await client.config_set({"tiers.cap_tokens": 12}, note="test")
            assert reply.snapshot and reply.values["tiers"]["cap_tokens"] == 12
            assert await client.config_get("tiers.cap_tokens") == {"tiers.cap_tokens": 12}

    asyncio.run(main())


def test_async_subscribe_receives_pushed_events(daemon: DaemonHandle, home: Path) -> None:
    src = write_project(home / "proj")

    async def main() -> None:
        async with AsyncClient(autostart=False) as client:
            events = client.subscribe(("requests", "state"))
            first = await asyncio.wait_for(anext(events), 5)
            assert first.topic == "state"
            await client.complete(str(src), 1, 4)
            seqs = [first.seq]
            while True:
                event = await asyncio.wait_for(anext(events), 5)
                seqs.append(event.seq)
                if event.topic == "requests":
                    break
            await client.fast_mode(True)
            while True:
                event = await asyncio.wait_for(anext(events), 5)
                seqs.append(event.seq)
                if event.topic == "state" and event.data["fast_mode"] is True:
                    break
            assert seqs == list(range(len(seqs)))  # no gaps
            await events.aclose()

    asyncio.run(main())


def test_blocking_client_is_the_same_api(daemon: DaemonHandle, home: Path) -> None:
    src = write_project(home / "proj")
    with Client(autostart=False) as client:
        client.open(str(src), "def mul(a, b):\n    \n")
        done = client.complete(str(src), 1, 4, multiline=False)
        assert done.text == "return a + b" and done.tier in (1, 2, 3)
        status = client.status()
        assert status.num_documents == 1
        client.close_document(str(src))
        assert client.status().num_documents == 0


def test_no_daemon_and_no_autostart_is_a_clear_error(home: Path) -> None:
    with pytest.raises(DaemonError, match="no nospin daemon is running"), Client(
        autostart=False
    ):
        pass


def test_oversized_request_refused_locally(daemon: DaemonHandle) -> None:
    async def main() -> None:
        async with AsyncClient(autostart=False, max_message_bytes=1000) as client:
            with pytest.raises(ProtocolError, match="over the limit"):
                await client.open("/x.py", "x" * 5000)
            assert (await client.status()).pid

    asyncio.run(main())


def test_idle_timeout_when_daemon_stops_answering(home: Path) -> None:
    with running_daemon() as d:
        client = Client(autostart=False, idle_timeout_s=1.0)
        client.connect()
        d.call(lambda: setattr(d.service, "dispatch", lambda peer, req: None))
        with pytest.raises(DaemonError, match="no reply from the daemon"):
            client.status()
        client.close()


def test_a_refused_hello_leaves_no_socket_open() -> None:
    # a hello that gets no answer: connect() closes the socket again (in `async with`, a failed
    # __aenter__ does not run __aexit__; left open, the socket warned in a later test)
    async def main() -> None:
        ctx = zmq.asyncio.Context()
        silent = ctx.socket(zmq.ROUTER)  # takes the hello, never answers
        port = silent.bind_to_random_port("tcp://127.0.0.1")
        client = AsyncClient(f"tcp://127.0.0.1:{port}", token="t", autostart=False,
                             idle_timeout_s=0.3, context=ctx)
        try:
            with pytest.raises(DaemonError, match="no reply from the daemon"):
                async with client:
                    pass
            assert client._sock is None
            with pytest.raises(DaemonError, match="no reply from the daemon"):
                await client.connect()  # the plain form: nothing to close either
            assert client._sock is None
        finally:
            await client.close()
            silent.close(linger=0)
            ctx.term()

    asyncio.run(main())


def test_leaving_a_stream_early_cancels_it_without_a_stray_reply(
        daemon: DaemonHandle, home: Path) -> None:
    # the daemon answers the cancel the client sends on its own: that answer is expected,
    # not a duplicate final reply (`bench load` counted it as one)
    src = write_project(home / "proj")

    async def main() -> None:
        async with AsyncClient(autostart=False) as client:
            msg = p.CompleteRequest(id="c1", path=str(src), line=1, col=4,
                                    options=p.CompleteOptions(multiline=True))
            async for reply in client.stream(msg):
                assert isinstance(reply, p.ChunkReply)
                break  # the user typed on: leave after the first chunk
            assert (await client.status()).pid  # the cancel's reply has come back by now
            await asyncio.sleep(0.3)
            assert client.num_unexpected_finals == 0
            assert not client._unawaited

    asyncio.run(main())


def test_a_daemon_that_goes_away_fails_waiting_requests_at_once() -> None:
    # a DEALER queues requests for a vanished peer silently: the client used to wait for its
    # idle timeout; the socket monitor's disconnect event ends them within moments
    async def main() -> None:
        ctx = zmq.asyncio.Context()
        daemon = ctx.socket(zmq.ROUTER)
        daemon.setsockopt(zmq.LINGER, 0)
        port = daemon.bind_to_random_port("tcp://127.0.0.1")
        client = AsyncClient(f"tcp://127.0.0.1:{port}", token="t", autostart=False,
                             idle_timeout_s=30, context=ctx)
        lost: list[str | None] = []
        client.on_lost = lambda: lost.append(client.lost)

        async def answer_hello() -> None:
            peer, data = await daemon.recv_multipart()
            request = p.decode_request(data, max_bytes=1_000_000)
            await daemon.send_multipart([peer, p.encode(p.HelloReply(
                id=request.id, protocol=p.PROTOCOL_VERSION, version="0", pid=1, engine="fake",
                engine_state="ready"))])
            await daemon.recv_multipart()  # the status request: never answered

        try:
            hello = asyncio.ensure_future(answer_hello())
            await client.connect()
            pending = asyncio.ensure_future(client.status())
            await asyncio.wait_for(hello, 10)
            daemon.close(linger=0)
            loop = asyncio.get_running_loop()
            started = loop.time()
            with pytest.raises(DaemonError, match="closed the connection"):
                await asyncio.wait_for(pending, 10)
            assert loop.time() - started < 5
            assert lost == [client.lost] and client.lost is not None
            with pytest.raises(DaemonError, match="closed the connection"):
                await client.status()  # later requests fail when sent
        finally:
            await client.close()
            daemon.close(linger=0)
            ctx.term()

    asyncio.run(main())


def test_a_slow_daemon_is_probed_and_not_taken_for_a_hung_one(home: Path) -> None:
    # an engine that takes 3 s for its one token: nothing but heartbeats meanwhile, gaps that
    # pass the (here short) probe interval; the probes are answered, so the request waits on
    with running_daemon(engine_factory=lambda: FakeEngine(token_delay_s=3.0)):
        src = write_project(home / "proj")

        async def main() -> None:
            async with AsyncClient(autostart=False, probe_after_s=0.3,
                                   probe_timeout_s=0.5) as client:
                hung: list[str | None] = []
                client.on_hung = lambda: hung.append(client.hung)
                done = await client.complete(str(src), 1, 4, max_tokens=1, deadline_ms=20_000)
                assert done.text == "return" and done.timings.total_ms >= 3000
                assert hung == [] and client.hung is None
                await asyncio.sleep(0.3)  # the probes' answers are not duplicates
                assert client.num_unexpected_finals == 0

        asyncio.run(main())


@pytest.fixture
def daemon_process(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A real daemon process (``nospin daemon``, scripted engine), as a client would start
    it; its pid. Continued, should a test leave it stopped, and stopped at the end."""
    monkeypatch.setenv("NOSPIN_ENGINE_FACTORY", "tests.daemon.fakes:make_engine")
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    proc, log_file = lifecycle.spawn_daemon()
    try:
        lifecycle.wait_for_socket(proc, log_file, timeout_s=30)
        yield proc.pid
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGCONT)
        lifecycle.stop_daemon(20.0)
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


def test_a_stopped_daemon_is_reported_not_responding_and_recovers(
        daemon_process: int, home: Path) -> None:
    # a daemon that hangs with its connection open (SIGSTOP, a debugger) used to be noticed
    # only at the idle timeout (15 s); a probe unanswered for 2 s after 2 s of silence says so
    src = write_project(home / "proj")

    async def main() -> None:
        loop = asyncio.get_running_loop()
        async with AsyncClient(autostart=False, idle_timeout_s=60) as client:
            assert client.hello is not None and client.hello.pid == daemon_process
            pid = daemon_process
            events: list[str] = []
            client.on_hung = lambda: events.append("hung")
            client.on_resumed = lambda: events.append("resumed")
            await client.open(str(src), src.read_text())
            os.kill(pid, signal.SIGSTOP)
            try:
                started = loop.time()
                with pytest.raises(DaemonError, match="the daemon is not responding"):
                    await client.complete(str(src), 1, 4, deadline_ms=30_000)
                took = loop.time() - started
                print(f"not responding reported after {took:.2f} s")
                assert PROBE_AFTER_S + PROBE_TIMEOUT_S - 0.1 < took < 7.0, took
                assert events == ["hung"] and client.hung is not None and client.lost is None
                started = loop.time()  # later requests fail at once (not sent)
                with pytest.raises(DaemonError, match="the daemon is not responding"):
                    await client.status()
                assert loop.time() - started < 0.5
            finally:
                os.kill(pid, signal.SIGCONT)
            for _ in range(100):  # the probe's answer comes once it runs again
                if client.hung is None:
                    break
                await asyncio.sleep(0.05)
            assert events == ["hung", "resumed"] and client.hung is None
            status = await client.status()
            assert status.pid == pid and status.num_documents == 1  # the same daemon
            done = await client.complete(str(src), 1, 4, multiline=False)
            assert done.text == "return a + b"
            await asyncio.sleep(0.3)  # the late answers to the requests it got before it stopped
            assert client.num_unexpected_finals == 0

    asyncio.run(main())


def process_state(pid: int) -> str | None:
    """The state letter of process ``pid`` (``Z``: a zombie nobody reaped); None when gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return None
    return stat.rpartition(")")[2].split()[0]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_started_daemon_outlives_the_client_and_is_reaped_when_it_stops(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The client threw away the process handle of the daemon it started: the handle's
    collection warned (ResourceWarning "subprocess ... is still running") and nobody waited
    for the daemon, which stayed a zombie of this process once stopped. Now the daemon keeps
    running after the client closes, nothing warns, and it is reaped when it exits."""
    import gc
    import warnings

    monkeypatch.setenv("NOSPIN_ENGINE_FACTORY", "tests.daemon.fakes:make_engine")
    monkeypatch.setenv("PYTHONPATH", str(REPO))

    async def main() -> int:
        async with AsyncClient() as client:  # starts one: none runs
            assert client.started_daemon and client.hello is not None
            return client.hello.pid

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        pid = asyncio.run(main())
        gc.collect()
    try:
        assert [str(w.message) for w in caught if w.category is ResourceWarning] == []
        assert process_state(pid) not in (None, "Z")  # outlives the client
    finally:
        lifecycle.stop_daemon(20.0)
    for _ in range(100):
        if process_state(pid) is None:
            break
        time.sleep(0.05)
    assert process_state(pid) is None  # reaped, not a zombie

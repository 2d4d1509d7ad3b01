"""Memory under a long protocol fuzz: clients that open documents, send malformed and huge
messages, and vanish without closing. Prints JSON: the daemon's RSS (this process, the daemon
in a thread with the test suite's scripted engine) at the start and the end, and the open
documents left (bounded per client and released when idle: ``daemon.document_idle_s``).

    python -m bench.fuzz_memory --clients 40 --messages 200
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time


def _rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=40, help="clients, one after the other")
    ap.add_argument("--messages", type=int, default=200, help="messages per client")
    ap.add_argument("--idle-s", type=float, default=2.0, help="daemon.document_idle_s")
    args = ap.parse_args(argv)
    os.environ["NOSPIN_HOME"] = tempfile.mkdtemp(prefix="nsfm", dir="/tmp")
    from app.config import Config, DaemonConfig, default_config_path
    from daemon.in_thread import daemon_in_thread
    from tests.daemon.fakes import FakeEngine
    from tests.daemon.harness import RawClient

    rng = random.Random(45)
    config = Config(daemon=DaemonConfig(max_documents_per_client=20,
                                        document_idle_s=args.idle_s))
    with daemon_in_thread(config, engine_factory=lambda: FakeEngine(token_delay_s=0.0),
                          config_path=default_config_path()) as d:
        start_mb = _rss_mb()
        for c in range(args.clients):
            client = RawClient(d.endpoint)
            for i in range(args.messages):
                r = rng.random()
                path = f"/fuzz/c{c}/f{rng.randrange(40)}.py"
                if r < 0.4:
                    msg: dict[str, object] = {"type": "open", "path": path,
                                              "text": "x = 1\n" * rng.randrange(1, 3000)}
                elif r < 0.7:
                    msg = {"type": "complete", "path": path, "line": 0, "col": 0,
                           "options": {"max_tokens": 4}}
                elif r < 0.75:
                    msg = {"type": "open", "path": path, "text": "\0" * 800_000}
                else:
                    msg = {"type": rng.choice(["status", "nope"]), "x": rng.random()}
                client.send({**msg, "id": f"{c}-{i}"})
            finals = 0
            while finals < args.messages:  # every message's one final reply, in any order
                if client.recv(30)["type"] not in ("chunk", "heartbeat", "event"):
                    finals += 1
            client.close()  # vanishes without closing its documents
            print(f"client {c + 1}/{args.clients}", file=sys.stderr)
        opened_mb = _rss_mb()
        docs_before = d.call(lambda: len(d.service._docs))
        time.sleep(args.idle_s + 1.5)
        print(json.dumps({
            "clients": args.clients, "messages": args.clients * args.messages,
            "rss_start_mb": round(start_mb, 1), "rss_after_fuzz_mb": round(opened_mb, 1),
            "rss_end_mb": round(_rss_mb(), 1), "documents_after_fuzz": docs_before,
            "documents_end": d.call(lambda: len(d.service._docs)),
        }))
    return 0


if __name__ == "__main__":
    sys.exit(main())

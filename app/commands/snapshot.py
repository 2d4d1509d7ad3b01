"""``nospin snapshot list|show|diff``: configuration snapshots with the metrics before each change.

Reads the snapshot folder directly (no daemon needed); the daemon writes a snapshot on every
``config set`` and fast-mode toggle.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from daemon.snapshots import SnapshotStore, format_diff, format_list


def register(sub: Any) -> None:
    parser = sub.add_parser("snapshot", help="configuration snapshots and their metrics")
    snap = parser.add_subparsers(dest="snapshot_command", metavar="ACTION", required=True)
    p_list = snap.add_parser("list", help="all snapshots, oldest first")
    p_list.add_argument("--json", action="store_true")
    p_show = snap.add_parser("show", help="one snapshot (id, id prefix, latest, previous)")
    p_show.add_argument("ref", nargs="?", default="latest")
    p_diff = snap.add_parser("diff", help="config changes and metric deltas between two")
    p_diff.add_argument("old", nargs="?", default="previous")
    p_diff.add_argument("new", nargs="?", default="latest")
    p_diff.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    store = SnapshotStore()
    if args.snapshot_command == "list":
        snaps = store.list()
        if args.json:
            print(json.dumps([s.to_dict() for s in snaps], indent=2))
        else:
            print(format_list(snaps))
        return 0
    if args.snapshot_command == "show":
        print(json.dumps(store.show(args.ref).to_dict(), indent=2))
        return 0
    diff = store.diff(args.old, args.new)
    if getattr(args, "json", False):
        print(json.dumps({
            "old": diff.old.id, "new": diff.new.id,
            "config_changes": [{"key": c.key, "old": c.old, "new": c.new}
                               for c in diff.config_changes],
            "metric_deltas": [{"key": d.key, "old": d.old, "new": d.new, "delta": d.delta}
                              for d in diff.metric_deltas],
        }, indent=2))
    else:
        print(format_diff(diff))
    return 0

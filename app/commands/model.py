"""``nospin model path|prepare|verify|info``: where the model is, whether it is intact, what it is.

``path`` assembles the embedded model (or a packaged model named by ``--model``, e.g.
``qwen2.5-coder-1.5b``) on first use and prints its path; ``prepare`` also makes the weights the
CPU engine loads (engine/requantize.py), which the first daemon start makes otherwise (about 7 s
before it is ready); ``verify`` rehashes the configured model (``engine.model``, or
``--model``) fully against its pinned sha256 (a file against ``--sha256``) and says which it
verified; a configured file that does not exist, or has no hash to compare, is an error;
``info`` prints the GGUF metadata and the prompt profile the factory would choose, as JSON.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from app import config as config_mod
from app.commands import model_choose
from app.errors import ModelError

_MODEL_HELP = (
    "a model name (embedded, qwen2.5-coder-1.5b) or GGUF file instead of the configured model"
)


def register(sub: Any) -> None:
    parser = sub.add_parser("model", help="the model: path, prepare, verify, info, choose")
    model_sub = parser.add_subparsers(dest="model_command", metavar="ACTION")
    p = model_sub.add_parser(
        "path", help="print the model file's path (assembles the embedded one)"
    )
    p.add_argument("--model", default=None, help=_MODEL_HELP)
    p.set_defaults(func=_path)
    r = model_sub.add_parser(
        "prepare", help="assemble the model and make the weights the CPU engine loads"
    )
    r.add_argument("--model", default=None, help=_MODEL_HELP)
    r.set_defaults(func=_prepare)
    v = model_sub.add_parser("verify", help="rehash the configured model and compare its sha256")
    v.add_argument(
        "--model", default=None, help="a model name or GGUF file instead of the configured model"
    )
    v.add_argument("--sha256", default=None, help="expected hash of a model file")
    v.set_defaults(func=_verify)
    i = model_sub.add_parser("info", help="GGUF metadata and the chosen prompt profile (JSON)")
    i.add_argument("--model", default=None, help=_MODEL_HELP)
    i.set_defaults(func=_info)
    model_choose.register(model_sub)
    parser.set_defaults(func=lambda _args: (parser.print_help(), 2)[1])


def _model_spec(args: argparse.Namespace) -> str:
    if args.model is not None:
        return str(args.model)
    return config_mod.load().engine.model


def _path(args: argparse.Namespace) -> int:
    from engine.models import resolve_model_path

    print(resolve_model_path(_model_spec(args)))
    return 0


def _prepare(args: argparse.Namespace) -> int:
    from engine.factory import resolved
    from engine.models import resolve_model_path
    from engine.requantize import applies, prepare

    cfg = resolved(config_mod.load().engine)  # "auto" is the CPU engine that runs
    path = resolve_model_path(_model_spec(args))
    print(f"model  {path}")
    done = prepare(path) if applies(cfg) else None
    if done is None:
        print(f"loads  {path} (as it is)")
    elif done.status == "failed":  # the engine runs on the source: a warning, not a failed setup
        print(f"loads  {path} (as it is: its {done.kind} weights could not be made)")
    elif done.status == "made":
        print(f"loads  {done.path} ({done.kind}, made in {done.seconds:.1f} s)")
    else:
        print(f"loads  {done.path} ({done.kind}, {done.status})")
    return 0


def _verify(args: argparse.Namespace) -> int:
    """Rehash ``--model``, else the configured ``engine.model`` (a packaged model against its
    pinned hash, a file against ``--sha256``), and say which model that was."""
    from engine.models import embedded_model_path, packaged_model, verify_model

    configured = args.model is None
    spec = config_mod.load().engine.model if configured else str(args.model)
    what = "engine.model" if configured else "--model"
    model = packaged_model(spec)
    if model is not None:
        path, expected = embedded_model_path(model), str(args.sha256 or model.sha256)
        label = f"{model.title} ({model.name})"
    else:
        path = Path(spec).expanduser()
        label = ""
        if not configured and not args.sha256:
            raise ModelError("--sha256 is required with a --model file")
        if not path.exists():
            raise ModelError(f"{what} {path} does not exist",
                             detail="fix engine.model in the config" if configured else None)
        if not args.sha256:
            raise ModelError(f"engine.model {path} has no reference sha256 to compare: "
                             "nothing verified", detail="pass the expected hash with --sha256")
        expected = str(args.sha256)
    verify_model(path, expected)
    print(f"ok {what}: {label + ' ' if label else ''}{path} sha256 {expected}")
    return 0


def _info(args: argparse.Namespace) -> int:
    from engine.factory import profile_for, resolved
    from engine.models import read_gguf_metadata, resolve_model_path
    from engine.requantize import applies, describe

    cfg = resolved(config_mod.load().engine)  # "auto" is the CPU engine that runs
    path = resolve_model_path(_model_spec(args))
    metadata = read_gguf_metadata(path) if path.is_file() else {}
    profile = profile_for(cfg, path)
    out: dict[str, object] = {"path": str(path), "profile": profile.name, "fim": profile.fim,
                              "metadata": metadata}
    if applies(cfg) and path.is_file():
        out["cpu_weights"] = describe(path)  # what the CPU engine loads instead (docs/engine.md)
    print(json.dumps(out, indent=2))
    return 0

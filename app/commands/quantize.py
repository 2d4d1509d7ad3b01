"""``nospin model quantize HF_DIR OUT_DIR --bits B``: make an EXL2 model with exllamav2's converter.

Runs ``python -m exllamav2.conversion.convert_exl2 -i HF_DIR -o WORK_DIR -cf OUT_DIR -b BITS
-hb HEAD_BITS`` (exllamav2 0.3.2) in a child process, with its output passed through: a
measurement pass, then quantization to the target bits per weight, then OUT_DIR gets the
quantized safetensors plus the model's config and tokenizer files. The work folder holds the
converter's job state: run the same command again to resume an interrupted conversion.

Needs a CUDA GPU, torch and exllamav2 (``pip install 'nospin[gpu]'``); elsewhere it stops with
a clear error before doing anything.

Registration: ``add_quantize_parser(model_subparsers)`` adds ``quantize`` to a ``model`` command
group; ``app.commands.model`` (``nospin model path|verify``) should call it. ``register`` adds it
to an already registered ``model`` group, or creates the group when no ``app.commands.model``
module exists.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.errors import ConfigError, EngineUnavailable, InputError, ModelError

CONVERTER_MODULE = "exllamav2.conversion.convert_exl2"
HEAD_BITS = (2, 3, 4, 5, 6, 8)  # exllamav2/conversion/qparams.py: qparams_headoptions
MIN_BITS, MAX_BITS = 2.0, 8.0


def add_quantize_parser(model_subparsers: Any) -> argparse.ArgumentParser:
    """Add ``quantize`` to the subparsers of a ``model`` command group; return its parser."""
    p: argparse.ArgumentParser = model_subparsers.add_parser(
        "quantize",
        help="make an EXL2 model from an HF safetensors folder (needs a CUDA GPU)",
        description="Make an EXL2 model from an HF safetensors folder with exllamav2's converter.",
    )
    p.add_argument("hf_dir", metavar="HF_DIR", help="HF model folder (config.json, safetensors)")
    p.add_argument("out_dir", metavar="OUT_DIR", help="folder for the EXL2 model (new or empty)")
    p.add_argument(
        "--bits", type=float, required=True, help="target bits per weight (2 to 8, e.g. 4.0)"
    )
    p.add_argument(
        "--head-bits",
        type=int,
        default=6,
        choices=HEAD_BITS,
        help="bits of the output head layer (default 6)",
    )
    p.add_argument(
        "--work-dir",
        default="",
        help="converter work folder (default OUT_DIR.work; kept to resume, removed on success)",
    )
    p.add_argument(
        "--dataset-rows",
        type=int,
        default=0,
        help="calibration rows (default: the converter's, 100); fewer is faster and coarser",
    )
    p.add_argument(
        "--length",
        type=int,
        default=0,
        help="tokens per calibration row (default: the converter's, 2048)",
    )
    p.set_defaults(func=run)
    return p


def register(sub: Any) -> None:
    """Register ``nospin model quantize`` (see the module doc for how it shares ``model``)."""
    existing = sub.choices.get("model")
    if existing is not None:
        model_sub = _find_subparsers(existing)
        if model_sub is not None and "quantize" not in model_sub.choices:
            add_quantize_parser(model_sub)
        return
    if importlib.util.find_spec("app.commands.model") is not None:
        return  # that module owns the group and calls add_quantize_parser itself
    parser = sub.add_parser("model", help="model files: quantize")
    add_quantize_parser(parser.add_subparsers(dest="model_command", metavar="ACTION"))


def _find_subparsers(parser: argparse.ArgumentParser) -> Any:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def build_convert_command(
    *,
    hf_dir: Path,
    out_dir: Path,
    work_dir: Path,
    bits: float,
    head_bits: int,
    dataset_rows: int = 0,
    length: int = 0,
    python: str = sys.executable,
) -> list[str]:
    """The converter's command line."""
    cmd = [
        python,
        "-P",  # the working directory stays off sys.path (a folder there named like a module)
        "-m",
        CONVERTER_MODULE,
        "-i",
        str(hf_dir),
        "-o",
        str(work_dir),
        "-cf",
        str(out_dir),
        "-b",
        f"{bits:g}",
        "-hb",
        str(head_bits),
    ]
    if dataset_rows > 0:
        cmd += ["-r", str(dataset_rows), "-mr", str(min(dataset_rows, 16))]
    if length > 0:
        cmd += ["-l", str(length), "-ml", str(length)]
    return cmd


def check_inputs(hf_dir: Path, out_dir: Path, bits: float, head_bits: int) -> None:
    """Validate arguments before anything heavy runs; raise InputError/ModelError."""
    if not MIN_BITS <= bits <= MAX_BITS:
        raise InputError(f"--bits must be between {MIN_BITS:g} and {MAX_BITS:g}, not {bits:g}")
    if head_bits not in HEAD_BITS:
        raise InputError(f"--head-bits must be one of {', '.join(map(str, HEAD_BITS))}")
    from engine.exllama_backend import check_model_dir

    check_model_dir(str(hf_dir), what="HF_DIR")
    if out_dir.exists() and (not out_dir.is_dir() or any(out_dir.iterdir())):
        raise InputError(f"OUT_DIR {str(out_dir)!r} exists and is not an empty folder")
    if out_dir.resolve() == hf_dir.resolve():
        raise InputError("OUT_DIR must differ from HF_DIR")


def check_conversion(work_dir: Path, out_dir: Path) -> dict[str, Any]:
    """Confirm the converter finished (it exits 0 on some failures); return the quant config."""
    try:
        job = json.loads((work_dir / "job_new.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(
            "the converter did not start a job; see its output above", detail=str(exc)
        ) from exc
    if job.get("progress") != "finished":
        raise ModelError(
            f"the conversion stopped at stage {job.get('progress')!r}; run the same command "
            f"again to resume from {str(work_dir)!r}"
        )
    try:
        config = json.loads((out_dir / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(f"{str(out_dir)!r} has no readable config.json", detail=str(exc)) from exc
    qcfg = config.get("quantization_config") or {}
    if qcfg.get("quant_method") != "exl2" or not any(out_dir.glob("*.safetensors")):
        raise ModelError(f"{str(out_dir)!r} does not hold an EXL2 model after conversion")
    result: dict[str, Any] = dict(qcfg)
    return result


def converter_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The converter's environment: ``EXLLAMA_NO_SDPA`` set, so that without flash-attn its
    calibration forwards attend causally (exllamav2 0.3.2's SDPA path passes no causal mask:
    engine/exllama.py, docs/gpu.md); with flash-attn the switch changes nothing."""
    return {**environ, "EXLLAMA_NO_SDPA": "1"}  # exllamav2 tests only for the name


def check_converter_available() -> None:
    """Raise EngineUnavailable unless torch with CUDA, exllamav2 and its converter's needs exist."""
    from engine.exllama_backend import import_backend

    import_backend()  # torch with CUDA and exllamav2 (builds its extension on first use)
    missing = [m for m in ("pandas", "fastparquet") if importlib.util.find_spec(m) is None]
    if missing:
        raise EngineUnavailable(
            f"exllamav2's converter needs {' and '.join(missing)}: pip install {' '.join(missing)}"
        )


def run(args: argparse.Namespace) -> int:
    hf_dir = Path(args.hf_dir).expanduser()
    out_dir = Path(args.out_dir).expanduser()
    work_dir = Path(args.work_dir).expanduser() if args.work_dir else Path(f"{out_dir}.work")
    resuming = (work_dir / "job_new.json").is_file()
    if not resuming:
        check_inputs(hf_dir, out_dir, args.bits, args.head_bits)
    check_converter_available()
    cmd = build_convert_command(
        hf_dir=hf_dir,
        out_dir=out_dir,
        work_dir=work_dir,
        bits=args.bits,
        head_bits=args.head_bits,
        dataset_rows=args.dataset_rows,
        length=args.length,
    )
    work_dir.mkdir(parents=True, exist_ok=True)
    try:
        proc = subprocess.run(cmd, check=False, env=converter_env(os.environ))
    except OSError as exc:
        raise ConfigError(f"cannot run {sys.executable}", detail=str(exc)) from exc
    if proc.returncode != 0:
        raise ModelError(
            f"exllamav2's converter failed (exit {proc.returncode}); run the same command "
            f"again to resume from {str(work_dir)!r}"
        )
    qcfg = check_conversion(work_dir, out_dir)
    shutil.rmtree(work_dir, ignore_errors=True)
    print(
        json.dumps(
            {
                "out_dir": str(out_dir),
                "bits": qcfg.get("bits"),
                "head_bits": qcfg.get("head_bits"),
                "exllamav2": qcfg.get("version"),
            }
        )
    )
    return 0

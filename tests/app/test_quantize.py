"""``nospin model quantize``: the pure parts (arguments, the converter's command and environment,
the check after it). The conversion itself runs in the GPU check (bench/gpu_engine.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.commands.quantize import (
    build_convert_command,
    check_conversion,
    check_inputs,
    converter_env,
)
from app.errors import InputError, ModelError

REPO = Path(__file__).parents[2]


def hf_folder(path: Path) -> Path:
    path.mkdir()
    for name in ("config.json", "tokenizer.json", "model.safetensors"):
        (path / name).write_text("{}")
    return path


def test_the_command_resumes_in_its_work_folder(tmp_path: Path) -> None:
    cmd = build_convert_command(
        hf_dir=tmp_path / "hf", out_dir=tmp_path / "out", work_dir=tmp_path / "w", bits=4.0,
        head_bits=6, dataset_rows=40, length=512, python="py",
    )
    assert cmd[:4] == ["py", "-P", "-m", "exllamav2.conversion.convert_exl2"]
    assert cmd[cmd.index("-o") + 1] == str(tmp_path / "w")
    assert cmd[cmd.index("-b") + 1] == "4" and cmd[cmd.index("-hb") + 1] == "6"
    assert cmd[cmd.index("-r") + 1] == "40" and cmd[cmd.index("-mr") + 1] == "16"
    assert cmd[cmd.index("-l") + 1] == "512" and cmd[cmd.index("-ml") + 1] == "512"


def test_the_converter_attends_causally_without_flash_attn() -> None:
    env = converter_env({"PATH": "/bin"})
    assert env == {"PATH": "/bin", "EXLLAMA_NO_SDPA": "1"}


@pytest.mark.parametrize(("change", "error", "words"), [
    (lambda hf, out: None, None, ""),
    (lambda hf, out: (hf / "tokenizer.json").unlink(), ModelError, "no tokenizer.json"),
    (lambda hf, out: (hf / "model.safetensors").unlink(), ModelError, "no .safetensors"),
    (lambda hf, out: (out.mkdir(), (out / "x").write_text("")), InputError, "not an empty"),
])
def test_inputs_are_checked_before_anything_heavy(
    tmp_path: Path, change: object, error: type[Exception] | None, words: str
) -> None:
    hf, out = hf_folder(tmp_path / "hf"), tmp_path / "out"
    change(hf, out)  # type: ignore[operator]
    if error is None:
        check_inputs(hf, out, 4.0, 6)
        return
    with pytest.raises(error, match=words):
        check_inputs(hf, out, 4.0, 6)


def test_bits_out_of_range(tmp_path: Path) -> None:
    hf = hf_folder(tmp_path / "hf")
    with pytest.raises(InputError, match="--bits"):
        check_inputs(hf, tmp_path / "out", 9.0, 6)
    with pytest.raises(InputError, match="--head-bits"):
        check_inputs(hf, tmp_path / "out", 4.0, 7)


def test_a_conversion_that_stopped_says_where_to_resume(tmp_path: Path) -> None:
    work, out = tmp_path / "w", tmp_path / "out"
    work.mkdir()
    out.mkdir()
    with pytest.raises(ModelError, match="did not start a job"):
        check_conversion(work, out)
    (work / "job_new.json").write_text(json.dumps({"progress": "measure"}))
    with pytest.raises(ModelError, match="stopped at stage 'measure'"):
        check_conversion(work, out)
    (work / "job_new.json").write_text(json.dumps({"progress": "finished"}))
    (out / "config.json").write_text(json.dumps({"quantization_config": {"quant_method": "exl2",
                                                                         "bits": 4.0}}))
    (out / "output.safetensors").write_text("")
    assert check_conversion(work, out)["bits"] == 4.0


def test_without_cuda_the_command_names_what_is_missing(tmp_path: Path) -> None:
    try:
        import torch

        if torch.cuda.is_available():
            pytest.skip("this machine has CUDA")
    except ImportError:
        pass  # no torch at all: the error names it
    hf = hf_folder(tmp_path / "hf")
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "model", "quantize", str(hf), str(tmp_path / "out"),
         "--bits", "4"],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode != 0 and "CUDA" in result.stderr, result.stderr

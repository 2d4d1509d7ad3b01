"""``nospin doctor``: each check's verdict and its fix, on hand-made installs.

The probe points at a NOSPIN_HOME with a fake command runner and fake module lookups, so GPU,
CUDA, flash-attn, systemctl, launchctl and schtasks answers are table rows; the daemon check
talks to a real daemon (fake engine) over its real socket.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
import types
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from app.install.apply import CommandResult
from app.install.doctor import (
    CheckResult,
    Probe,
    check_config,
    check_cpu_engine,
    check_daemon,
    check_flash_attn,
    check_gpu,
    check_model,
    check_packages,
    check_service,
    check_tray,
    check_venv,
    format_results,
    run_checks,
)
from app.install.host import detect_host
from app.install.manifest import Entry, Manifest, save_manifest
from app.install.plan import MANIFEST_NAME, Host
from daemon import lifecycle
from tests.daemon.harness import short_home

REPO = Path(__file__).parents[2]


class Answers:
    """A command runner answering by the command's first words."""

    def __init__(self, table: dict[tuple[str, ...], CommandResult]) -> None:
        self.table = table
        self.calls: list[tuple[str, ...]] = []

    def __call__(self, argv: Sequence[str], *, timeout_s: float | None = None
                 ) -> CommandResult:
        self.calls.append(tuple(argv))
        for prefix, result in self.table.items():
            if tuple(argv[:len(prefix)]) == prefix:
                return result
        return CommandResult(127, "not found")


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_home(monkeypatch) as path:
        yield path


def installed(home: Path, *, gpu: bool = False, tray: bool = True,
              platform: str = "linux") -> Host:
    """Write a manifest (and the venv's python) as an install would; return the host."""
    host = detect_host("linux")
    python = Path(host.data_dir) / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text("")
    save_manifest(Path(host.data_dir) / MANIFEST_NAME, Manifest(
        platform=platform, nospin_version="0.1.0", options={"gpu": gpu, "tray": tray},
        entries=[Entry("venv", str(python.parents[1]))]))
    return host


def probe(host: Host, **kwargs: object) -> Probe:
    return Probe(host=host, **kwargs)  # type: ignore[arg-type]


def no_module(_name: str) -> object | None:
    return None


def native_build(name: str) -> object | None:
    """find_spec of an environment with llama-cpp-python (engine.kind "auto" is llamacpp)."""
    return object() if name == "llama_cpp" else importlib.util.find_spec(name)


def test_nothing_installed_says_how_to_install(home: Path) -> None:
    results = {r.name: r for r in run_checks(probe(detect_host("linux"), find_spec=no_module,
                                                   runner=Answers({})))}
    assert results["install"].status == "warn" and "nospin install" in results["install"].fix
    for name in ("venv", "service", "tray", "gpu", "flash_attn"):
        assert results[name].status == "skip", results[name]
    assert results["model"].status == "fail" and "nospin install" in results["model"].fix
    assert results["daemon"].status == "warn" and "nospin daemon" in results["daemon"].fix
    text = format_results(list(results.values()))
    assert "fix: run `nospin install`" in text and text.endswith("1 problem(s), 2 warning(s)")


def test_venv_ok_broken_and_missing(home: Path) -> None:
    host = installed(home)
    ok = check_venv(probe(host, runner=Answers({(): CommandResult(0, "nospin 0.1.0\n")})))
    assert ok.status == "ok" and "nospin 0.1.0" in ok.summary
    broken = check_venv(probe(host, runner=Answers({(): CommandResult(1, "ImportError: x")})))
    assert broken.status == "fail" and "nospin install" in broken.fix
    (Path(host.data_dir) / "venv" / "bin" / "python").unlink()
    assert check_venv(probe(host)).status == "fail"


def test_packages_pip_check_and_a_watchdog_the_watcher_knows(home: Path) -> None:
    host = detect_host("linux")
    clean = Answers({(sys.executable, "-m", "pip", "check"):
                     CommandResult(0, "No broken requirements found.\n")})
    ok = check_packages(probe(host, runner=clean, version_of=lambda _name: "7.1.1"))
    assert ok.status == "ok" and ok.summary.endswith("watchdog 7.1.1"), ok
    assert clean.calls == [(sys.executable, "-m", "pip", "check")]
    broken = Answers({(sys.executable,): CommandResult(1, (
        "pyzmq 25.1.0 is installed but pyzmq>=26 is required by nospin\n"
        "msgspec 0.18.0 is installed but msgspec>=0.19 is required by nospin\n"))})
    bad = check_packages(probe(host, runner=broken, version_of=lambda _name: "7.1.1"))
    assert bad.status == "fail" and bad.summary.startswith("pyzmq 25.1.0 is installed")
    assert "(and 1 more)" in bad.summary and "nospin install" in bad.fix
    newer = check_packages(probe(host, runner=clean, version_of=lambda _name: "7.2.0"))
    assert newer.status == "warn" and "watchdog 7.2.0" in newer.summary
    assert "watchdog==7.1.1" in newer.fix
    no_pip = Answers({(sys.executable,): CommandResult(1, "/v/bin/python: No module named pip")})
    unchecked = check_packages(probe(host, runner=no_pip, version_of=lambda _name: "7.1.0"))
    assert unchecked.status == "ok" and unchecked.summary.startswith("pip check could not run")

    def missing(name: str) -> str:
        import importlib.metadata

        raise importlib.metadata.PackageNotFoundError(name)

    gone = check_packages(probe(host, runner=clean, version_of=missing))
    assert gone.status == "fail" and "watchdog is not installed" in gone.summary


def test_model_checksum(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.models as models

    data = b"GGUF tiny model"
    tiny = models.ChunkedModel(name="tiny", packages=(), version="0",
                               sha256=hashlib.sha256(data).hexdigest(), size=len(data))
    monkeypatch.setattr(models, "EMBEDDED_MODEL", tiny)
    host = detect_host("linux")
    missing = check_model(probe(host))
    assert missing.status == "fail" and "is not at" in missing.summary
    path = Path(host.cache_dir) / "models" / "tiny.gguf"
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    assert check_model(probe(host)).status == "ok"
    path.write_bytes(b"GGUF tiny m0del")
    corrupt = check_model(probe(host))
    assert corrupt.status == "fail" and "sha256 does not match" in corrupt.summary
    assert f"delete {path}" in corrupt.fix
    assert check_model(probe(host, verify_model=False)).status == "ok"


def test_configured_model_and_broken_config(home: Path) -> None:
    host = detect_host("linux")
    config = Path(host.config_dir) / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[engine]\nmodel = "/nowhere/m.gguf"\n')
    gone = check_model(probe(host))
    assert gone.status == "fail" and "engine.model" in gone.fix
    config.write_text("[engine\n")
    assert check_config(probe(host)).status == "fail"
    assert check_model(probe(host)).status == "skip"


@pytest.mark.parametrize("text", ["[daemon]\ntcp_port = 99999\n",
                                  "[daemon]\nmax_message_bytes = 0\n",
                                  '[engine]\nmodel_profile = "nonsense"\n'])
def test_a_value_that_would_break_the_daemon_fails_the_config_check(home: Path,
                                                                      text: str) -> None:
    """It said "ok config" before, and the daemon then listened elsewhere or failed."""
    host = detect_host("linux")
    config = Path(host.config_dir) / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(text)
    result = check_config(probe(host))
    assert result.status == "fail" and text.split("]\n")[1].split(" ")[0] in result.summary


class ChildRunner:
    """Runs a real child process (``code``) in place of each command, recording the argv."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.calls: list[tuple[str, ...]] = []

    def __call__(self, argv: Sequence[str], *, timeout_s: float | None = None
                 ) -> CommandResult:
        from app.install.apply import run_command

        self.calls.append(tuple(argv))
        return run_command([sys.executable, "-c", self.code], timeout_s=timeout_s)


CRASH = ("import os, signal; print('CPU : AVX512 = 1 | {} = 1 |', flush=True); "
         "os.kill(os.getpid(), signal.SIGSEGV)")


def _with_model(home: Path) -> tuple[Host, Path, Path]:
    """A Linux host whose config names a (header-only) GGUF model: host, config file, model."""
    host = detect_host("linux")
    config = Path(host.config_dir) / "config.toml"
    config.parent.mkdir(parents=True)
    model = home / "m.gguf"
    model.write_bytes(GGUF_HEAD)
    config.write_text(f'[engine]\nmodel = "{model}"\n')
    return host, config, model


def test_cpu_engine_names_a_crashing_llama_cpp_build_and_its_fix(home: Path) -> None:
    """A llama.cpp built with AMX segfaulted on every prompt on a VM that lists AMX (2026-12-02):
    the daemon died with it. doctor decodes in a child, so the crash is a verdict."""
    host, config, model = _with_model(home)
    amx = ChildRunner(CRASH.format("AMX_INT8"))
    crashed = check_cpu_engine(probe(host, find_spec=native_build, runner=amx))
    assert crashed.status == "warn" and "crashed (SIGSEGV)" in crashed.summary  # worked around
    assert "built with AMX" in crashed.summary and "-mno-amx-int8" in crashed.fix
    assert amx.calls == [(sys.executable, "-m", "engine.cpu_build", str(model))]
    vnni = ChildRunner(CRASH.format("AVX_VNNI"))
    other = check_cpu_engine(probe(host, find_spec=native_build, runner=vnni))
    assert other.status == "fail" and "AMX" not in other.summary
    assert other.fix.startswith("reinstall llama-cpp-python")
    fine = ChildRunner("print('CPU : AVX2 = 1 |'); print('ok: 8 prompt tokens, 4 decoded')")
    ok = check_cpu_engine(probe(host, find_spec=native_build, runner=fine))
    assert ok.status == "ok" and ok.summary.endswith("4 decoded")
    config.write_text('[engine]\nkind = "remote"\nremote_url = "http://127.0.0.1:9/v1"\n')
    assert check_cpu_engine(probe(host, find_spec=native_build, runner=fine)).status == "skip"
    model.unlink()
    config.write_text(f'[engine]\nmodel = "{model}"\n')
    assert check_cpu_engine(probe(host, find_spec=native_build, runner=fine)).status == "skip"


def test_auto_runs_xllamacpp_without_llama_cpp_and_llamacpp_says_how_to_get_it(
        home: Path) -> None:
    """engine.kind "auto" without llama-cpp-python runs xllamacpp: doctor names it and has no
    build of this machine's to check; an explicit "llamacpp" there fails with the command that
    installs it."""
    host, config, model = _with_model(home)
    runner = ChildRunner("print('ok')")
    prebuilt = check_cpu_engine(probe(host, find_spec=no_module, runner=runner))
    assert prebuilt.status == "skip" and "auto (xllamacpp)" in prebuilt.summary, prebuilt
    assert runner.calls == []
    assert "engine auto (xllamacpp)" in check_config(probe(host, find_spec=no_module)).summary
    assert "engine auto (llamacpp)" in check_config(probe(host, find_spec=native_build)).summary
    config.write_text(f'[engine]\nkind = "llamacpp"\nmodel = "{model}"\n')
    missing = check_cpu_engine(probe(host, find_spec=no_module, runner=runner))
    assert missing.status == "fail" and "llama-cpp-python" in missing.summary
    assert "installers/install.sh --native" in missing.fix and runner.calls == []


GGUF_HEAD = b"GGUF" + (3).to_bytes(4, "little") + bytes(16)  # version 3, no tensors, no keys


def test_llamacpp_model_must_be_a_gguf_file_whatever_its_name(home: Path) -> None:
    """doctor said "ok model" for a README or a folder before: it read the header only of a
    name ending in .gguf, and the daemon then failed to load it."""
    host = detect_host("linux")
    config = Path(host.config_dir) / "config.toml"
    config.parent.mkdir(parents=True)

    def model_check(model: Path, kind: str = "llamacpp") -> CheckResult:
        config.write_text(f'[engine]\nkind = "{kind}"\nmodel = "{model}"\n')
        return check_model(probe(host))

    readme = home / "README.md"
    readme.write_text("# not a model\n")
    text = model_check(readme)
    assert text.status == "fail" and "not a GGUF file" in text.summary
    assert "GGUF file" in text.fix
    folder = home / "exl2"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    not_file = model_check(folder)
    assert not_file.status == "fail" and "is a folder, not a GGUF file" in not_file.summary
    assert "exllamav2" in not_file.fix
    renamed = home / "model.bin"
    renamed.write_bytes(GGUF_HEAD)
    assert model_check(renamed).status == "ok"
    fake = home / "fake.gguf"
    fake.write_text("no")
    assert model_check(fake).status == "fail"
    assert model_check(folder, "exllamav2").status == "ok"  # an EXL2/HF folder: as before


def test_a_packaged_model_name_in_engine_model_is_checked_as_that_model(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.models as models

    data = GGUF_HEAD + b"tiny"
    tiny = models.ChunkedModel(name="tiny", packages=(), version="0",
                               sha256=hashlib.sha256(data).hexdigest(), size=len(data),
                               title="the tiny model")
    monkeypatch.setitem(models.MODEL_NAMES, "tiny", tiny)
    host = detect_host("linux")
    config = Path(host.config_dir) / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[engine]\nmodel = "tiny"\n')
    missing = check_model(probe(host))
    assert missing.status == "fail" and "the tiny model is not at" in missing.summary
    path = Path(host.cache_dir) / "models" / "tiny.gguf"
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    ok = check_model(probe(host))
    assert ok.status == "ok" and str(path) in ok.summary and "matches" in ok.summary


def fake_torch(*, cuda: bool) -> types.ModuleType:
    torch = types.ModuleType("torch")
    torch.__version__ = "2.13.0"  # type: ignore[attr-defined]
    torch.version = types.SimpleNamespace(cuda="12.8" if cuda else None)  # type: ignore[attr-defined]
    torch.cuda = types.SimpleNamespace(  # type: ignore[attr-defined]
        is_available=lambda: cuda, device_count=lambda: 1 if cuda else 0,
        get_device_name=lambda i: "NVIDIA H200")
    return torch


@pytest.mark.parametrize(("gpu", "torch", "cuda", "status", "says"), [
    (False, False, False, "skip", "CPU-only"),
    (True, False, False, "fail", "not installed"),
    (False, True, False, "skip", "no CUDA device"),
    (True, True, False, "fail", "no CUDA device"),
    (True, True, True, "ok", "CUDA 12.8: NVIDIA H200"),
])
def test_gpu(home: Path, gpu: bool, torch: bool, cuda: bool, status: str, says: str) -> None:
    host = installed(home, gpu=gpu)
    result = check_gpu(probe(
        host, find_spec=lambda name: object() if torch and name == "torch" else None,
        import_module=lambda name: fake_torch(cuda=cuda)))
    assert result.status == status and says in result.summary, result
    if status == "fail":
        assert result.fix


@pytest.mark.parametrize(("gpu", "version", "status"), [
    (False, None, "skip"), (True, None, "warn"), (True, "2.5.6", "warn"),
    (True, "2.5.7", "ok"), (True, "2.7.4.post1+cu128", "ok"),
])
def test_flash_attn(home: Path, gpu: bool, version: str | None, status: str) -> None:
    host = installed(home, gpu=gpu)
    result = check_flash_attn(probe(
        host, find_spec=lambda name: object() if version else None,
        version_of=lambda name: version or ""))
    assert result.status == status, result
    if status == "warn":
        assert "flash-attn>=2.5.7" in result.fix


def test_gpu_import_failure_is_reported_not_raised(home: Path) -> None:
    def broken(name: str) -> types.ModuleType:
        raise OSError("libcudart.so.12: cannot open shared object file")

    result = check_gpu(probe(installed(home, gpu=True), find_spec=lambda n: object(),
                             import_module=broken))
    assert result.status == "fail" and "libcudart" in result.summary


def test_linux_service_and_tray(home: Path) -> None:
    host = installed(home)
    assert check_service(probe(host)).status == "fail"  # no unit
    unit = Path(host.systemd_user_dir) / "nospin.service"
    unit.parent.mkdir(parents=True)
    unit.write_text("[Service]\n")
    not_enabled = check_service(probe(host))
    assert not_enabled.status == "warn" and "enable" in not_enabled.fix
    wants = unit.parent / "default.target.wants" / "nospin.service"
    wants.parent.mkdir()
    wants.symlink_to(unit)
    assert check_service(probe(host)).status == "ok"  # NOSPIN_HOME: files only
    real = Host(**{**{f: getattr(host, f) for f in host.__slots__},
                   "sandboxed": False})
    table: list[tuple[CommandResult, str]] = [
        (CommandResult(0, "active\n"), "ok"),
        (CommandResult(3, "inactive\n"), "warn"),
        (CommandResult(1, "Failed to connect to bus: No medium found\n"), "skip"),
    ]
    for answer, status in table:
        result = check_service(probe(real, runner=Answers({("systemctl",): answer})))
        assert result.status == status, result
    tray = check_tray(probe(host, find_spec=lambda n: object()))
    assert tray.status == "fail"
    autostart = Path(host.autostart_dir) / "nospin-tray.desktop"
    autostart.parent.mkdir(parents=True)
    autostart.write_text("[Desktop Entry]\n")
    assert check_tray(probe(host, find_spec=lambda n: object())).status == "ok"
    assert check_tray(probe(host, find_spec=no_module)).status == "warn"


def test_macos_and_windows_service_answers(home: Path) -> None:
    host = installed(home, platform="macos")
    mac = Host(**{**{f: getattr(host, f) for f in host.__slots__},
                  "platform": "macos"})
    plist = Path(mac.launch_agents_dir) / "dev.nospin.daemon.plist"
    plist.parent.mkdir(parents=True)
    plist.write_text("<plist/>")
    running = Answers({("launchctl", "print"): CommandResult(0, "\tstate = running\n")})
    assert check_service(probe(mac, runner=running)).status == "ok"
    unloaded = Answers({("launchctl",): CommandResult(113, "Could not find service")})
    result = check_service(probe(mac, runner=unloaded))
    assert result.status == "warn" and "launchctl bootstrap" in result.fix
    win = Host(**{**{f: getattr(host, f) for f in host.__slots__},
                  "platform": "windows"})
    missing = Answers({("schtasks",): CommandResult(1, "ERROR: The system cannot find")})
    assert check_service(probe(win, runner=missing)).status == "fail"
    ready = Answers({("schtasks",): CommandResult(0, "Status:        Ready\n")})
    result = check_service(probe(win, runner=ready))
    assert result.status == "warn" and "Start-ScheduledTask" in result.fix


def test_daemon_reachable_over_its_socket(home: Path) -> None:
    env = {**os.environ, "NOSPIN_HOME": str(home), "PYTHONPATH": str(REPO),
           "NOSPIN_ENGINE_FACTORY": "tests.daemon.fakes:make_engine"}
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "daemon", "--no-index"], cwd=REPO,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while lifecycle.read_daemon_info() is None:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        result = check_daemon(probe(detect_host("linux")))
        assert result.status == "ok" and f"pid {proc.pid}" in result.summary, result
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    assert check_daemon(probe(detect_host("linux"))).status == "warn"


def test_a_crashing_check_is_a_failure_not_a_crash(home: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import app.install.doctor as doctor

    def boom(_probe: Probe) -> CheckResult:
        raise RuntimeError("boom")

    monkeypatch.setattr(doctor, "check_venv", boom)
    results = {r.name: r for r in doctor.run_checks(probe(detect_host("linux"),
                                                          find_spec=no_module))}
    assert results["venv"].status == "fail" and "boom" in results["venv"].summary


def test_cli_json_and_exit_status(home: Path) -> None:
    env = {**os.environ, "NOSPIN_HOME": str(home), "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "app.cli", "doctor", "--json", "--quick"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    checks = json.loads(done.stdout)
    assert [c["name"] for c in checks] == ["install", "venv", "packages", "config", "model",
                                           "cpu_engine", "gpu", "flash_attn", "daemon",
                                           "service", "tray"]
    assert set(checks[0]) == {"name", "status", "summary", "fix"}
    assert done.returncode == 1  # the model is not there: a failure


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify: Linux only")
def test_daemon_check_warns_about_a_project_it_cannot_watch(home: Path) -> None:
    from app.client import Client
    from tests.daemon.test_projects import LIMIT_FILE, inotify_instances_used_up

    if not LIMIT_FILE.exists() or int(LIMIT_FILE.read_text()) > 1024:
        pytest.skip("needs a small inotify instance limit")
    project = home / "proj"
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (project / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    env = {**os.environ, "NOSPIN_HOME": str(home), "PYTHONPATH": str(REPO),
           "NOSPIN_ENGINE_FACTORY": "tests.daemon.fakes:make_engine"}
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "daemon"], cwd=REPO, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while lifecycle.read_daemon_info() is None:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        with inotify_instances_used_up(), Client(autostart=False) as client:
            client.complete(str(project / "calc.py"), 1, 4)  # the project's first scan follows
            while True:
                status = client.status()
                if status.roots and not status.indexing:
                    break
                assert time.monotonic() < deadline + 30
                time.sleep(0.05)
        result = check_daemon(probe(detect_host("linux")))
        assert result.status == "warn", result
        assert f"project {project.resolve()}: not watched" in result.summary
        assert "fs.inotify.max_user_instances" in result.summary and "restart" in result.fix
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)

"""``nospin install`` / ``uninstall``: plans, templates, the apply shell, and one real install.

The unit tests render plans for all three platforms from hand-built hosts, check the files with
the real validators where they exist (systemd-analyze, desktop-file-validate, plistlib, the
tree-sitter PowerShell grammar), and run ``apply.install`` against a NOSPIN_HOME with a fake
command runner. The end-to-end test installs for real on Linux into a temporary HOME: it
installs into a temporary HOME (every XDG directory inside it), checks the systemd unit and the
desktop entries with the system's validators, starts the daemon exactly as the unit's ExecStart
says (there is no systemd user session here), gets a completion from it with the installed
``nospin complete``, installs again (nothing changes), uninstalls with --purge and walks the
HOME: nothing may be left that was not there before.

pip's cache stays the real one (PIP_CACHE_DIR), so llama-cpp-python's wheel built by
installers/install.sh is reused and the venv takes about 30 s; the model is assembled from the
chunk packages of the environment running the test. Takes about a minute.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from daemon import lifecycle

REPO = Path(__file__).parents[2]


def _chunks_installed() -> bool:
    from app.errors import ModelNotInstalled
    from engine.models import find_chunks

    try:
        find_chunks()
    except ModelNotInstalled:
        return False
    return True


def walk(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def parse_unit(text: str) -> tuple[list[str], dict[str, str]]:
    """ExecStart argv and Environment= of a unit written by templates.systemd_unit."""
    argv: list[str] = []
    env: dict[str, str] = {}
    for line in text.splitlines():
        key, _, value = line.partition("=")
        if key == "ExecStart":
            argv = [a.replace("%%", "%").replace("$$", "$") for a in shlex.split(value)]
        elif key == "Environment":
            for word in shlex.split(value):
                name, _, val = word.replace("%%", "%").partition("=")
                env[name] = val
    return argv, env


@pytest.fixture
def temp_home(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, dict[str, str]]]:
    pip_cache = os.environ.get("PIP_CACHE_DIR") or str(
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pip")
    root = Path(tempfile.mkdtemp(prefix="nsi", dir="/tmp"))
    home = root / "home"
    run = root / "run"
    home.mkdir()
    run.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items()
           if k not in ("NOSPIN_HOME", "NOSPIN_ENGINE_FACTORY", "PYTHONPATH")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_DATA_HOME=str(home / ".local/share"), XDG_CACHE_HOME=str(home / ".cache"),
               XDG_STATE_HOME=str(home / ".local/state"), XDG_RUNTIME_DIR=str(run),
               PIP_CACHE_DIR=pip_cache)
    monkeypatch.delenv("NOSPIN_HOME", raising=False)
    for key in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
                "XDG_RUNTIME_DIR"):
        monkeypatch.setenv(key, env[key])
    try:
        yield root, env
    finally:
        info = lifecycle.read_daemon_info()
        if info is not None:
            os.kill(info.pid, signal.SIGTERM)
        shutil.rmtree(root, ignore_errors=True)


def nospin_dev(env: dict[str, str], *args: str, timeout: float = 600
               ) -> subprocess.CompletedProcess[str]:
    """``nospin`` from the environment running the tests (the checkout)."""
    return subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="the end-to-end install runs on Linux")
@pytest.mark.skipif(not _chunks_installed(), reason="the embedded model's packages are missing")
def test_install_start_complete_uninstall_leaves_nothing(
        temp_home: tuple[Path, dict[str, str]]) -> None:
    root, env = temp_home
    home = root / "home"
    before = walk(root)

    started = time.monotonic()
    first = nospin_dev(env, "install", "--no-activate", "--source", str(REPO))
    install_s = time.monotonic() - started
    assert first.returncode == 0, first.stdout + first.stderr
    print(f"first install: {install_s:.0f} s")

    unit = home / ".config/systemd/user/nospin.service"
    autostart = home / ".config/autostart/nospin-tray.desktop"
    launcher = home / ".local/share/applications/nospin-tray.desktop"
    wants = home / ".config/systemd/user/default.target.wants/nospin.service"
    venv = home / ".local/share/nospin/venv"
    config = home / ".config/nospin/config.toml"
    for path in (unit, autostart, launcher, config, venv / "bin/nospin"):
        assert path.is_file(), path
    assert wants.is_symlink() and wants.resolve() == unit

    # the system's validators, where they exist
    if shutil.which("systemd-analyze"):
        check = subprocess.run(["systemd-analyze", "verify", "--user", str(unit)], env=env,
                               capture_output=True, text=True, timeout=60)
        assert check.returncode == 0 and not check.stdout.strip() \
            and not check.stderr.strip(), check.stdout + check.stderr
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(autostart), str(launcher)],
                               capture_output=True, text=True, timeout=60)
        assert check.returncode == 0 and not check.stdout.strip(), check.stdout + check.stderr

    # the installed venv has its own nospin with the tray extra, not the checkout's
    probe = subprocess.run([str(venv / "bin/python"), "-I", "-c",
                            "import app, PySide6; print(app.__file__)"],
                           capture_output=True, text=True, env=env, timeout=60)
    assert probe.returncode == 0 and probe.stdout.startswith(str(venv)), probe.stderr

    # start the daemon as the unit would, then complete with the installed nospin
    argv, unit_env = parse_unit(unit.read_text())
    assert argv == [str(venv / "bin/nospin"), "daemon"]
    log = root / "daemon.log"
    with open(log, "wb") as out:
        daemon = subprocess.Popen(argv, env={**env, **unit_env}, stdout=out,
                                  stderr=subprocess.STDOUT, cwd="/", start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while lifecycle.read_daemon_info() is None:
            assert daemon.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        proj = root / "proj"
        proj.mkdir()
        (proj / "calc.py").write_text("def add(a, b):\n    \n")
        done = subprocess.run([str(venv / "bin/nospin"), "complete", f"{proj}/calc.py:2:5",
                               "--json", "--no-start", "--multiline", "false"],
                              env=env, capture_output=True, text=True, timeout=180, cwd="/")
        assert done.returncode == 0, done.stderr + log.read_text()
        reply = json.loads(done.stdout)
        assert reply["type"] == "done" and reply["text"].strip(), reply
        print(f"completion: {reply['text']!r} in {reply['timings']['total_ms']:.0f} ms")

        doctor = subprocess.run([str(venv / "bin/nospin"), "doctor", "--json"], env=env,
                                capture_output=True, text=True, timeout=180, cwd="/")
        checks = {c["name"]: c for c in json.loads(doctor.stdout)}
        assert doctor.returncode == 0, doctor.stdout
        for name in ("install", "venv", "config", "model", "daemon", "tray"):
            assert checks[name]["status"] == "ok", checks[name]
        assert checks["gpu"]["status"] == "skip"
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=30)
    shutil.rmtree(proj)

    # again: nothing changes (pip reinstalls the same code; every file is unchanged)
    second = nospin_dev(env, "install", "--no-activate", "--source", str(REPO))
    assert second.returncode == 0, second.stdout + second.stderr
    verbs = {line.split()[1]: line.split()[0] for line in second.stdout.splitlines()
             if line.startswith("  ") and len(line.split()) > 1}
    for path in (unit, autostart, launcher, wants):
        assert verbs[str(path)] == "unchanged", second.stdout
    assert verbs[str(config)] == "kept"
    assert "created" not in verbs.values(), second.stdout

    gone = nospin_dev(env, "uninstall", "--purge")
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert walk(root) - {"daemon.log"} == before, sorted(walk(root) - before)

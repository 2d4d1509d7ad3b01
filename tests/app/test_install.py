"""``nospin install`` / ``uninstall``: plans, templates, the apply shell, and one real install.

The unit tests render plans for all three platforms from hand-built hosts, check the files with
the real validators where they exist (systemd-analyze, desktop-file-validate, plistlib, the
tree-sitter PowerShell grammar), and run ``apply.install`` against a NOSPIN_HOME with a fake
command runner. The end-to-end test installs for real on Linux into a temporary HOME (every XDG
directory inside it), checks the systemd unit and the
desktop entries with the system's validators, starts the daemon exactly as the unit's ExecStart
says (there is no systemd user session here), gets a completion from it with the installed
``nospin complete``, installs again (nothing changes), uninstalls with --purge and walks the
HOME: nothing may be left that was not there before.

pip's cache stays the real one (PIP_CACHE_DIR), so llama-cpp-python's wheel built by
installers/install.sh is reused and the venv takes about 30 s; it gets the CPU engine of the
environment running the test (--native with llama-cpp-python, else --prebuilt: nothing
compiled); the model is assembled from the chunk packages of that environment. Takes about a
minute.
"""

from __future__ import annotations

import hashlib
import json
import os
import plistlib
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath

import pytest

from app.install import apply as apply_mod
from app.install import templates as t
from app.install.apply import CommandResult, install, uninstall
from app.install.host import detect_host
from app.install.manifest import load_manifest
from app.install.plan import Host, InstallOptions, InstallPlan, Platform, describe, make_plan
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
            words = [a.replace("%%", "%") for a in shlex.split(value)]
            argv = words[:1] + [a.replace("$$", "$") for a in words[1:]]
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
    # pip asks `rustc --version` for its user agent; a rustup proxy on PATH then creates
    # $HOME/.rustup: keep rustup's files where they are, as they are for a real user
    real_home = Path.home()
    for var, default in (("RUSTUP_HOME", real_home / ".rustup"),
                         ("CARGO_HOME", real_home / ".cargo")):
        env.setdefault(var, str(default))
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

    # the CPU engine of the environment running the tests: a prebuilt one compiles nothing
    from engine.factory import native_installed

    engine = "llamacpp" if native_installed() else "xllamacpp"
    build = "--native" if engine == "llamacpp" else "--prebuilt"
    started = time.monotonic()
    # --no-choose: with a GPU or many cores the choice would download and measure the 1.5B
    first = nospin_dev(env, "install", "--no-activate", "--no-choose", build, "--source",
                       str(REPO))
    install_s = time.monotonic() - started
    assert first.returncode == 0, first.stdout + first.stderr
    print(f"first install: {install_s:.0f} s")

    unit = home / ".config/systemd/user/nospin.service"
    autostart = home / ".config/autostart/nospin-tray.desktop"
    launcher = home / ".local/share/applications/nospin-tray.desktop"
    wants = home / ".config/systemd/user/default.target.wants/nospin.service"
    venv = home / ".local/share/nospin/venv"
    config = home / ".config/nospin/config.toml"
    # the weights the CPU engine loads are made by the install, not by the first daemon start
    cpu_weights = Path(env["XDG_CACHE_HOME"]) / "nospin/models/qwen2.5-coder-0.5b-q4_k_m.q8_0.gguf"
    for path in (unit, autostart, launcher, config, venv / "bin/nospin", cpu_weights):
        assert path.is_file(), path
    assert wants.is_symlink() and wants.resolve() == unit

    # the system's validators, where they exist
    if shutil.which("systemd-analyze"):
        with tempfile.TemporaryDirectory() as scratch:  # it writes $XDG_RUNTIME_DIR/systemd
            check = subprocess.run(["systemd-analyze", "verify", "--user", str(unit)],
                                   env={**env, "XDG_RUNTIME_DIR": scratch},
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
        assert "made the q8_0 weights" not in log.read_text()
        assert f"engine {engine} ready ({cpu_weights.name})" in log.read_text()
        reply = json.loads(done.stdout)
        assert reply["type"] == "done" and reply["text"].strip(), reply
        print(f"completion: {reply['text']!r} in {reply['timings']['total_ms']:.0f} ms")

        doctor = subprocess.run([str(venv / "bin/nospin"), "doctor", "--json"], env=env,
                                capture_output=True, text=True, timeout=180, cwd="/")
        checks = {c["name"]: c for c in json.loads(doctor.stdout)}
        assert doctor.returncode == 0, doctor.stdout
        for name in ("install", "venv", "packages", "config", "model", "daemon", "tray"):
            assert checks[name]["status"] == "ok", checks[name]
        assert checks["gpu"]["status"] == "skip"
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=30)
    shutil.rmtree(proj)

    # again: nothing changes (pip reinstalls the same code; every file is unchanged)
    second = nospin_dev(env, "install", "--no-activate", "--no-choose", build, "--source",
                        str(REPO))
    assert second.returncode == 0, second.stdout + second.stderr
    verbs = {line.split()[1]: line.split()[0] for line in second.stdout.splitlines()
             if line.startswith("  ") and len(line.split()) > 1}
    for path in (unit, autostart, launcher, wants):
        assert verbs[str(path)] == "unchanged", second.stdout
    assert verbs[str(config)] == "kept" and verbs[str(cpu_weights)] == "unchanged"
    assert "created" not in verbs.values(), second.stdout

    gone = nospin_dev(env, "uninstall", "--purge")
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert walk(root) - {"daemon.log"} == before, sorted(walk(root) - before)


# --------------------------------------------------------------------------- plans and files
SHA0 = "0" * 64


def host_for(platform: Platform, root: PurePath, **changes: object) -> Host:
    """A host with every folder under ``root`` (for rendering other platforms' files)."""
    values: dict[str, object] = dict(
        platform=platform, data_dir=root / "data" / "nospin", config_dir=root / "config",
        cache_dir=root / "cache", state_dir=root / "state", runtime_dir=root / "run",
        log_dir=root / "log", systemd_user_dir=root / "cfg" / "systemd" / "user",
        autostart_dir=root / "cfg" / "autostart", applications_dir=root / "share" / "apps",
        launch_agents_dir=root / "Library" / "LaunchAgents", startup_dir=root / "Startup",
        uid=501, base_python="python3", compiler=True)
    values.update(changes)
    return Host(**values)  # type: ignore[arg-type]


def plan_for(host: Host, **options: object) -> InstallPlan:
    opts = InstallOptions(**{"source": "/src/nospin", **options})  # type: ignore[arg-type]
    return make_plan(host, opts, embedded_file="m.gguf", embedded_sha256=SHA0)


@pytest.mark.parametrize(("arg", "quoted"), [
    ("/usr/bin/nospin", "/usr/bin/nospin"),
    ("/home/a b/nospin", '"/home/a b/nospin"'),
    ("/x/100%/n", "/x/100%%/n"),
    ("$HOME", "$$HOME"),
    ('say "hi"', '"say \\"hi\\""'),
    ("a\\b", '"a\\\\b"'),
])
def test_systemd_quote(arg: str, quoted: str) -> None:
    assert t.systemd_quote(arg) == quoted


@pytest.mark.parametrize(("arg", "quoted"), [
    ("/usr/bin/nospin", "/usr/bin/nospin"),
    ("/home/a b/nospin", '"/home/a b/nospin"'),
    ("/x/50%", "/x/50%%"),
    ("/a$b", '"/a\\\\$b"'),  # quoted, $ escaped, then the backslash escaped as a string value
])
def test_desktop_exec_quote(arg: str, quoted: str) -> None:
    assert t.desktop_exec_quote(arg) == quoted


def test_linux_plan_files_links_and_commands() -> None:
    plan = plan_for(host_for("linux", PurePosixPath("/h")))
    paths = {str(f.path) for f in plan.files}
    assert paths == {"/h/cfg/systemd/user/nospin.service", "/h/cfg/autostart/nospin-tray.desktop",
                     "/h/share/apps/nospin-tray.desktop"}
    (link,) = plan.links
    assert str(link.path) == "/h/cfg/systemd/user/default.target.wants/nospin.service"
    assert link.target == PurePosixPath("/h/cfg/systemd/user/nospin.service")
    assert [c.argv for c in plan.activate] == [
        ("systemctl", "--user", "daemon-reload"),
        ("systemctl", "--user", "restart", "nospin.service")]
    assert plan.pip_install_argv("/src") == (
        "/h/data/nospin/venv/bin/python", "-m", "pip", "install", "--disable-pip-version-check",
        "--upgrade", "/src[native,tray]")
    assert plan.pip_install_argv("/src", "/src/installers/constraints.txt")[-3:] == (
        "-c", "/src/installers/constraints.txt", "/src[native,tray]")
    assert plan.model.kind == "embedded" and str(plan.model.path) == "/h/cache/models/m.gguf"
    unit = plan.files[0].content
    assert "Restart=on-failure" in unit and "StandardError=journal" in unit
    assert parse_unit(unit)[0] == ["/h/data/nospin/venv/bin/nospin", "daemon"]


def test_plan_options_gpu_no_tray_model_and_no_activate() -> None:
    plan = plan_for(host_for("linux", PurePosixPath("/h")), gpu=True, tray=False,
                    model="/models/big.gguf", activate=False)
    assert plan.extras == ("native", "gpu")
    assert [str(f.path) for f in plan.files] == ["/h/cfg/systemd/user/nospin.service"]
    assert plan.activate == () and plan.deactivate == () and plan.notes
    assert plan.config_changes == {"engine.model": "/models/big.gguf", "engine.kind": "auto"}
    assert plan.model.kind == "file"


@pytest.mark.parametrize(("compiler", "build", "native", "note"), [
    (True, "auto", True, False),
    (False, "auto", False, True),  # no toolchain: wheels only, and the user is told
    (True, "prebuilt", False, False),
    (False, "native", True, False),  # asked for: pip builds (and says so if it cannot)
])
def test_the_cpu_engine_is_built_where_a_compiler_is_found_or_asked_for(
        compiler: bool, build: str, native: bool, note: bool) -> None:
    plan = plan_for(host_for("linux", PurePosixPath("/h"), compiler=compiler), build=build)
    assert plan.native is native
    assert ("native" in plan.extras) is native
    argv = plan.pip_install_argv("/src")
    # without the build, pip takes wheels only: it fails rather than compile anything
    assert (argv[6:8] == ("--only-binary", ":all:")) is not native
    assert any("no C/C++ compiler" in n for n in plan.notes) is note
    assert ("xllamacpp: prebuilt wheels" in describe(plan, show_files=False)) is not native


@pytest.mark.parametrize(("options", "tail"), [
    ({}, ("--setup", "--apply")),
    ({"choose": "force"}, ("--setup", "--apply", "--force")),
    ({"choose": "off"}, None),
    ({"model": "/models/big.gguf"}, None),  # the user named the model: nothing to choose
])
def test_the_model_is_chosen_by_the_venvs_nospin_unless_left_out(
        options: dict[str, str], tail: tuple[str, ...] | None) -> None:
    plan = plan_for(host_for("linux", PurePosixPath("/h")), **options)
    said = describe(plan, show_files=False)
    if tail is None:
        assert plan.choose == () and "  choose " not in said
        return
    assert plan.choose == ("/h/data/nospin/venv/bin/python", "-I", "-m", "app.cli", "model",
                           "choose", *tail)
    assert f"  choose   {' '.join(plan.choose)}  (" in said


def test_nospin_home_keeps_everything_inside_and_activates_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NOSPIN_HOME", str(tmp_path))
    host = detect_host("linux")
    plan = plan_for(host)
    assert host.sandboxed and plan.activate == () and plan.deactivate == ()
    for path in [*(f.path for f in plan.files), *(lk.path for lk in plan.links),
                 *plan.owned_dirs, plan.venv, plan.manifest_path]:
        assert Path(path).is_relative_to(tmp_path), path
    assert f"NOSPIN_HOME={tmp_path}" in plan.files[0].content


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is not here")
def test_odd_paths_pass_systemd_analyze_and_desktop_file_validate(tmp_path: Path) -> None:
    root = tmp_path / "my home %h $x"
    plan = plan_for(host_for("linux", root))
    for f in plan.files:
        Path(f.path).parent.mkdir(parents=True, exist_ok=True)
        Path(f.path).write_text(f.content)
    nospin = Path(plan.nospin)
    nospin.parent.mkdir(parents=True)
    nospin.write_text("#!/bin/sh\n")
    nospin.chmod(0o755)
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    unit = Path(plan.files[0].path)
    check = subprocess.run(["systemd-analyze", "verify", "--user", str(unit)],
                           env={**os.environ, "XDG_RUNTIME_DIR": str(run)},
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 0 and not (check.stdout + check.stderr).strip(), check.stderr
    assert parse_unit(unit.read_text())[0] == [str(nospin), "daemon"]
    if shutil.which("desktop-file-validate"):
        desktops = [str(f.path) for f in plan.files if str(f.path).endswith(".desktop")]
        check = subprocess.run(["desktop-file-validate", *desktops], capture_output=True,
                               text=True, timeout=60)
        assert check.returncode == 0 and not check.stdout.strip(), check.stdout
    # systemd-analyze does catch mistakes (the check above is not vacuous)
    unit.write_text(unit.read_text().replace("Restart=on-failure", "Restart=sometimes"))
    check = subprocess.run(["systemd-analyze", "verify", "--user", str(unit)],
                           env={**os.environ, "XDG_RUNTIME_DIR": str(run)},
                           capture_output=True, text=True, timeout=60)
    assert "restart specifier" in check.stderr


def test_macos_plists_round_trip_with_required_keys() -> None:
    plan = plan_for(host_for("macos", PurePosixPath("/Users/ann o'neil")))
    by_name = {PurePosixPath(f.path).name: plistlib.loads(f.content.encode())
               for f in plan.files}
    assert set(by_name) == {"dev.nospin.daemon.plist", "dev.nospin.tray.plist"}
    venv_bin = "/Users/ann o'neil/data/nospin/venv/bin/nospin"
    daemon, tray = by_name["dev.nospin.daemon.plist"], by_name["dev.nospin.tray.plist"]
    for data, label in ((daemon, "dev.nospin.daemon"), (tray, "dev.nospin.tray")):
        assert data["Label"] == label and data["RunAtLoad"] is True
        assert data["ProgramArguments"][0] == venv_bin
        assert data["StandardErrorPath"].startswith("/Users/ann o'neil/log/")
    assert daemon["ProgramArguments"] == [venv_bin, "daemon"]
    assert daemon["KeepAlive"] == {"SuccessfulExit": False}
    assert tray["ProgramArguments"] == [venv_bin, "tray"]
    assert tray["LimitLoadToSessionType"] == "Aqua" and "KeepAlive" not in tray
    assert ("launchctl", "bootstrap", "gui/501",
            "/Users/ann o'neil/Library/LaunchAgents/dev.nospin.daemon.plist") in \
        [c.argv for c in plan.activate]
    assert [c.argv for c in plan.deactivate] == [
        ("launchctl", "bootout", "gui/501/dev.nospin.daemon"),
        ("launchctl", "bootout", "gui/501/dev.nospin.tray")]
    assert PurePosixPath("/Users/ann o'neil/log") in plan.owned_dirs


def _powershell_parser() -> object:
    ts = pytest.importorskip("tree_sitter")
    grammar = pytest.importorskip(
        "tree_sitter_powershell", reason="tree-sitter-powershell is not installed (pip)")
    return ts.Parser(ts.Language(grammar.language()))


def _ps_strings(parser: object, text: str) -> list[str]:
    tree = parser.parse(text.encode("utf-8"))  # type: ignore[attr-defined]
    assert not tree.root_node.has_error, text
    found: list[str] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "verbatim_string_characters":
            found.append(node.text.decode()[1:-1].replace("''", "'"))
        stack.extend(node.children)
    return found


def test_windows_scripts_parse_as_powershell() -> None:
    parser = _powershell_parser()
    root = PureWindowsPath(r"C:\Users\Ann O'Neil\AppData")
    plan = plan_for(host_for("windows", root))
    names = {PureWindowsPath(f.path).name: f.content for f in plan.files}
    assert set(names) == {"run-daemon.ps1", "register.ps1", "unregister.ps1"}
    strings = _ps_strings(parser, names["register.ps1"])
    assert str(root / "Startup" / "nospin tray.lnk") in strings
    assert str(root / "data" / "nospin" / "venv" / "Scripts" / "pythonw.exe") in strings
    assert str(root / "data" / "nospin" / "run-daemon.ps1") in strings
    assert str(root / "data" / "nospin" / "venv" / "Scripts" / "python.exe") in \
        _ps_strings(parser, names["run-daemon.ps1"])
    _ps_strings(parser, names["unregister.ps1"])
    bootstrap = _ps_strings(parser, (REPO / "installers/windows/install.ps1").read_text())
    assert {"--choose", "--no-choose"} <= set(bootstrap)  # -Choose / -NoChoose, passed on
    assert plan.external == (root / "Startup" / "nospin tray.lnk",)
    assert plan.activate[0].argv[-2:] == (str(root / "data" / "nospin" / "register.ps1"),
                                          "-Start")
    # the grammar does report broken scripts
    broken = parser.parse(b"if ($x) { Write-Host 'a' ")  # type: ignore[attr-defined]
    assert broken.root_node.has_error


def test_bootstrap_shell_script_parses() -> None:
    check = subprocess.run(["bash", "-n", str(REPO / "installers/user-install.sh")],
                           capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stderr


def test_install_sh_passes_the_choice_on_and_refuses_both_flags(tmp_path: Path) -> None:
    """installers/install.sh reads --choose/--no-choose and hands them to choose_model
    (installers/choose-model.sh), which runs the real `nospin model choose --setup --apply`:
    on this machine that says in one line why the 0.5B is kept, --choose forces the
    measurement (here pip has no index, so it keeps the 0.5B, and the set-up goes on),
    --no-choose runs nothing."""
    from app.model_choice import machine_here, not_worth, worth_measuring

    script = REPO / "installers" / "install.sh"
    both = subprocess.run(["bash", str(script), "--choose", "--no-choose"], capture_output=True,
                          text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert both.returncode == 2 and "exclude each other" in both.stderr
    text = script.read_text(encoding="utf-8")
    assert '--choose|--no-choose)' in text
    assert 'choose_model "$venv/bin/nospin" "$choose"' in text
    nospin = tmp_path / "nospin"
    nospin.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m app.cli "$@"\n')
    nospin.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "NOSPIN_CHOOSE"}
    env.update(NOSPIN_HOME=str(tmp_path / "home"), PYTHONPATH=str(REPO), PIP_NO_INDEX="1",
               PIP_FIND_LINKS="")

    def step(flag: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "-c", 'set -euo pipefail; . "$1"; choose_model "$2" "$3"; echo done',
             "-", str(REPO / "installers" / "choose-model.sh"), str(nospin), flag],
            capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)

    off = step("--no-choose")
    assert (off.returncode, off.stdout, off.stderr) == (0, "done\n", "")
    machine = machine_here()
    if not worth_measuring(machine):
        plain = step("")
        assert (plain.returncode, plain.stdout) == (0, "done\n")  # the JSON stays off
        assert plain.stderr == f"[model choose] {not_worth(machine)}\n"
    if not _big_installed():  # else --choose would measure it (minutes)
        forced = step("--choose")
        assert (forced.returncode, forced.stdout) == (0, "done\n"), forced.stderr
        assert "installing the Qwen2.5-Coder-1.5B model" in forced.stderr
        assert "kept the 0.5B: pip could not install" in forced.stderr
    assert not (tmp_path / "home" / "config" / "config.toml").exists()


def _big_installed() -> bool:
    from engine.models import CODER_1_5B, chunks_installed

    return chunks_installed(CODER_1_5B)


def test_nospin_install_reads_choose_and_no_choose(tmp_path: Path) -> None:
    env = {**os.environ, "NOSPIN_HOME": str(tmp_path)}
    runs = {flag: subprocess.run([sys.executable, "-m", "app.cli", "install", "--dry-run",
                                  *flag.split()], cwd=REPO, env=env, capture_output=True,
                                 text=True, timeout=120)
            for flag in ("", "--choose", "--no-choose", "--choose --no-choose")}
    assert " model choose --setup --apply  (" in runs[""].stdout
    assert " model choose --setup --apply --force  (" in runs["--choose"].stdout
    assert runs[""].returncode == runs["--no-choose"].returncode == 0
    assert "  choose " not in runs["--no-choose"].stdout
    assert runs["--choose --no-choose"].returncode == 2


# --------------------------------------------------------------------------- apply, fake runner
class FakeRunner:
    """Creates the venv's python when asked to make a venv; records every command."""

    def __init__(self, fail: Sequence[str] = ()) -> None:
        self.calls: list[tuple[str, ...]] = []
        self.fail = fail

    def __call__(self, argv: Sequence[str], *, timeout_s: float | None = None
                 ) -> CommandResult:
        argv = tuple(argv)
        self.calls.append(argv)
        if argv[1:3] == ("-m", "venv"):
            python = Path(argv[-1]) / "bin" / "python"
            python.parent.mkdir(parents=True)
            python.write_text("")
        if any(f in argv for f in self.fail):
            return CommandResult(1, "Failed to connect to bus")
        return CommandResult(0, "")


@pytest.fixture
def sandbox(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """NOSPIN_HOME in tmp, a tiny 'embedded model' in two chunks, and a source folder."""
    home = tmp_path / "ns"
    monkeypatch.setenv("NOSPIN_HOME", str(home))
    chunks = [tmp_path / "part1.bin", tmp_path / "part2.bin"]
    chunks[0].write_bytes(b"GGUF-part-one")
    chunks[1].write_bytes(b"-and-two")
    import engine.models

    monkeypatch.setattr(engine.models, "find_chunks", lambda *_a, **_k: chunks)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "pyproject.toml").write_text('[project]\nname = "nospin"\n')
    yield home


def sandbox_plan(home: Path, **options: object) -> InstallPlan:
    sha = hashlib.sha256(b"GGUF-part-one-and-two").hexdigest()
    # the native build unless asked otherwise, whatever compilers this machine has
    opts = InstallOptions(**{"source": str(home.parent / "src"), "build": "native",  # type: ignore[arg-type]
                             **options})
    return make_plan(detect_host("linux"), opts, embedded_file="tiny.gguf", embedded_sha256=sha)


def tree(root: Path) -> dict[str, str]:
    """Every path under ``root`` with a hash of its content ("dir", "link -> target")."""
    out: dict[str, str] = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        if p.is_symlink():
            out[rel] = f"link -> {os.readlink(p)}"
        elif p.is_dir():
            out[rel] = "dir"
        else:
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def test_install_twice_changes_nothing_and_uninstall_purge_leaves_nothing(
        sandbox: Path) -> None:
    runner = FakeRunner()
    plan = sandbox_plan(sandbox)
    first = install(plan, runner=runner)
    assert {a.verb for a in first} >= {"created", "ran"}
    assert Path(plan.model.path).read_bytes() == b"GGUF-part-one-and-two"
    snapshot = tree(sandbox)
    second = install(plan, runner=runner)
    assert tree(sandbox) == snapshot
    by_path = {a.what: a.verb for a in second}
    for f in plan.files:
        assert by_path[str(f.path)] == "unchanged"
    assert by_path[str(plan.links[0].path)] == "unchanged"
    assert by_path[str(plan.model.path)] == "unchanged"
    assert by_path[str(plan.config_path)] == "kept"
    assert not [a for a in second if a.verb == "created"]
    assert sum(c[1:3] == ("-m", "venv") for c in runner.calls) == 1  # the venv is reused

    actions = uninstall(Path(plan.manifest_path), purge=True, runner=runner,
                        stop_daemon=lambda: None)
    assert actions and not sandbox.exists()


def test_uninstall_keeps_config_and_snapshots_and_user_files(sandbox: Path) -> None:
    plan = sandbox_plan(sandbox)
    install(plan, runner=FakeRunner())
    config = Path(plan.config_path)
    snapshot = config.parent / "snapshots" / "s1.json"
    snapshot.parent.mkdir()
    snapshot.write_text("{}")
    mine = Path(plan.files[1].path).parent / "someone-else.desktop"  # shared autostart folder
    mine.write_text("[Desktop Entry]\n")
    uninstall(Path(plan.manifest_path), runner=FakeRunner(), stop_daemon=lambda: None)
    left = {str(p.relative_to(sandbox)) for p in sandbox.rglob("*") if p.is_file()}
    assert left == {"config/config.toml", "config/snapshots/s1.json",
                    str(mine.relative_to(sandbox))}
    assert load_manifest(Path(plan.manifest_path)) is None
    assert uninstall(Path(plan.manifest_path), runner=FakeRunner()) == []  # nothing installed


def test_upgrade_keeps_config_and_snapshots_and_drops_stale_files(sandbox: Path) -> None:
    from app import config as cfg

    plan = sandbox_plan(sandbox)
    install(plan, runner=FakeRunner())
    config = Path(plan.config_path)
    cfg.save(cfg.with_changes(cfg.load(config), {"tiers.force_fast": True}), config)
    text = config.read_text()
    snapshot = config.parent / "snapshots" / "s1.json"
    snapshot.parent.mkdir()
    snapshot.write_text("{}")
    runner = FakeRunner()
    upgrade = install(sandbox_plan(sandbox, tray=False), runner=runner)
    assert config.read_text() == text and snapshot.exists()
    removed = {a.what for a in upgrade if a.verb == "removed"}
    assert removed == {str(f.path) for f in plan.files[1:]}  # the tray's entries
    assert any(c[-1].endswith("/src") or "nospin-src-" in c[-1] for c in runner.calls)
    gguf = sandbox.parent / "big.gguf"
    gguf.write_bytes(b"GGUF" + (3).to_bytes(4, "little") + bytes(16))
    config.write_text("# mine\n" + text)
    install(sandbox_plan(sandbox, model=str(gguf)), runner=FakeRunner())
    loaded = cfg.load(config)
    assert loaded.engine.model == str(gguf) and loaded.tiers.force_fast is True
    assert config.read_text().startswith("# mine\n")  # only the model's keys were set


def test_pip_builds_from_a_copy_not_in_the_checkout(sandbox: Path) -> None:
    runner = FakeRunner()
    plan = sandbox_plan(sandbox)
    install(plan, runner=runner)
    (pip,) = [c for c in runner.calls if "pip" in c]
    assert pip[-1].split("/")[-2].startswith("nospin-src-")
    assert pip[-1].endswith("nospin[native,tray]")
    assert not (sandbox.parent / "src" / "build").exists()
    assert "-c" not in pip  # a checkout without installers/constraints.txt: pyproject's ranges


def test_a_checkout_installs_the_versions_of_its_constraints_file(sandbox: Path) -> None:
    """installers/constraints.txt holds the versions the checkout's tests passed on."""
    src = sandbox.parent / "src"
    (src / "installers").mkdir()
    (src / "installers" / "constraints.txt").write_text("watchdog==7.1.1\n")
    runner = FakeRunner()
    install(sandbox_plan(sandbox), runner=runner)
    (pip,) = [c for c in runner.calls if "pip" in c]
    at = pip.index("-c")
    copy = Path(pip[-1].removesuffix("[native,tray]"))
    assert Path(pip[at + 1]) == copy / "installers" / "constraints.txt"
    assert copy.parent.name.startswith("nospin-src-")


def test_pip_builds_llama_cpp_without_amx_and_rebuilds_a_cached_amx_wheel(
        sandbox: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pip's wheel cache ignores CFLAGS: a wheel cached from a native build with AMX comes
    back whatever the flags say, so the install asks the venv's llama.cpp and rebuilds it."""
    import app.install.apply as apply

    flags = {"CFLAGS": "-mno-amx-tile", "CXXFLAGS": "-mno-amx-tile"}
    monkeypatch.setattr(apply, "build_env_here", lambda: flags)

    class AmxWheel(FakeRunner):
        def __call__(self, argv: Sequence[str], *, timeout_s: float | None = None
                     ) -> CommandResult:
            if "-c" in argv:
                self.calls.append(tuple(argv))
                return CommandResult(0, "0.3.36\nCPU : AVX512 = 1 | AMX_INT8 = 1 |\n")
            return super().__call__(argv, timeout_s=timeout_s)

    runner = AmxWheel()
    actions = install(sandbox_plan(sandbox), runner=runner)
    pips = [c for c in runner.calls if "pip" in c]
    env = ("env", "CFLAGS=-mno-amx-tile", "CXXFLAGS=-mno-amx-tile")
    assert pips[0][:3] == env and pips[0][-1].endswith("nospin[native,tray]")
    assert pips[1][-3:] == ("cache", "remove", "llama_cpp_python")
    assert pips[2][:3] == env and pips[2][-3:] == ("--force-reinstall", "--no-deps",
                                                     "llama-cpp-python==0.3.36")
    assert any(a.detail == "llama-cpp-python built again without AMX" for a in actions)
    plain = FakeRunner()  # a build without AMX (or no answer): nothing rebuilt
    install(sandbox_plan(sandbox), runner=plain)
    assert len([c for c in plain.calls if "pip" in c]) == 1
    # the prebuilt set-up: wheels only, no build flags, no llama.cpp build to ask about
    prebuilt = AmxWheel()
    install(sandbox_plan(sandbox, build="prebuilt"), runner=prebuilt)
    (pip,) = [c for c in prebuilt.calls if "pip" in c]
    assert pip[0] != "env" and pip[6:8] == ("--only-binary", ":all:")
    assert pip[-1].endswith("nospin[tray]")
    assert not [c for c in prebuilt.calls if "-c" in c and "llama_cpp" in " ".join(c)]


def test_the_choice_runs_after_the_config_and_its_failure_is_a_warning(sandbox: Path) -> None:
    plan = sandbox_plan(sandbox)
    runner = FakeRunner()
    install(plan, runner=runner)
    assert plan.choose in runner.calls
    assert Path(plan.config_path).is_file()  # written before: the choice reads and sets it
    failing = FakeRunner(fail=("choose",))
    actions = install(plan, runner=failing)
    (warning,) = [a for a in actions if a.verb == "warning"]
    assert warning.what == " ".join(plan.choose)
    assert "the model choice failed (1): Failed to connect to bus; the model is kept" in \
        warning.detail
    assert {str(f.path) for f in plan.files} <= {a.what for a in actions}  # the install went on
    none = FakeRunner()
    install(sandbox_plan(sandbox, choose="off"), runner=none)
    assert not [c for c in none.calls if "choose" in c]


def test_refuses_to_overwrite_a_foreign_file_unless_forced(sandbox: Path) -> None:
    from app.errors import NospinError

    plan = sandbox_plan(sandbox)
    unit = Path(plan.files[0].path)
    unit.parent.mkdir(parents=True)
    unit.write_text("[Service]\nExecStart=/bin/true\n")
    with pytest.raises(NospinError, match="was not written by nospin install"):
        install(plan, runner=FakeRunner())
    install(plan, runner=FakeRunner(), force=True)
    assert unit.read_text() == plan.files[0].content


def test_activation_failures_are_warnings_and_uninstall_runs_stop_commands(
        sandbox: Path) -> None:
    host = detect_host("linux")
    host = Host(**{**{f: getattr(host, f) for f in host.__slots__},
                   "sandboxed": False})
    sha = hashlib.sha256(b"GGUF-part-one-and-two").hexdigest()
    plan = make_plan(host, InstallOptions(source=str(sandbox.parent / "src")),
                     embedded_file="tiny.gguf", embedded_sha256=sha)
    runner = FakeRunner(fail=("restart",))
    actions = install(plan, runner=runner)
    assert ("systemctl", "--user", "daemon-reload") in runner.calls
    (warning,) = [a for a in actions if a.verb == "warning"]
    assert "restart" in warning.what and "next login" in warning.detail
    runner = FakeRunner()
    uninstall(Path(plan.manifest_path), purge=True, runner=runner, stop_daemon=lambda: None)
    assert runner.calls == [("systemctl", "--user", "stop", "nospin.service"),
                            ("systemctl", "--user", "daemon-reload")]


def test_uninstall_never_empties_a_home_folder(sandbox: Path) -> None:
    assert apply_mod._too_broad(Path.home()) and apply_mod._too_broad(Path("/tmp"))
    assert not apply_mod._too_broad(sandbox / "cache")


def test_macos_layout_config_inside_the_data_dir_survives_uninstall(sandbox: Path) -> None:
    """On macOS platformdirs puts data, config and state in one folder: uninstall must empty
    it around the config, and --purge then takes the rest."""
    both = sandbox / "Application Support" / "nospin"
    host = host_for("macos", sandbox, data_dir=both, config_dir=both, state_dir=both,
                    cache_dir=sandbox / "Caches" / "nospin")
    sha = hashlib.sha256(b"GGUF-part-one-and-two").hexdigest()
    plan = make_plan(host, InstallOptions(source=str(sandbox.parent / "src"), activate=False),
                     embedded_file="tiny.gguf", embedded_sha256=sha)
    install(plan, runner=FakeRunner())
    (both / "requests.jsonl").write_text("{}\n")  # the daemon's request log (state)
    (both / "snapshots").mkdir()
    (both / "snapshots" / "s1.json").write_text("{}")
    uninstall(Path(plan.manifest_path), runner=FakeRunner(), stop_daemon=lambda: None)
    left = {str(p.relative_to(sandbox)) for p in sandbox.rglob("*")}
    assert left == {"Application Support", "Application Support/nospin",
                    "Application Support/nospin/config.toml",
                    "Application Support/nospin/snapshots",
                    "Application Support/nospin/snapshots/s1.json"}

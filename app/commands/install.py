"""``nospin install`` and ``nospin uninstall``: nospin as a per-user service (docs/install.md).

``install`` creates a dedicated virtual environment in the user data directory, installs nospin
into it (from this checkout, or ``--source`` wheel/sdist/folder) with the chosen extras, puts the
embedded model in place and checks its sha256, writes a default config unless one exists, and
registers the daemon (and the tray) with the platform's service manager. Running it again
changes nothing but what differs; ``uninstall`` removes what it recorded.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from app.errors import InstallError
from app.model_choice import MIN_CORES


def register(sub: Any) -> None:
    p = sub.add_parser("install", help="install nospin as a per-user service (own venv)")
    p.add_argument("--gpu", action="store_true",
                   help="add the GPU engine (the `gpu` extra: exllamav2, torch)")
    p.add_argument("--model", default="", metavar="PATH",
                   help="use this GGUF file (or EXL2 folder) instead of the embedded model")
    p.add_argument("--dry-run", action="store_true",
                   help="print the plan and the files it would write; change nothing")
    p.add_argument("--source", default="", metavar="PATH",
                   help="install nospin from this checkout, wheel or sdist "
                        "(default: the checkout this command runs from)")
    p.add_argument("--no-tray", action="store_true",
                   help="no tray: leave out the `tray` extra and its autostart entry")
    p.add_argument("--no-activate", action="store_true",
                   help="write the service files but do not register or start them now")
    p.add_argument("--system-site-packages", action="store_true",
                   help="let the venv see the system's packages (e.g. a system torch)")
    build = p.add_mutually_exclusive_group()
    build.add_argument("--native", dest="build", action="store_const", const="native",
                       default="auto", help="build llama-cpp-python for this CPU (the `native` "
                       "extra; the default where a C/C++ compiler and cmake are found)")
    build.add_argument("--prebuilt", dest="build", action="store_const", const="prebuilt",
                       help="compile nothing: wheels only, the CPU engine is xllamacpp")
    choice = p.add_mutually_exclusive_group()
    choice.add_argument("--choose", dest="choose", action="store_const", const="force",
                        default="auto", help="measure which model meets the typing targets "
                        "(installing the 1.5B) whatever the machine (NOSPIN_CHOOSE=1 too); by "
                        f"default only with a CUDA GPU or {MIN_CORES} CPU cores")
    choice.add_argument("--no-choose", dest="choose", action="store_const", const="off",
                        help="keep the embedded 0.5B without measuring")
    p.add_argument("--force", action="store_true",
                   help="overwrite service files at nospin's paths that it did not write")
    p.set_defaults(func=run_install)

    u = sub.add_parser("uninstall", help="remove what `nospin install` added")
    u.add_argument("--purge", action="store_true",
                   help="also remove the configuration, its snapshots and the tcp token")
    u.set_defaults(func=run_uninstall)


def _progress(message: str) -> None:
    print(f"nospin: {message} ...", file=sys.stderr, flush=True)


def run_install(args: argparse.Namespace) -> int:
    from pathlib import Path

    from app.install import InstallOptions, checkout_root, describe, install, plan_here

    source = args.source
    if not source:
        root = checkout_root()
        if root is None:
            raise InstallError("this nospin does not run from a checkout: give --source",
                              detail="a nospin checkout folder, wheel or sdist")
        source = str(root)
    model = str(Path(args.model).expanduser().resolve()) if args.model else ""
    options = InstallOptions(source=str(Path(source).expanduser().resolve()), gpu=args.gpu,
                             tray=not args.no_tray, model=model,
                             system_site_packages=args.system_site_packages,
                             activate=not args.no_activate, build=args.build,
                             choose=args.choose)
    plan = plan_here(options)
    if args.dry_run:
        print(describe(plan))
        return 0
    actions = install(plan, force=args.force, progress=_progress)
    for a in actions:
        print(f"  {a.verb:<9} {a.what}" + (f"  ({a.detail})" if a.detail else ""))
    warnings = sum(a.verb == "warning" for a in actions)
    print(f"nospin installed in {plan.venv}" + (f" with {warnings} warning(s)" if warnings else "")
          + f"; check it with: {plan.nospin} doctor")
    return 0


def run_uninstall(args: argparse.Namespace) -> int:
    from pathlib import Path

    from app.install import uninstall
    from app.install.host import data_dir
    from app.install.plan import MANIFEST_NAME

    manifest = data_dir() / MANIFEST_NAME
    actions = uninstall(Path(manifest), purge=args.purge)
    if not actions:
        print(f"nospin: nothing to uninstall (no {manifest})")
        return 0
    for a in actions:
        print(f"  {a.verb:<9} {a.what}" + (f"  ({a.detail})" if a.detail else ""))
    kept = [a for a in actions if a.verb == "kept"]
    print("nospin uninstalled" + ("; your configuration is kept (--purge removes it)"
                                  if kept else ""))
    return 0

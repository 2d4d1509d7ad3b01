"""``nospin install`` / ``uninstall`` / ``doctor``: nospin as a per-user service.

A pure plan (``plan.make_plan``: files with their text, commands, what uninstall removes) from
the machine's paths (``host.detect_host``) and the user's options; a thin shell that carries it
out idempotently and records what it created (``apply.install``, ``apply.uninstall``,
``manifest``); and the checks of ``nospin doctor`` (``doctor``). See docs/install.md.
"""

from app.install.apply import Action, install, uninstall
from app.install.host import checkout_root, detect_host, plan_here
from app.install.plan import Host, InstallOptions, InstallPlan, describe, make_plan

__all__ = [
    "Action",
    "Host",
    "InstallOptions",
    "InstallPlan",
    "checkout_root",
    "describe",
    "detect_host",
    "install",
    "make_plan",
    "plan_here",
    "uninstall",
]

"""Subcommands of the ``nospin`` command, one module each (see app/cli.py)."""

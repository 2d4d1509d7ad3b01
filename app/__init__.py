"""nospin: command line, configuration and client library."""

__version__ = "0.1.0"

"""nospin daemon: project index, context assembly, scheduling and the socket server."""

"""The stages of a ``complete`` request, one module and one entry function each, in order:

``prefilter`` -> ``plan`` (what the scheduler needs) -> ``assemble`` (the context, off the loop)
-> ``generate`` (the engine's request) -> ``stream`` (chunks to the client) -> ``postprocess``
-> the final reply (``daemon.replies.final_reply``). ``daemon.service.Service._complete`` calls
them in this order, top-down; docs/daemon.md ("The complete path") has the table of their inputs
and outputs.
"""

"""How many threads decode one token at a time, and prefill a prompt: measured, not guessed.

On a CPU engine, decoding one token is a small graph that every thread must finish before the
next node starts. With the cores idle, more threads decode faster (2 cores, the embedded 0.5B:
about 30 tokens/s on two threads against 20 on one); with the cores busy (a build, a test run)
the threads wait for each other at every node and one thread wins (docs/latency.md: 11-19
against 2-9 tokens/s at load 6). No fixed setting is best for both, and a developer's machine
goes from one to the other all day.

Prefill is the same question for chunks of prompt tokens (one thread prefilled about 2x
faster than two under that load, two 1.8x faster when idle). ``ThreadGovernor`` keeps a running
time per token for each candidate count, one governor per phase, from the requests the engine
served, and picks the fastest. The count not in use is measured again now and then (one
request), after a wait that doubles while the verdict holds, so a machine that became idle
again is noticed (at once when the engine sees the other work stop: ``expedite``); a count in
use that became slower is left at once, since its own figure shows it. A re-measure replaces
the old figure (it is stale by then); a wrong verdict from one noisy request is undone by the
next few, which measure that count again.

A probe runs on the count the verdict says is slower, so an editor waiting on it sees that:
one prefill probe on two idle cores took a 74-token prefill from ~500 ms to 1,020 ms, the
replay's slowest last-keystroke completion (docs/latency.md, "Thread probes"). The caller says
whether the request is ``interactive``; an interactive request takes a due probe only when no
background request (a warm-up) has taken it for ``interactive_patience`` times the wait, so the
daemon's warm-ups carry the probes and an engine without warm-ups still probes, later. (The
llamacpp engine also runs a prefill probe for its first step only, and a decode probe for 6
steps, after a warm-up's prefill.) Pure: no clock, no engine;
not thread-safe (the engine thread calls it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["ThreadGovernor", "thread_choices"]


def thread_choices(cpu_count: int) -> tuple[int, ...]:
    """Candidate thread counts on a machine with ``cpu_count`` logical CPUs: half of them
    (llama.cpp's default for decoding, one per physical core on most machines) and all of them."""
    cpus = max(1, cpu_count)
    return tuple(sorted({max(1, cpus // 2), cpus}))


@dataclass(slots=True)
class ThreadGovernor:
    """Picks a thread count from ``choices`` by measured milliseconds per token of one phase
    (``phase``: "decoding" one token at a time, or "prefilling" prompt chunks)."""

    choices: tuple[int, ...]
    phase: str = "decoding"
    alpha: float = 0.3  # weight of the newest request in a running figure
    min_tokens: int = 4  # fewer decoded tokens say too little about the speed
    # requests not judged at all: the first ones after a start run cold (the model's pages are
    # read in: the first prefill here took 42 ms per token on two threads, then 11)
    skip_first: int = 1
    probe_wait: int = 8  # requests on the chosen count before the first re-measure of another
    max_probe_wait: int = 256
    # an interactive request takes a due probe only after this many times the wait
    interactive_patience: int = 4
    # the count in use before any figure (0: all CPUs, the largest choice); the engine sets the
    # smallest when other work keeps the cores busy at start (engine/cpu_load.py)
    start: int = 0
    # a run of fewer than min_tokens is judged anyway when it took this many times what the
    # count in use needs for min_tokens (``far_slower``): on cores other work kept busy, two
    # threads took 1-3 s per decode step and the deadline cut every request to 1-2 of them
    slow_factor: float = 2.0
    ms_per_token: dict[int, float] = field(default_factory=dict)
    # probes of a count other than the verdict's started by ``pick``, and how many of them
    # an interactive request took (for the stats: each one slowed an editor's request)
    num_probes: int = 0
    num_interactive_probes: int = 0
    _since_probe: int = 0
    _wait: int = 0
    _probing: int = 0  # the count being measured by the next request (0: none)

    def __post_init__(self) -> None:
        if not self.choices:
            raise ValueError("no thread choices")
        self._wait = self.probe_wait

    def pick(self, num_tokens: int | None = None, *, interactive: bool = False) -> int:
        """The thread count for the next request's phase; ``num_tokens``, when known, is what
        it will run: a request too small to be judged never measures another count (most
        keystrokes prefill a few tokens: a probe must not slow them for nothing).
        ``interactive``: an editor waits on this request, so it takes a due probe only when
        background requests have left it undone for ``interactive_patience`` waits."""
        self._probing = 0
        if num_tokens is not None and num_tokens < self.min_tokens:
            return self.current
        unmeasured = [n for n in self.choices if n not in self.ms_per_token]
        if unmeasured:  # measure every count once: the one in use, then the largest first
            probe = self.current if self.current in unmeasured else unmeasured[-1]
        elif len(self.choices) > 1 and self._since_probe >= self._wait:
            probe = next(n for n in self.choices if n != self.current)
        else:
            return self.current
        # the first figure of the count in use spares nothing; a probe spares an editor
        overdue = self._since_probe >= self._wait * self.interactive_patience
        if probe == self.current or not interactive or overdue:
            self._probing = probe
            if probe != self.current:
                self.num_probes += 1
                self.num_interactive_probes += interactive
        return self._probing or self.current

    def far_slower(self, num_tokens: int, ms: float) -> bool:
        """Whether ``num_tokens`` run in ``ms`` took over ``slow_factor`` times what the count
        in use needs for at least ``min_tokens`` of them (False before it has a figure). A
        healthy run of a few tokens costs about one step (25-30 ms here, under the 2 x 4 x 25
        ms this allows for decode and 2 x 32 x 7 ms for prefill); a count whose threads keep
        waiting for each other takes 1-3 s per step."""
        ref = self.ms_per_token.get(self.current)
        return ref is not None and ms > self.slow_factor * ref * max(num_tokens, self.min_tokens)

    def record(self, threads: int, num_tokens: int, decode_ms: float) -> None:
        """A request's phase ran ``num_tokens`` tokens on ``threads`` threads in ``decode_ms``.
        Fewer than ``min_tokens`` say too little, unless ``far_slower``: a probe stopped early,
        a keystroke's prefill or a decode the deadline cut, on a count that became far slower
        (no request would ever leave it otherwise)."""
        if threads not in self.choices or decode_ms <= 0 or num_tokens <= 0:
            return
        if num_tokens < self.min_tokens and not self.far_slower(num_tokens, decode_ms):
            return
        if self.skip_first > 0:
            self.skip_first -= 1
            return
        before = self.current
        ms = decode_ms / num_tokens
        old = self.ms_per_token.get(threads)
        # a re-measure replaces a stale figure; the count in use is smoothed over its requests
        if old is None or threads == self._probing:
            self.ms_per_token[threads] = ms
        else:
            self.ms_per_token[threads] = old + self.alpha * (ms - old)
        if threads == self._probing and len(self.ms_per_token) == len(self.choices):
            # a re-measure: a changed verdict measures again soon, a kept one waits longer
            self._wait = (
                self.probe_wait
                if self.current != before
                else min(self.max_probe_wait, self._wait * 2)
            )
            self._since_probe = 0
        else:
            self._since_probe += 1
        self._probing = 0

    def expedite(self) -> None:
        """The other work that made the verdict has stopped (engine/cpu_load.py): the other
        count is due for a re-measure now, and the wait starts over from ``probe_wait``.
        Without this, a verdict kept through a long build waited up to ``max_probe_wait``
        requests before the idle machine was noticed."""
        self._wait = self.probe_wait
        self._since_probe = max(self._since_probe, self._wait)

    @property
    def probing(self) -> int:
        """The count the last ``pick`` chose to measure against the verdict (0: none)."""
        return self._probing if self._probing != self.current else 0

    @property
    def current(self) -> int:
        """The count in use outside probes: the fastest measured; before any figure ``start``
        when it is a choice, else all CPUs."""
        if not self.ms_per_token:
            return self.start if self.start in self.choices else self.choices[-1]
        return min(self.ms_per_token, key=lambda n: (self.ms_per_token[n], n))

    @property
    def note(self) -> str:
        """The verdict for the stats: per count, its running time per token."""
        figures = ", ".join(
            f"{n}: {self.ms_per_token[n]:.0f} ms" for n in sorted(self.ms_per_token)
        )
        return f"{self.phase} on {self.current} thread(s) ({figures} per token)" if figures else ""

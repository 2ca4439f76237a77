"""What `referee serve` runs: its children (Redis, the web server, workers, the beat),
started in order, restarted with backoff when one dies, and stopped with it.

Every child is started with a parent-death signal (Linux): if `referee serve` itself is
killed, the kernel kills its children, so no worker or beat outlives it and keeps
writing to the database."""

import ctypes
import ctypes.util
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger("referee.supervisor")

PR_SET_PDEATHSIG = 1
FIRST_DELAY = 0.5  # seconds before the first restart of a child that died
MOST_DELAY = 30.0  # the backoff's ceiling
STEADY = 60.0  # a child that ran this long starts its backoff over
STOP_SECONDS = 20.0  # a child asked to stop (SIGTERM) is killed after this long
TICK = 0.2  # how often the supervisor looks at its children


def die_with_parent(parent: int) -> Callable[[], None]:
    """A preexec_fn: the child gets SIGKILL when its parent dies (and exits at once if
    the parent died before the child could ask)."""

    def preexec() -> None:
        os.setpgrp()  # its own process group: a terminal's ^C reaches the supervisor only
        set_parent_death_signal(signal.SIGKILL)
        if os.getppid() != parent:
            os._exit(1)

    return preexec


def set_parent_death_signal(sig: int) -> None:
    """prctl(PR_SET_PDEATHSIG): a no-op where the kernel has no such thing."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)


@dataclass
class Child:
    """One process the supervisor keeps running."""

    name: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    ready: Callable[[], bool] | None = None  # answered True once it serves (waited for)
    after_restart: tuple[str, ...] = ()  # children restarted when this one is
    process: subprocess.Popen | None = None
    started: float = 0.0
    failures: int = 0  # restarts since it last ran steadily
    restart_at: float | None = None

    def delay(self) -> float:
        return min(MOST_DELAY, FIRST_DELAY * 2**self.failures)


class Supervisor:
    """Starts children in order, restarts any that die, stops them in reverse."""

    def __init__(
        self,
        children: list[Child],
        *,
        clock: Callable[[], float] = time.monotonic,
        ready_seconds: float = 60.0,
    ) -> None:
        self.children = children
        self.clock = clock
        self.ready_seconds = ready_seconds
        self.stopping = False

    def by_name(self, name: str) -> Child:
        return next(child for child in self.children if child.name == name)

    def start(self) -> None:
        for child in self.children:
            self._spawn(child)
            self._await_ready(child)

    def run(self) -> None:
        """Watch the children until stop() (a signal handler calls it)."""
        while not self.stopping:
            self.check()
            time.sleep(TICK)

    def check(self) -> None:
        """One look: note the children that died, restart those whose delay is over."""
        now = self.clock()
        for child in self.children:
            if child.restart_at is None and self._exited(child):
                self._schedule_restart(child, now)
            elif child.restart_at is not None and now >= child.restart_at:
                self._restart(child)

    def stop(self) -> None:
        """SIGTERM to every child (newest first), then SIGKILL to any still there."""
        self.stopping = True
        alive = [c.process for c in reversed(self.children) if c.process is not None]
        for process in alive:
            if process.poll() is None:
                process.terminate()
        for process in alive:
            try:
                process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def _exited(self, child: Child) -> bool:
        return child.process is not None and child.process.poll() is not None

    def _schedule_restart(self, child: Child, now: float) -> None:
        assert child.process is not None
        if now - child.started >= STEADY:
            child.failures = 0
        delay = child.delay()
        child.failures += 1
        child.restart_at = now + delay
        log.warning(
            "%s (pid %d) %s; restarting in %.1f s",
            child.name,
            child.process.pid,
            exit_text(child.process.returncode),
            delay,
        )

    def _restart(self, child: Child) -> None:
        child.restart_at = None
        self._spawn(child)
        self._await_ready(child)
        for name in child.after_restart:
            self._bounce(self.by_name(name), because=child.name)

    def _bounce(self, child: Child, *, because: str) -> None:
        """Restart a child that depends on one just restarted (its connections are dead)."""
        process = child.process
        if process is not None and process.poll() is None:
            log.warning("%s (pid %d) restarted after %s", child.name, process.pid, because)
            process.kill()
            process.wait()
        child.restart_at = None
        self._spawn(child)

    def _spawn(self, child: Child) -> None:
        child.process = subprocess.Popen(
            child.argv,
            env={**os.environ, **child.env},
            preexec_fn=die_with_parent(os.getpid()),  # noqa: PLW1509 - before any thread
        )
        child.started = self.clock()
        log.info("%s started (pid %d)", child.name, child.process.pid)

    def _await_ready(self, child: Child) -> None:
        if child.ready is None:
            return
        deadline = time.monotonic() + self.ready_seconds
        while not child.ready():
            if child.process is not None and child.process.poll() is not None:
                return  # it died: check() restarts it
            if time.monotonic() > deadline:
                log.error("%s did not get ready in %.0f s", child.name, self.ready_seconds)
                return
            time.sleep(0.05)


def exit_text(code: int | None) -> str:
    """'was killed by SIGKILL' or 'exited with status 1'."""
    if code is not None and code < 0:
        return f"was killed by {signal.Signals(-code).name}"
    return f"exited with status {code}"

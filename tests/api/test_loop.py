"""Long CPU work in a web process runs beside its gevent loop: the loop keeps serving
(here, a greenlet keeps ticking) while the work runs, and the work's answer or error comes
back. Run in a process of its own, patched as `referee web` patches itself."""

import subprocess
import sys
import textwrap

from referee.loop import beside_loop

PROGRAM = textwrap.dedent(
    """
    from gevent import monkey

    monkey.patch_all()
    import time

    import gevent

    from referee.loop import beside_loop

    ticks = [0]


    def tick():
        while True:
            gevent.sleep(0.001)
            ticks[0] += 1


    def spin(until):
        # busy on the CPU until the loop has ticked 3 times; in the loop itself it never
        # would, and gives up after `until` seconds
        give_up = time.monotonic() + until
        while ticks[0] < 3 and time.monotonic() < give_up:
            pass
        return ticks[0]


    def fails():
        raise ValueError("said so")


    gevent.spawn(tick)
    gevent.sleep(0)
    print("ticked", beside_loop(spin, 30.0))
    try:
        beside_loop(fails)
    except ValueError as error:
        print("raised", error)
    """
)


def test_long_work_runs_beside_the_loop_which_keeps_serving():
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.splitlines() == ["ticked 3", "raised said so"], done.stderr


def test_outside_a_gevent_process_the_work_runs_in_place():
    import threading

    assert beside_loop(threading.get_ident) == threading.get_ident()

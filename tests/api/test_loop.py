"""Long CPU work in a web process runs beside its gevent loop: the loop keeps serving
(here, a greenlet keeps ticking) while the work runs, and the work's answer or error comes
back. Run in a process of its own, patched as `referee web` patches itself."""

import subprocess
import sys
import textwrap

from referee.runtime.loop import beside_loop

PROGRAM = textwrap.dedent(
    """
    from gevent import monkey

    monkey.patch_all()
    import time

    import gevent

    from referee.runtime.loop import beside_loop

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
    print("ticked", beside_loop(spin, 30.0) >= 3)  # the loop may tick again before the return
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
    assert done.stdout.splitlines() == ["ticked True", "raised said so"], done.stderr


def test_outside_a_gevent_process_the_work_runs_in_place():
    import threading

    assert beside_loop(threading.get_ident) == threading.get_ident()


KILLED = textwrap.dedent(
    """
    from gevent import monkey

    monkey.patch_all()
    import threading

    import gevent

    from referee.runtime.loop import beside_loop

    started, ended = threading.Event(), []
    go_on = monkey.get_original("threading", "Event")()  # set by the loop, waited natively


    def work():
        started.set()
        go_on.wait(60)
        ended.append(True)


    def ask():
        beside_loop(work)


    asking = gevent.spawn(ask)
    gevent.sleep(0)
    while not started.is_set():
        gevent.sleep(0.001)
    gevent.spawn_later(0.05, go_on.set)
    asking.kill()  # as a stopping server kills its greenlets
    print("ended before the greenlet", ended == [True], asking.dead)
    """
)


def test_a_greenlet_killed_while_its_work_runs_beside_the_loop_waits_for_the_work():
    """Work beside the loop may hold a transaction: nothing goes on behind its back."""
    done = subprocess.run(
        [sys.executable, "-c", KILLED], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.splitlines() == ["ended before the greenlet True True"], done.stderr


PAUSES = textwrap.dedent(
    """
    from gevent import monkey

    monkey.patch_all()
    import gevent
    from gevent._hub_local import get_hub_if_exists

    from referee.runtime.loop import beside_loop, pause

    ticks = [0]


    def tick():
        while True:
            gevent.sleep(0.001)
            ticks[0] += 1


    gevent.spawn(tick)
    gevent.sleep(0)
    while ticks[0] < 3:
        pause(0.001)  # on the loop: the loop serves meanwhile
    print("ticked", ticks[0] >= 3)


    def beside():
        pause(0.001)  # a native sleep: no loop of its own made for this thread
        return get_hub_if_exists()


    print("beside", beside_loop(beside))
    """
)


def test_a_pause_lets_the_loop_serve_on_it_and_sleeps_the_thread_beside_it():
    done = subprocess.run(
        [sys.executable, "-c", PAUSES], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.splitlines() == ["ticked True", "beside None"], done.stderr


SAYS = textwrap.dedent(
    """
    from gevent import monkey

    monkey.patch_all()
    import threading
    import time

    import gevent

    from referee.runtime.loop import beside_loop, on_loop

    lock = threading.Lock()  # as the logging module's: the loop's, made by gevent
    said, ident = [], monkey.get_original("threading", "get_ident")  # the OS thread's


    def say(text):
        with lock:
            said.append((text, ident()))


    def busy():
        for _ in range(200):
            with lock:
                gevent.sleep(0)


    def work():
        for n in range(200):
            on_loop(say, n)
        return ident()


    crowd = [gevent.spawn(busy) for _ in range(3)]
    beside = beside_loop(work)
    gevent.joinall(crowd)
    give_up = time.monotonic() + 30
    while len(said) < 200 and time.monotonic() < give_up:  # said when the loop next runs
        gevent.sleep(0.001)
    print(len(said), {who for _, who in said} == {ident()}, beside != ident())
    """
)


def test_what_work_beside_the_loop_says_is_said_on_the_loop():
    """A lock of the loop's taken on a native thread can lose the wake-up of a greenlet
    that waits for it (then the process stands still): what the work logs goes to the loop."""
    done = subprocess.run(
        [sys.executable, "-c", SAYS], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.splitlines() == ["200 True True"], done.stderr

"""Work done by a call, counted rather than timed: tests bound the work of hostile inputs without clocks.

`count_calls(fn)` runs `fn()` and counts the function calls it makes
(Python and built-in), with `sys.setprofile`. The count depends on the code
and the input alone, not on the machine or its load, so a bound on it holds
on a busy CI machine as on an idle one. Bounds in the tests are set with room
(a few times what the code does today): they fail on a change of complexity
(a hang, an exponential search), not on a small change of code.
"""
from __future__ import annotations

import sys


class _Counter:
    def __init__(self):
        self.calls = 0

    def __call__(self, frame, event, arg):
        if event == "call" or event == "c_call":
            self.calls += 1


def count_calls(fn, *args, **kwargs):
    """(what fn returned, or the exception it raised; the number of calls it made)."""
    counter = _Counter()
    old = sys.getprofile()
    sys.setprofile(counter)
    try:
        result = fn(*args, **kwargs)
    except BaseException as exc:       # the caller asserts on it
        result = exc
    finally:
        sys.setprofile(old)
    return result, counter.calls

"""Exercise 4 rubric: a fair timing harness, and a consistent speedup report.

The timer is observed against instrumented steps (see the ex4 probe): one is
slow on its first call only, one finishes its work after returning, and all
count their calls, so each property is judged without depending on how fast
the machine is.
"""

from __future__ import annotations

from grader.checks import PASS, Check, Context, Mistake, Verdict, fail
from grader.protocol import EX4_ASYNC_DELAY, EX4_COMPILE_DELAY

COMPILE = Mistake(
    "ex4.no_warmup", "timing the first (compiling) call",
    "The first call (which compiles a jitted step) was inside the timed region. Call step_fn once "
    "before starting the clock, and wait for that call to finish.")
BLOCK = Mistake(
    "ex4.no_block", "stopping the clock before the results are ready",
    "The clock stopped before the work finished: JAX dispatches asynchronously, so step_fn returns "
    "before its results exist. Call jax.block_until_ready on the final results before reading the clock.")
PER_STEP = Mistake("ex4.per_step_time", "the time of one call or an average",
    "Return the total time of the n_steps calls, not the time of one call or an average.")
CPU_CLOCK = Mistake(
    "ex4.cpu_clock", "a clock that counts CPU time, not wall time (time.process_time)",
    "The results were waited for, but the clock did not count the wait: time.process_time (and "
    "time.thread_time) count this process's CPU time, which stands still while the device works. Use "
    "time.perf_counter.")
ONE_CALL = Mistake(
    "ex4.one_timed_call", "timing one call whatever n_steps is",
    "Only one call was timed after the warm-up: call step_fn n_steps times inside the timed region.")
HINT_ONE_STEP = "Call step_fn n_steps times inside the timed region (plus one warm-up call before it)."
THREAD = Mistake(
    "ex4.state_not_threaded", "state that is not threaded through the calls",
    "Thread the state: each call must receive the params and opt_state returned by the previous call, "
    "as in a real training loop.")
FLOAT = Mistake("ex4.not_float", "a result that is not a Python float",
    "Return a Python float (time.perf_counter() differences are floats).")
HINT_DICT = 'Return {"eager_s": float, "jit_s": float, "speedup": eager_s / jit_s}.'
INVERTED = Mistake("ex4.speedup_inverted", "jit_s / eager_s",
    "The speedup is inverted: speedup = eager_s / jit_s (how many times faster jit is).")
HINT_SLOWER = (
    "jit was not faster. Check that the jitted timing excludes compilation and that both timings run the "
    "same number of steps; then compare with the grader's own measurement shown here."
)


def excludes_compile(ctx: Context) -> Verdict:
    """A step whose first call takes 0.6 s (like compilation) is not charged for it."""
    obs = ctx.got("time/compile")
    if obs["seconds"] < EX4_COMPILE_DELAY / 2:
        return PASS
    return fail(f"with a step whose first call takes {EX4_COMPILE_DELAY} s and later calls are instant, "
                f"time_steps(n_steps={obs['n_steps']}) returned {obs['seconds']:.3f} s", COMPILE)


def waits_for_results(ctx: Context) -> Verdict:
    """A step whose results arrive later (like async dispatch) is timed to completion."""
    obs = ctx.got("time/async")
    expected = obs["n_steps"] * EX4_ASYNC_DELAY
    if obs["seconds"] >= EX4_ASYNC_DELAY / 2:
        return PASS
    message = (f"with a step that returns at once and finishes {EX4_ASYNC_DELAY * 1000:.0f} ms of work later, "
               f"time_steps(n_steps={obs['n_steps']}) returned {obs['seconds'] * 1000:.1f} ms; "
               f"about {expected * 1000:.0f} ms of work was queued")
    if obs.get("waits", 0) == 0:
        return fail(message + "; nothing waited for the results", BLOCK)
    if obs.get("wall", 0.0) >= 0.9 * expected:
        return fail(message + f", and the call itself took {obs['wall'] * 1000:.0f} ms of wall time", CPU_CLOCK)
    return fail(message, "Time the calls with a wall clock (time.perf_counter), and stop it after "
                         "jax.block_until_ready on the final results.")


def times_n_steps(ctx: Context) -> Verdict:
    """Exactly n_steps timed calls (plus one warm-up), with params and state threaded through.

    Three properties: the number of calls, the threading of the state, and the
    total (not per-step) time. A timer that makes the wrong number of calls
    gets nothing; one that makes the right calls gets a third for each property
    it has, so one flaw costs part of this check instead of also closing the
    checks gated on it (excludes_compile, returns_float).
    """
    count = ctx.got("time/count")
    n, calls = count["n_steps"], count["calls"]
    if calls not in (n, n + 1):
        hint = HINT_ONE_STEP if calls < n else "Make exactly n_steps calls after the single warm-up call."
        if calls == 2 and n > 2:  # the warm-up and one timed call
            hint = ONE_CALL
        return fail(f"time_steps(n_steps={n}) called step_fn {calls} times; expected {n} plus one warm-up", hint)
    problems, hints = [], []
    expected = list(range(calls))
    # The timed calls must be threaded; the warm-up's result may feed the first of them or be discarded.
    threaded = [expected] + ([[0, *range(n)]] if calls == n + 1 else [])
    if count["params_seen"] not in threaded or count["state_seen"] not in threaded:
        problems.append(f"the calls received params counters {count['params_seen']} and opt_state counters "
                        f"{count['state_seen']}; threading the state gives {expected}")
        hints.append(THREAD)
    timed = ctx.got("time/async")
    expected_s = timed["n_steps"] * EX4_ASYNC_DELAY
    if EX4_ASYNC_DELAY / 2 <= timed["seconds"] < 0.6 * expected_s:
        problems.append(f"{timed['n_steps']} steps of {EX4_ASYNC_DELAY * 1000:.0f} ms each were timed as "
                        f"{timed['seconds'] * 1000:.1f} ms")
        hints.append(PER_STEP)
    if not problems:
        return PASS
    return fail("; ".join(problems), hints[0], fraction=1 - len(problems) / 3)


def returns_float(ctx: Context) -> Verdict:
    """time_steps returns a Python float."""
    obs = ctx.got("time/count")
    return PASS if obs["is_float"] else fail(f"time_steps returned a {obs['returned_type']}", FLOAT)


def _speedup(ctx: Context) -> dict:
    result = ctx.got("speedup")
    missing = {"eager_s", "jit_s", "speedup"} - set(result.get("keys", []))
    if result.get("type") != "dict" or missing:
        raise _BadDict(f"jit_speedup returned {result.get('type')} with keys {result.get('keys', [])}; "
                       f"missing {sorted(missing)}")
    return result


class _BadDict(Exception):
    pass


def speedup_dict(ctx: Context) -> Verdict:
    """jit_speedup returns positive timings and speedup == eager_s / jit_s."""
    try:
        r = _speedup(ctx)
    except _BadDict as exc:
        return fail(str(exc), HINT_DICT)
    eager, jit, speedup = r["eager_s"], r["jit_s"], r["speedup"]
    if not (eager > 0 and jit > 0):
        return fail(f"eager_s={eager:.4g} and jit_s={jit:.4g}: both must be positive durations", HINT_DICT)
    if abs(speedup - eager / jit) <= 1e-6 * abs(eager / jit):
        return PASS
    hint = INVERTED if abs(speedup - jit / eager) <= 1e-6 * abs(jit / eager) else HINT_DICT
    return fail(f"speedup={speedup:.4g} but eager_s / jit_s = {eager / jit:.4g}", hint)


def jit_faster(ctx: Context) -> Verdict:
    """The jitted step is faster than the eager one."""
    try:
        r = _speedup(ctx)
    except _BadDict as exc:
        return fail(str(exc), HINT_DICT)
    own = ""
    try:
        mine = ctx.want("speedup")
        own = f" (the grader measured {mine['speedup']:.1f}x on this machine)"
    except Exception:  # noqa: BLE001 - the comparison figure is optional
        pass
    if r["eager_s"] > 0 and r["jit_s"] > 0 and r["eager_s"] / r["jit_s"] > 1.0:
        return Verdict(True, f"jit was {r['eager_s'] / r['jit_s']:.1f}x faster{own}")
    return fail(f"eager_s={r['eager_s']:.4g} s, jit_s={r['jit_s']:.4g} s{own}", HINT_SLOWER)


CHECKS = [
    Check("ex4.excludes_compile", "compilation is excluded from the timing", excludes_compile, ("time_steps",)),
    Check("ex4.waits_for_results", "the clock waits for the results (block_until_ready)", waits_for_results,
          ("time_steps",)),
    Check("ex4.n_steps", "exactly n_steps calls, state threaded through", times_n_steps, ("time_steps",)),
    Check("ex4.returns_float", "time_steps returns a float", returns_float, ("time_steps",)),
    Check("ex4.speedup_dict", "jit_speedup reports eager_s, jit_s and speedup = eager_s / jit_s", speedup_dict,
          ("jit_speedup",)),
    Check("ex4.jit_faster", "jit is faster than eager", jit_faster, ("jit_speedup",)),
]

"""Exercise 4 rubric: a fair timing harness, and a speedup report built from it.

The timer is observed against instrumented steps (see the ex4 probe) whose
costs the grader sets (drawn from the seed for the official grade) and whose
results are each ready when their own call's work is done. So the judge knows
what a correct timer returns, and measures what the student's returns against
it: the ratio between the two, in two runs of different lengths and costs,
tells a correct timer from a constant (which follows neither), a wrong unit
(the same ratio in both runs), a per-step time (1/n_steps) and an off-by-one
count ((n_steps +- 1)/n_steps); which results were waited on tells blocking on
the last result from blocking on an earlier one, or on none.

What would earn points without timing anything, and why it does not:
``ex4.n_steps`` is worth nothing when the returned time follows no cost
(constants, guesses from n_steps), and ``ex4.excludes_compile``,
``ex4.waits_for_results`` and ``ex4.returns_float`` are judged only once it
earns credit; ``ex4.speedup_dict`` and ``ex4.jit_faster`` need eager_s and
jit_s to be what the student's own time_steps returned for the lesson's step,
without and with jax.jit, in the same run.
"""

from __future__ import annotations

import math
import statistics
import sys
from dataclasses import dataclass
from typing import Callable

from grader.checks import PASS, Check, Context, Missing, Mistake, StudentError, Verdict, fail, skip
from grader.checks.common import crash_hint
from grader.observations import ObservationError
from grader.exercises.ex4.shared import (COMPILE_DELAY, COUNT_STEPS, HOST_QUEUED, HOST_WAIT, MANY_STEPS,
                                         MAX_CALLS_SHOWN, N_STEPS, RUN_STEPS, SPEEDUP_STEPS, UNEVEN_COSTS, UNEVEN_STEPS)

COMPILE = Mistake(
    "ex4.no_warmup", "timing the first (compiling) call",
    "The first call (which compiles a jitted step) was inside the timed region. Call step_fn once "
    "before starting the clock, and wait for that call to finish.")
WARMUP_SHAPES = Mistake(
    "ex4.warmup_other_shapes", "a warm-up call with inputs of other shapes than the timed calls'",
    "jax.jit compiles once for each new shape of its inputs, so a warm-up on other shapes (a slice of x, a "
    "smaller batch) leaves the first timed call to compile again. Warm up with the same x and y you time.")
CACHES_CLEARED = Mistake(
    "ex4.caches_cleared", "jax.clear_caches() between the warm-up and the timed calls",
    "jax.clear_caches() drops the compiled step, so the next call compiles again, inside the clock. Do not "
    "clear JAX's caches in time_steps: the warm-up's compilation is what the timed calls reuse.")
BLOCK = Mistake(
    "ex4.no_block", "stopping the clock before the results are ready",
    "The clock stopped before the work finished: JAX dispatches asynchronously, so step_fn returns "
    "before its results exist. Call jax.block_until_ready on the final results before reading the clock: on the "
    "arrays or a pytree of them (a tuple, list, dict or NamedTuple); a generator, an iterator or an object of a "
    "class JAX does not know as a pytree (a dataclass not registered with jax.tree_util) is one opaque leaf, so "
    "nothing inside it is waited for.")
PER_STEP = Mistake("ex4.per_step_time", "the time of one call or an average",
    "Return the total time of the n_steps calls, not the time of one call or an average.")
PER_C_STEPS = Mistake(
    "ex4.rescaled_to_steps", "a time rescaled to a fixed number of steps",
    "The returned time is the measured one times c / n_steps (c in the message), a time per c steps: return "
    "the total time of the n_steps calls made, the plain difference of two time.perf_counter() readings.")
CPU_CLOCK = Mistake(
    "ex4.cpu_clock", "a clock that counts CPU time, not wall time (time.process_time)",
    "The results were waited for, but the clock did not count the wait: time.process_time (and "
    "time.thread_time) count this process's CPU time, which stands still while the device works. Use "
    "time.perf_counter.")
ONE_CALL = Mistake(
    "ex4.one_timed_call", "timing one call whatever n_steps is",
    "Only one call was timed after the warm-up: call step_fn n_steps times inside the timed region.")
HINT_SHORT = ("The returned time is shorter than the calls took, though their results were waited for: read "
              "time.perf_counter() just before the first timed call and again after jax.block_until_ready on the "
              "last call's results, and return the difference.")
HINT_ONE_STEP = "Call step_fn n_steps times inside the timed region (plus one warm-up call before it)."
THREAD = Mistake(
    "ex4.state_not_threaded", "state that is not threaded through the calls",
    "Thread the state: each call must receive the params and opt_state returned by the previous call, "
    "as in a real training loop.")
FLOAT = Mistake("ex4.not_float", "a result that is not a Python float",
    "Return a Python float (time.perf_counter() differences are floats).")
EARLIER = Mistake(
    "ex4.blocked_on_earlier", "waiting on an earlier result instead of the last one",
    "The clock stopped after waiting on the result of an earlier call, not of the last one: a jax.Array is "
    "ready when its own computation is, so later steps may still be running. Call jax.block_until_ready on "
    "what the last call returned (params, opt_state, loss) before reading the clock.")
UNIT = Mistake(
    "ex4.wrong_unit", "a time in the wrong unit (off by a constant factor)",
    "The returned time is off by the same factor in every run: return seconds, the plain difference of two "
    "time.perf_counter() readings, without scaling it.")
OFF_BY_ONE = Mistake(
    "ex4.off_by_one", "timing one step too many or too few",
    "The timed region holds one call too many or too few: after the single warm-up call, time exactly "
    "n_steps calls (for _ in range(n_steps)), starting the clock just before the first of them.")
LEFT_OUT = Mistake(
    "ex4.calls_left_out", "a time that leaves out some of the timed calls (laps dropped or subtracted)",
    "Every call's result was waited on, yet the returned time is shorter than the timed calls took: some "
    "of them were left out of it (a lap dropped, a slowest or first lap subtracted). Read time.perf_counter() "
    "once before the first timed call and once after the last call's results are ready, and return the "
    "difference.")
LAPS_TO_RETURN = Mistake(
    "ex4.laps_stop_at_return", "laps that stop as each call returns, the waits falling between laps",
    "Each lap's clock stopped as soon as step_fn returned, before its results were ready (JAX dispatches "
    "asynchronously), and the wait for them came before the next lap's clock started, outside the time: the time "
    "counts the calls' dispatch, not their work. Start the clock once before the first timed call, make the "
    "n_steps calls, then jax.block_until_ready the last call's results and stop the clock.")
ROUNDED = Mistake(
    "ex4.rounded", "a time rounded to a few decimals",
    "Every returned time has only the few decimals in the message: the time was rounded, so a fast run comes "
    "back as 0.0 (and jit_speedup divides by it). Return the plain difference of two time.perf_counter() "
    "readings; round only when printing.")
RESTARTED = Mistake(
    "ex4.clock_restarted", "a clock started again inside the loop",
    "With calls that queue no work, the returned time is that of the last call alone: the clock was started "
    "again inside the loop. Read time.perf_counter() once, after the warm-up and before the loop of n_steps "
    "calls.")
REPORTED_TRUNCATED = Mistake(
    "ex4.reported_truncated", "eager_s and jit_s cut to whole seconds",
    "jit_speedup reports the times as time_steps returned them, floats: int(), // or an integer array that stores "
    "them (np.array([0, 0]) holds integers, and a float written into it is cut to its whole part) turns a fraction "
    "of a second into 0. Keep them in Python floats (or np.zeros(2), a float array).")
TRUNCATED = Mistake(
    "ex4.truncated", "a time cut to whole seconds, or never stored",
    "Every returned time is exactly 0, which a difference of two clock readings never is. Either the duration was "
    "cut to whole seconds (// or int(), or stored in an integer array such as np.array([0, 0])): divide with /, not "
    "// (nanoseconds / 1e9), convert with float(), not int(), keep times in floats. Or it was never stored: "
    "x.at[i].set(v) returns a new array and leaves x as it was (laps = laps.at[i].set(v)), and a value computed "
    "into nothing is lost. time.perf_counter() already gives float seconds: read it before the timed calls and "
    "after the last result, and return the difference.")
NOT_MEASURED = Mistake(
    "ex4.not_measured", "a time that follows no clock",
    "The returned value does not follow how long the calls took: read a wall clock (time.perf_counter()) "
    "before the timed calls and after the last result is ready, and return the difference.")
ACCUMULATED = Mistake(
    "ex4.time_accumulated", "a time that adds up from call to call",
    "Each call of time_steps must time its own calls only: read time.perf_counter() into a local variable inside "
    "time_steps and return the difference, with no total, meter or list kept between calls.")
NOT_TIMED = Mistake(
    "ex4.speedup_not_timed", "eager_s and jit_s that time_steps did not return",
    "eager_s and jit_s must be exactly what time_steps returned when jit_speedup timed the lesson's training "
    "step without and with jax.jit (n_steps each); the message lists the calls it saw and what each returned.")
DONATED_KEPT = Mistake(
    "ex4.donated_inputs_kept", "arrays donated to a jitted step and kept for the next call",
    "A jitted step with donate_argnums deletes the arrays it is given once it has run; jit_speedup keeps those "
    "arrays from one call to the next (an lru_cache'd setup, module-level params), so its next call times deleted "
    "buffers and raises. Make fresh params and batch in each call, or leave donate_argnums out of the timed step.")
STEP_NOT_JITTED = Mistake(
    "ex4.step_not_jitted", "a jit_s timed on a step that is not jax.jit-wrapped",
    "jit_s must time the whole training step compiled: time_steps(jax.jit(train_step), ...). The step timed for "
    "jit_s is a plain Python function (the message gives both times): one that jits only some pieces inside "
    "(jax.jit(jax.value_and_grad(loss_fn)), say) still runs the rest, the optimizer update, op by op. Pass "
    "jax.jit(train_step) itself to time_steps.")
TIMES_SWAPPED = Mistake(
    "ex4.times_swapped", "eager_s and jit_s the other way round",
    "eager_s holds the jitted step's time and jit_s the plain step's: eager_s is time_steps(train_step, ...), "
    "jit_s is time_steps(jax.jit(train_step), ...).")
N_STEPS_NOT_PASSED = Mistake(
    "ex4.n_steps_not_passed", "jit_speedup not passing its n_steps on to time_steps",
    "jit_speedup(n_steps) must time n_steps calls each way: pass its n_steps on to time_steps (the message says "
    "what it passed instead).")
PER_STEP_REPORTED = Mistake(
    "ex4.per_step_reported", "eager_s and jit_s per step instead of the totals",
    "eager_s and jit_s are the totals time_steps returned for n_steps calls each, not seconds per step or per "
    "example (the message says what they were divided by): report "
    "them as time_steps returns them (the speedup, their ratio, is the same either way).")
JIT_DISABLED = Mistake(
    "ex4.jit_disabled", "the jitted step timed under jax.disable_jit()",
    "jax.disable_jit() was on while the jitted step was timed, so it ran op by op like the eager one: time "
    "jax.jit(train_step) outside the `with jax.disable_jit():` block.")
HINT_DICT = 'Return {"eager_s": float, "jit_s": float, "speedup": eager_s / jit_s}.'
INVERTED = Mistake("ex4.speedup_inverted", "jit_s / eager_s",
    "The speedup is inverted: speedup = eager_s / jit_s (how many times faster jit is).")
HINT_SLOWER = (
    "jit was not faster. Check that the jitted timing excludes compilation and that both timings run the "
    "same number of steps; then compare with the grader's own measurement shown here."
)


#: A correct timer returns within this range of the known time: a busy machine only adds to what it measures
#: (a late wake-up, a preempted loop), and one step more (4/3 of the time in the first run) stays outside. The
#: upper end applies to the longest time a correct timer can return, as measured on the run (``_most``).
OK_RANGE = (0.9, 1.25)
#: A wrong unit: both runs' ratios, far from 1, agree within this range. A per-step time does not (1/3 and
#: 1/6), nor a CPU clock (it follows the CPU time per call, the same in both runs, so its ratios differ as
#: the two runs' costs per call do: by 2/3 publicly, by less than 0.25 at any seed).
SAME_RATIO = (0.8, 1.25)
#: A timer that read a clock but not through the wait returns about the CPU time the calls spent before
#: returning; on a busy machine a little less (a CPU clock) or much more (a wall clock, preempted).
DISPATCH_RANGE = (0.2, 40.0)
#: A wall clock read as the last call returns, before its results are waited for, returns about the time until
#: then (returned / that time, per run).
RETURN_RANGE = (0.85, 1.5)
#: A CPU clock misses the wall time each call spends off the CPU (SYNC_WAIT, as long as its CPU time): it
#: returns at most this share of the time until the last call returned, and about the calls' CPU time.
CPU_SHARE = 0.75
CPU_RANGE = (0.3, 1.6)
#: Both runs: (observation, what it is called in messages).
RUNS = (("time/async", "first run"), ("time/count", "second run"))
#: Every run whose returned time is judged, in the order the probe makes them: the compile run, then both runs.
ALL_RUNS = ("time/compile", *(name for name, _ in RUNS))


@dataclass(frozen=True)
class Timing:
    """What the returned times are, measured against the known ones.

    ``kind``: ``ok``, ``per_step``, ``unit``, ``off_by_one``, ``left_out``,
    ``late_start``, ``started_before_call``, ``other_clock`` (the scale is wrong, charged in ex4.n_steps);
    ``no_block``,
    ``wait_after_clock``, ``earlier``, ``cpu_clock``, ``short`` (the wait is
    wrong, charged in ex4.waits_for_results); ``not_measured``
    (nothing follows the costs: no credit anywhere). ``factor``: returned
    seconds per true second, to read the compile run on the student's scale.
    """

    kind: str
    factor: float
    message: str


def _in(value: float, bounds: tuple[float, float]) -> bool:
    return bounds[0] <= value <= bounds[1]


def _warm_up_excluded(ctx: Context, factor: float = 1.0) -> bool:
    """The compile run's slow first call was not timed: there was a warm-up call before the clock started.

    A time that includes a compiling call is at least COMPILE_DELAY plus what came after that call; a loaded
    machine can make what came after long, so the time is compared with it as measured (``to_woke``).
    """
    obs = ctx.got("time/compile")
    seconds = obs["seconds"] / factor
    if seconds < COMPILE_DELAY / 2:
        return True
    compiled, to_woke = obs.get("compiled", []), obs.get("to_woke", [])
    after = compiled[-1] + 1 if compiled else 0
    return after < len(to_woke) and seconds < to_woke[after] + COMPILE_DELAY / 2


def _expected(obs: dict, warm_up_excluded: bool, until: str = "to_last") -> float:
    """What a correct timer returns for ``obs``: from the start of the first timed call to the last result.

    The timed calls are the last n_steps; with only n_steps calls and the warm-up excluded, the first call
    was the warm-up and the clock started at the second.
    """
    first, to_last = _first_timed(obs, warm_up_excluded), obs.get(until, ())
    return float(to_last[first]) if 0 <= first < len(to_last) else 0.0


def _run(ctx: Context, name: str, warm_up_excluded: bool) -> dict:
    """A timed run's observation, with what a correct timer returns for it (``expected``)."""
    obs = {**ctx.got(name)}
    obs["expected"] = _expected(obs, warm_up_excluded)
    return obs


def _most(obs: dict, warm_up_excluded: bool) -> float:
    """The longest time a correct timer returns for ``obs`` on this machine, as loaded as it was: from the return
    of the call before the first timed one until the first wake-up after the last result was ready (0 when that
    result was never waited for)."""
    first, to_woke = _first_timed(obs, warm_up_excluded), obs.get("to_woke", ())
    return float(to_woke[first]) if 0 <= first < len(to_woke) else 0.0


def _correct(obs: dict, warm_up_excluded: bool) -> bool:
    """The returned time is the time to the last result, allowing for what a busy machine adds to it."""
    seconds, expected = obs["seconds"], obs["expected"]
    most = max(expected, _most(obs, warm_up_excluded))
    return expected > 0 and OK_RANGE[0] <= seconds / expected and seconds <= OK_RANGE[1] * most


def _first_timed(obs: dict, warm_up_excluded: bool) -> int:
    """The index of the first timed call: the last n_steps calls are timed, or with only n_steps calls and the
    warm-up excluded, all but the first."""
    calls, n = obs["calls"], obs["n_steps"]
    return 1 if calls == n and warm_up_excluded else max(0, calls - n)


def _describe(obs: dict) -> str:
    return (f"time_steps(n_steps={obs['n_steps']}) on a step whose calls each queue {obs['cost'] * 1000:.0f} ms "
            f"of work returned {obs['seconds']:.4g}; the timed calls took {obs['expected']:.4g} s to their last "
            f"result")


FLOOR_KEPT = Mistake(
    "ex4.floor_kept", "a floor on the time written with min, so the floor is returned",
    "Every run returned the same tiny floor (the message says which): a guard meant to keep the time above a floor "
    "was written min(elapsed, floor), which is the floor whenever the calls take longer. Write max(elapsed, floor), "
    "or return the elapsed time as it is: a difference of two time.perf_counter() readings is never 0.")


def _floor_words(seconds: float) -> str:
    """Words for a constant time that is a tiny floor (a power of ten up to a millisecond, or the float epsilon): a
    guard meant to keep the time above it, written with min, keeps the floor itself; "" otherwise."""
    tiny = 0 < seconds <= 1e-3 and (abs(math.log10(seconds) - round(math.log10(seconds))) < 1e-9
                                     or seconds == sys.float_info.epsilon)
    return (f" ({seconds:g} s: a floor; min(elapsed, floor) is the floor whenever the calls take longer, where a "
            "guard that keeps the time above it is max(elapsed, floor))") if tiny else ""


def timing(ctx: Context) -> Timing:
    """Classify the timer from the two timed runs (see the module docstring)."""
    warm_up_excluded = _warm_up_excluded(ctx)
    runs = [_run(ctx, name, warm_up_excluded) for name, _ in RUNS]
    compile_run = ctx.got("time/compile")
    message = "; ".join(_describe(o) for o in runs)
    seconds = [o["seconds"] for o in runs] + [compile_run["seconds"]]
    if max(seconds) - min(seconds) <= 1e-9 * max(1.0, abs(max(seconds))):
        return Timing("not_measured", 1.0, f"time_steps returned {seconds[0]:.4g} in all three runs, whatever "
                                           f"the calls cost{_floor_words(seconds[0])}; {message}")
    ratios = [o["seconds"] / o["expected"] if o["expected"] > 0 else float("inf") for o in runs]
    ns = [o["n_steps"] for o in runs]
    waited_last = [o["last"] in o["waited"] for o in runs]
    if _stopped_as_last_call_returned(runs, warm_up_excluded) and not all(_synced(o, warm_up_excluded) for o in runs):
        # Told before the scale errors: on a loaded machine slow calls bring this time near the known one, or near
        # what a timer that waited but started a call late returns.
        kind = "wait_after_clock" if all(waited_last) else "no_block"
        return Timing(kind, 1.0, f"{message}; that is the time until the last call returned "
                                 f"({_until_returned(runs, warm_up_excluded)}): the clock stopped before its results "
                                 f"were ready")
    # (a clock restarted at the last call is short on that run too: told apart on the compile run, ex4.n_steps)
    only_wait = _only_the_wait(ctx) if all(0.75 <= r <= OK_RANGE[1] for r in ratios) and not _restarted(ctx) else ""
    if only_wait:  # near right where queued work takes the time, far short where the calls themselves do
        return Timing("only_wait", 1.0, f"{message}; {only_wait}")
    if all(_correct(o, warm_up_excluded) for o in runs):
        late = _started_late(ctx, warm_up_excluded)
        if late:
            return Timing("late_start", 1.0, late)
        binary = _binary_unit(ctx, warm_up_excluded)
        return Timing("unit", binary[0], f"{message}; {binary[1]}") if binary else Timing("ok", 1.0, message)
    if not any(waited_last) and all(o["waited"] for o in runs) and all(r < OK_RANGE[0] for r in ratios):
        # checked first: the first timed result is ready after 1/n_steps of the work, like a per-step time
        earlier = [f"call {max(o['waited'])} of {o['last']}" for o in runs]
        return Timing("earlier", 1.0, f"{message}; the last result waited on was that of {' and '.join(earlier)}")
    sync_ratios = [o["seconds"] / o["sync"] if o["sync"] > 0 else float("inf") for o in runs]
    follows_dispatch = all(_in(r, DISPATCH_RANGE) for r in sync_ratios)
    if not any(o["waited"] for o in runs) and follows_dispatch:
        return Timing("no_block", 1.0, message + "; nothing waited for the results")
    if all(_in(r * n, OK_RANGE) for r, n in zip(ratios, ns)):
        return Timing("per_step", 1.0 / ns[0], message + " (each about 1/n_steps of it: a time per step)")
    per_c = [r * n for r, n in zip(ratios, ns)]  # a time per c steps: r = c / n_steps in every run
    c = sorted(per_c)[len(per_c) // 2]
    if len(set(ns)) > 1 and 0 < c < float("inf") and all(_in(p / c, OK_RANGE) for p in per_c) \
            and not _in(c, OK_RANGE):
        return Timing("per_c_steps", c / ns[0], f"{message} (each about {c:.3g}/n_steps of it, in runs of "
                                                f"{' and '.join(str(n) for n in ns)} steps: a time rescaled to "
                                                f"{c:.3g} steps)")
    for extra, words in ((-1, "one call fewer"), (1, "one call more")):
        if all(_in(r * n / (n + extra), OK_RANGE) for r, n in zip(ratios, ns)):
            return Timing("off_by_one", 1.0, f"{message} (each what {words} than n_steps take)")
    consecutive = _consecutive_stamps(runs, warm_up_excluded)
    if consecutive:
        return Timing("consecutive", 1.0, f"{message}; {consecutive}")
    cumulative = _cumulative_stamps(runs, warm_up_excluded)
    if cumulative:
        return Timing("cumulative", 1.0, f"{message}; {cumulative}")
    if all(_synced(o, warm_up_excluded) for o in runs) and all(r < OK_RANGE[0] for r in ratios):
        laps = [_laps_to_return(o, warm_up_excluded) for o in runs]
        # ... and far short of the calls' laps to their results (a lap dropped leaves most of them in the time)
        if all(lap and _in(o["seconds"] / lap, RETURN_RANGE)
               and o["seconds"] < 0.5 * _laps_to_ready(o, warm_up_excluded) for lap, o in zip(laps, runs)):
            shown = ", ".join(f"{lap:.3g} s" for lap in laps)
            return Timing("laps_to_return", 1.0, f"{message}; every call's result was waited on before the next "
                                                 f"call, and the time is the sum of each timed call's time until "
                                                 f"it returned ({shown}), before its result was ready: each lap "
                                                 f"stopped as its call returned, and the waits fell between laps")
        short = ", ".join(f"{1 - r:.0%}" for r in ratios)
        return Timing("left_out", 1.0, f"{message}; every call's result was waited on before the next call, yet "
                                       f"the times are {short} short of the calls': some calls were left out of "
                                       f"the time")
    other_clock = _start_from_cpu_clock(ctx)
    if other_clock:
        return Timing("other_clock", 1.0, f"{message}; {other_clock}")
    early = _started_before_call(ctx)
    if early:
        return Timing("started_before_call", 1.0, f"{message}; {early}")
    fitting = _factors_fitting(runs, warm_up_excluded)
    fits = fitting is not None and not fitting[0] <= 1 <= fitting[1]  # one factor fits both, as the load allows
    if (fits or (ratios[1] > 0 and _in(ratios[0] / ratios[1], SAME_RATIO))) and not _in(ratios[0], (0.5, 2.0)):
        factor = math.sqrt(fitting[0] * fitting[1]) if fits else (ratios[0] + ratios[1]) / 2
        return Timing("unit", factor, f"{message}: both {factor:.4g} times the true duration{_unit_name(factor)}")
    if all(waited_last) and all(r < OK_RANGE[0] for r in ratios) and follows_dispatch:
        # The wait was not counted. Each call spends wall time off the CPU before it returns: a wall clock read
        # before the wait counts it, a CPU clock does not.
        returned = [o["seconds"] / r if (r := _expected(o, warm_up_excluded, "to_return")) > 0 else float("inf")
                    for o in runs]
        until = _until_returned(runs, warm_up_excluded)
        cpu = ", ".join(f"{o['sync']:.3g} s" for o in runs)
        if all(_in(r, RETURN_RANGE) for r in returned):
            return Timing("wait_after_clock", 1.0, f"{message}; that is the time until the last call returned "
                                                   f"({until}): the results were waited for after the clock stopped")
        if all(r <= CPU_SHARE for r in returned) and all(_in(r, CPU_RANGE) for r in sync_ratios):
            return Timing("cpu_clock", 1.0, f"{message}; the last results were waited for, the calls took {until} "
                                            f"of wall time to return and the returned time is about the CPU time "
                                            f"they spent ({cpu})")
        return Timing("short", 1.0, f"{message}; the last results were waited for, but the returned time is "
                                    f"shorter than the time until the last call returned ({until})")
    return Timing("not_measured", 1.0, message)


CONSECUTIVE = Mistake(
    "ex4.stamps_differenced_across_steps", "stamps differenced from one step to the next instead of within each",
    "The returned time counts most of the run twice: a table of per-step [start, stop] stamps was differenced down "
    "the steps (np.diff(laps, axis=0): one step's start from the next's, and one stop from the next) where each "
    "step's duration is its own stop minus start (np.diff(laps, axis=-1), or laps[:, 1] - laps[:, 0]). Simpler: "
    "read time.perf_counter() once before the loop and once after the last result is ready.")


CUMULATIVE = Mistake(
    "ex4.running_totals_summed", "times since one start summed as if each were a lap",
    "The returned time adds up running totals: each reading after a step is the time since the one start (a toc "
    "after a single tic, perf_counter() - start), so summing them counts the first step n times, the second n - 1 "
    "times, and so on. Return the last reading alone (the time from the start to the last result), or time each "
    "step from its own start.")


START_FIXED = Mistake(
    "ex4.clock_started_outside", "a clock started once, outside time_steps (at import)",
    "Every returned time counts from one instant before time_steps was called: the start was read once (at import, "
    "or on a first call) and kept. Read time.perf_counter() inside time_steps, after the warm-up and before the "
    "first timed call, into a local variable.")


CLOCKS_MIXED = Mistake(
    "ex4.clocks_mixed", "the start read from one clock, the end from another",
    "Each returned time is the end read from time.perf_counter() minus a start read from time.process_time(), "
    "the CPU seconds the process has used: two clocks that count from different instants, so their difference is "
    "no duration. Read both from time.perf_counter(), the wall clock the contract asks for.")


def _start_from_cpu_clock(ctx: Context) -> str:
    """Words for times that are each run's end, read from the wall clock, minus a time.process_time() reading
    taken during that call of time_steps; "" otherwise, or where the probe did not record that clock."""
    runs = [ctx.got(name) for name in ALL_RUNS]
    if not all({"ended", "began_cpu", "ended_cpu"} <= set(o) for o in runs):
        return ""
    starts = [o["ended"] - o["seconds"] for o in runs]
    if not all(o["began_cpu"] - 0.01 <= s <= o["ended_cpu"] + 0.01 for s, o in zip(starts, runs)):
        return ""
    if all(abs(s - o["began"]) < 1.0 for s, o in zip(starts, runs)):
        return ""  # the two clocks read alike here: nothing tells them apart
    return ("each time is the run's end on the wall clock minus a reading of time.process_time() taken during the "
            "call (the CPU seconds the process had used): a start and an end read from two clocks")


def _started_before_call(ctx: Context) -> str:
    """Words for times that each count from one and the same instant, before the first run's time_steps was
    called (each time is its run's end minus that instant); "" otherwise, or where the runs were not clocked."""
    runs = [ctx.got(name) for name in ALL_RUNS]
    if not all("began" in o and "ended" in o for o in runs):
        return ""
    starts = [o["ended"] - o["seconds"] for o in runs]
    if not all(o["seconds"] > o["wall"] for o in runs) or max(starts) - min(starts) > 0.05:
        return ""
    before = runs[0]["began"] - max(starts)
    return (f"each run's time is from one instant, {before:.3g} s before the first run's time_steps was called, to "
            "its own end (the runs returned longer times than their whole calls of time_steps took): the clock "
            "started once, outside time_steps")


def _synced(obs: dict, warm_up_excluded: bool) -> bool:
    """Every timed call's result was waited on before the next call was made (a block per step).

    Then the clock did not stop before the last result: a time short by about the last call's work is a call
    left out of the time (a lap dropped, a loop one short), not a missing wait."""
    latest = set(obs.get("waited_latest", ()))  # result indices: 0 is the initial state, call k's are k
    first = _first_timed(obs, warm_up_excluded) + 1
    return obs["calls"] <= MAX_CALLS_SHOWN and all(k in latest for k in range(first, obs["calls"] + 1))


def _laps_to_return(obs: dict, warm_up_excluded: bool) -> float | None:
    """The sum over the timed calls of each one's time from its start until it returned (before its result was
    ready), read off ``to_return`` and ``to_woke``; None where not every call is shown or nothing woke."""
    first, calls = _first_timed(obs, warm_up_excluded), obs["calls"]
    to_return, to_woke = obs.get("to_return", ()), obs.get("to_woke", ())
    if calls > len(to_return) or len(to_woke) < calls + 1:
        return None
    # to_woke[k + 1] - to_woke[calls] is the time from call k's return to the last call's return
    return float(sum(to_return[k] - (to_woke[k + 1] - to_woke[calls]) for k in range(first, calls)))


def _laps_to_ready(obs: dict, warm_up_excluded: bool) -> float:
    """The sum over the timed calls of each one's time from its start to its own result (``laps``)."""
    return float(sum(obs.get("laps", ())[_first_timed(obs, warm_up_excluded):obs["calls"]]))


def _laps_model(runs: list[dict], warm_up_excluded: bool, model: Callable[[list[float]], float]) -> str:
    """"s1 s against m1 s, ..." when every run's returned time is about ``model`` of its timed calls' laps (and not
    about their plain sum, the right time); "" otherwise."""
    shown = []
    for o in runs:
        laps = list(o.get("laps", ()))[_first_timed(o, warm_up_excluded):o["calls"]]
        if len(laps) < 3 or o["n_steps"] != len(laps):
            return ""
        expected = model(laps)
        if not (expected > 0 and _in(o["seconds"] / expected, (0.95, 1.3))
                and not _in(o["seconds"] / sum(laps), OK_RANGE)):
            return ""
        shown.append(f"{o['seconds']:.3g} s against {expected:.3g} s")
    return ", ".join(shown)


def _consecutive_stamps(runs: list[dict], warm_up_excluded: bool) -> str:
    """Words for times that are, in every run, about the sum of every timed lap but the last plus every lap but the
    first (2 x the total less the first and last laps): the stamps of a per-step [start, stop] table differenced
    from one step to the next (down the steps) instead of stop minus start in each step; "" otherwise."""
    shown = _laps_model(runs, warm_up_excluded, lambda laps: sum(laps[:-1]) + sum(laps[1:]))
    return ("each is about the timed calls' laps summed twice, all but the last and all but the first "
            f"({shown}): what differencing a table of [start, stop] stamps from one step to the next "
            "(down the steps axis) and summing gives, where each step's own stop minus start (across the table's "
            "other axis) gives the calls' time") if shown else ""


def _cumulative_stamps(runs: list[dict], warm_up_excluded: bool) -> str:
    """Words for times that are, in every run, about the sum over the timed calls of the time from the first
    call's start to each call's end (the running totals, cumsum of the laps, added up): times since one start
    read after each step and summed as if they were laps; "" otherwise."""
    shown = _laps_model(runs, warm_up_excluded, lambda laps: sum(sum(laps[:k + 1]) for k in range(len(laps))))
    return ("each is about the running totals summed: the time from the first timed call's start to the end of "
            f"call 1, plus to the end of call 2, and so on ({shown}): times read since one start (a "
            "toc after each step) added up as if each were that step's own lap") if shown else ""


def _until_returned(runs: list[dict], warm_up_excluded: bool) -> str:
    """Each run's time from the first timed call until the last call returned, in words."""
    return ", ".join(f"{_expected(o, warm_up_excluded, 'to_return'):.3g} s" for o in runs)


def _stopped_as_last_call_returned(runs: list[dict], warm_up_excluded: bool) -> bool:
    """The returned times are the times until the last call returned, not until its result was ready.

    A clock started before the first timed call and stopped after the last result returns at least the time to
    that result, however loaded the machine; the last result is ready a call's queued work after the call
    returned. So in every run the time must fall nearer the time until the last call returned than the time
    to the last result, within what a busy machine adds to it; and, taking the runs together, nearer than what
    a timer that waited but started its clock one call late returns (on a loaded machine the two can meet)."""
    nearer = []
    for obs in runs:
        to_last, to_return = _expected(obs, warm_up_excluded), _expected(obs, warm_up_excluded, "to_return")
        gap, seconds = to_last - to_return, obs["seconds"]
        if not (to_return > 0 and gap >= obs["cost"] / 2 > 0 and seconds < to_return + gap / 2
                and _in(seconds / to_return, RETURN_RANGE)):
            return False
        later, to_last_from = _first_timed(obs, warm_up_excluded) + 1, obs.get("to_last", ())
        late = float(to_last_from[later]) if later < len(to_last_from) else float("inf")
        nearer.append(abs(seconds - late) - abs(seconds - to_return))  # > 0: the late start fits worse
    return min(nearer) >= -1e-6 and max(nearer) > 1e-6


#: Units a few percent off seconds, by a power of 2 taken for a power of 10: (factor, words). A correct timer on
#: the wall clock never returns less than the time from its first timed call to the last result, so every run
#: short by one of these factors, to within a percent, is the unit and not the clock.
BINARY_UNITS = ((1e9 / 2**30, "nanoseconds divided by 2**30 (1,073,741,824), where a second is 10**9 ns"),
                (1e6 / 2**20, "microseconds divided by 2**20 (1,048,576), where a second is 10**6 us"),
                (1e3 / 2**10, "milliseconds divided by 2**10 (1,024), where a second is 1,000 ms"))


def _factors_fitting(runs: list[dict], warm_up_excluded: bool) -> tuple[float, float] | None:
    """The factors F for which every run's time is F times a time a correct timer could return there (between the
    time from its first timed call to the last result and the most it could wait, ``_most``): the interval where
    they all meet, or None when they meet nowhere."""
    low, high = 0.0, math.inf
    for obs in runs:
        expected = obs["expected"]
        most = max(expected, _most(obs, warm_up_excluded))
        if not isinstance(obs.get("seconds"), (int, float)) or expected <= 0 or obs["seconds"] <= 0:
            return None
        low, high = max(low, obs["seconds"] / (1.02 * most)), min(high, obs["seconds"] / (0.995 * expected))
    return (low, high) if low <= high else None


def _binary_unit(ctx: Context, warm_up_excluded: bool) -> tuple[float, str] | None:
    """The factor and words for times that are, in every timed run (five), what a correct timer returns times one
    of ``BINARY_UNITS``' factors, and in at least one run less than a correct timer can return; None otherwise."""
    names = (*ALL_RUNS, "time/uneven", "time/host")
    if not all(ctx.student.has(name) for name in names):
        return None
    runs = [_run(ctx, name, warm_up_excluded) for name in names]
    fitting = _factors_fitting(runs, warm_up_excluded)
    if fitting is None or not any(o["seconds"] < 0.99 * o["expected"] for o in runs):
        return None
    for factor, words in BINARY_UNITS:
        if fitting[0] <= factor <= fitting[1]:
            shown = ", ".join(f"{o['seconds'] / o['expected']:.4f}" for o in runs)
            return factor, (f"in every run the time is {factor:.4f} times what the calls took, to within what the "
                            f"machine adds (returned / took: {shown}): {words}; a timer on the wall clock never "
                            "returns less than the calls took")
    return None


def _unit_name(factor: float) -> str:
    for scale, unit in ((1e3, "milliseconds"), (1e6, "microseconds"), (1e9, "nanoseconds"), (1 / 60, "minutes")):
        if _in(factor / scale, OK_RANGE):
            return f" (in {unit}, not seconds)"
    return ""


def excludes_compile(ctx: Context) -> Verdict:
    """A step whose first call takes 0.6 s (like compilation) is not charged for it."""
    obs = ctx.got("time/compile")
    if obs["seconds"] < 0 and _negated(ctx):
        return skip("not judged: every time is negated (charged in ex4.n_steps); its size is judged once it is "
                    "positive")
    if obs["seconds"] < 0:
        return fail(_negative_words(obs), WARMUP_SUBTRACTED)
    if timing(ctx).kind in ("started_before_call", "other_clock"):
        return skip("not judged: the clock did not start inside time_steps on the wall clock (charged in "
                    "ex4.n_steps), so its times cannot say whether the first call was timed")
    if _warm_up_excluded(ctx, timing(ctx).factor):
        return PASS
    said = (f"with a step whose first call with each new input shape takes {COMPILE_DELAY} s and later calls "
            f"queue no work, time_steps(n_steps={obs['n_steps']}) returned {obs['seconds']:.4g}")
    compiled, shapes = obs.get("compiled", []), obs.get("shapes", [])
    if len(compiled) > 1 and compiled[0] < len(shapes) and shapes[compiled[0]] != obs.get("timed_shapes"):
        first = shapes[compiled[0]]
        return fail(f"{said}: the step compiled {len(compiled)} times, first for x of shape {tuple(first[0] or ())} "
                    f"(a warm-up), then again for the timed x of shape {tuple(obs['timed_shapes'][0] or ())}",
                    WARMUP_SHAPES)
    given = obs.get("timed_shapes")
    elsewhere = [k for k in compiled[1:] if k < len(shapes) and shapes[k] != given]
    if elsewhere:  # the calls were given other inputs than the batch: each new shape compiled inside the clock
        got = shapes[elsewhere[0]]
        return fail(f"{said}: step_fn's call {elsewhere[0] + 1} was given x of shape {_shape_words(got[0])} and y of "
                    f"shape {_shape_words(got[1])}, not the batch time_steps was given (x {_shape_words(given[0])}, "
                    f"y {_shape_words(given[1])}), and compiled again inside the clock", OTHER_BATCH)
    cleared = obs.get("cleared", [])
    if cleared and len(compiled) > 1:
        return fail(f"{said}: time_steps called jax.clear_caches() after step_fn's call {cleared[0]}, so its call "
                    f"{compiled[1] + 1} compiled again, inside the clock", CACHES_CLEARED)
    to_last, to_woke, seconds = obs.get("to_last", []), obs.get("to_woke", []), obs["seconds"] / timing(ctx).factor
    most = max(to_last[:1] + to_woke[:1], default=0.0)  # to the wake-up after the last result: a loaded machine
    if obs.get("calls") == obs["n_steps"] + 1 and to_last and OK_RANGE[0] * to_last[0] <= seconds <= OK_RANGE[1] * most:
        return fail(f"{said}: it made a warm-up call and {obs['n_steps']} timed calls, and the time runs from the "
                    f"start of the warm-up call ({to_last[0]:.4g} s from there to the last result)",
                    CLOCK_BEFORE_WARMUP)
    return fail(said, COMPILE)


CLOCK_BEFORE_WARMUP = Mistake(
    "ex4.clock_before_warmup", "a clock started before the warm-up call",
    "The warm-up call is there but inside the timed region: the clock started before it, so the compiling call is "
    "timed. Make the warm-up call and wait for it (jax.block_until_ready), then read time.perf_counter() and make "
    "the n_steps timed calls.")


WARMUP_SUBTRACTED = Mistake(
    "ex4.time_made_smaller", "a time made smaller by something subtracted from it (a warm-up's duration)",
    "A time is never negative: the clock starts after the warm-up call, so nothing needs subtracting. Return the "
    "difference of two time.perf_counter() readings, before the first timed call and after blocking on the last "
    "results, as it is.")


def _negative_words(obs: dict) -> str:
    """Words for a negative time returned on the compile run, with what it measures as when it fits the timed
    calls' time minus the warm-up call's."""
    said = (f"with a step whose first call takes {COMPILE_DELAY} s (like compilation) and later calls queue no work, "
            f"time_steps(n_steps={obs['n_steps']}) returned {obs['seconds']:.4g} s, a negative time")
    to_return, to_last = obs.get("to_return", []), obs.get("to_last", [])
    if len(to_return) > 1 and len(to_last) > 1:
        warm_up = to_return[0] - to_return[1]  # from the first call's start to the second's
        if abs(obs["seconds"] - (to_last[1] - warm_up)) <= 0.25 * warm_up:
            said += (f": the timed calls' time ({to_last[1]:.3g} s) minus the warm-up call's ({warm_up:.3g} s), "
                     "subtracted though the clock started after it")
    return said


def _shape_words(shape) -> str:
    """A recorded input shape in words: ``(4, 784)``, ``() (one number)``, or ``unknown``."""
    if shape is None:
        return "unknown"
    return f"{tuple(shape)}" + (" (one number)" if not shape else "")


def waits_for_results(ctx: Context) -> Verdict:
    """The clock stops after the last call's results are ready (each result is ready when its own call is)."""
    measured = timing(ctx)
    verdicts = {"no_block": BLOCK, "wait_after_clock": BLOCK, "earlier": EARLIER, "cpu_clock": CPU_CLOCK,
                "short": HINT_SHORT, "only_wait": ONLY_WAIT}
    if measured.kind in verdicts:
        return fail(measured.message, verdicts[measured.kind])
    if measured.kind == "not_measured":
        if _restarted(ctx):  # where the clock starts is charged in ex4.n_steps; it stops after the last result
            return PASS
        return skip("not judged: the returned time follows no clock (charged in ex4.n_steps)")
    return PASS


ONLY_WAIT = Mistake(
    "ex4.only_the_wait_timed", "a clock around the wait for the results alone",
    "The clock must run from before the first timed call to after the last result is ready: start it before the "
    "loop of n_steps calls, not just before jax.block_until_ready. The calls themselves (dispatch, host work) are "
    "part of the time.")


def _only_the_wait(ctx: Context) -> str:
    """Words for a time, on steps whose calls each wait 30 ms on the host and queue 5 ms of work, far below the time
    the calls took, where the last result was waited for: the clock ran only around that wait ("" otherwise, or
    when this run was not observed)."""
    if not ctx.student.has("time/host"):
        return ""
    obs = _run(ctx, "time/host", _warm_up_excluded(ctx))
    expected = obs["expected"]
    if not (expected > 0 and obs["last"] in obs["waited"] and obs["seconds"] < 0.5 * expected):
        return ""
    return (f"time_steps(n_steps={obs['n_steps']}) on a step whose calls each wait {HOST_WAIT * 1000:.0f} ms on the "
            f"host before they return and queue {HOST_QUEUED * 1000:.0f} ms of work returned {obs['seconds']:.4g}; "
            f"the timed calls took {expected:.4g} s to their last result: the last result was waited for, but the "
            "calls themselves were not timed")


def _started_at_timed_calls(ctx: Context, earlier: int = 0) -> bool:
    """In every timed run the returned time is nearer the time from the last n_steps (+ ``earlier``) calls to the
    last result than from one call before or after: where the clock started, the calls before it unclocked (an
    extra call inside the clock is n_steps + 1 calls' time, within what a busy machine adds to a right one)."""
    for name, _ in RUNS:
        obs = ctx.got(name)
        first, to_last = obs["calls"] - obs["n_steps"] - earlier, obs.get("to_last", ())
        if not 1 <= first < len(to_last) - 1:
            return False
        seconds = obs["seconds"]
        if abs(seconds - to_last[first]) >= min(abs(seconds - to_last[first - 1]), abs(seconds - to_last[first + 1])):
            return False
    return True


LATE_START = Mistake(
    "ex4.clock_started_late", "a clock started after the first timed call",
    "The first timed call was left out of the time: the clock started after it returned (n calls have n + 1 "
    "boundaries; a time stamp taken after each call, the first used as the start, leaves one out). Read "
    "time.perf_counter() once, just before the first timed call.")


def _started_late(ctx: Context, warm_up_excluded: bool) -> str:
    """Words for a time, on steps whose calls each wait on the host before they return, that is the time from the
    return of the first timed call to the last result, not from its start ("" when it is right there, or not
    observed). Where calls queue their work and return at once, starting the clock after the first of them leaves
    little out; where each waits on the host, it leaves out that call's wait, and a busy machine only adds."""
    if not ctx.student.has("time/host"):
        return ""
    obs = _run(ctx, "time/host", warm_up_excluded)
    first, to_last, seconds = _first_timed(obs, warm_up_excluded), obs.get("to_last", ()), obs["seconds"]
    if _correct(obs, warm_up_excluded) or not first + 1 < len(to_last) or not seconds < OK_RANGE[0] * to_last[first]:
        return ""
    if not _in(seconds / to_last[first + 1], OK_RANGE):
        return ""
    compiled = _run(ctx, "time/compile", warm_up_excluded)  # no queued work: a late start leaves a call out there too
    start, late_from = _first_timed(compiled, warm_up_excluded), compiled.get("to_last", ())
    if not (start + 1 < len(late_from) and _in(compiled["seconds"] / late_from[start + 1], OK_RANGE)):
        return ""
    return (f"time_steps(n_steps={obs['n_steps']}) on a step whose calls each wait {HOST_WAIT * 1000:.0f} ms on the "
            f"host before they return returned {seconds:.4g}; the timed calls took {to_last[first]:.4g} s to their "
            f"last result, and {to_last[first + 1]:.4g} s from the second timed call on: the clock started after the "
            "first timed call")


def _calls_per_step(n: int, calls: int, others: list[tuple[int, int]]) -> tuple[int, int] | None:
    """``(k, extra)`` when every run called step_fn k * n_steps + extra times (k a whole number, measured across
    runs of different n_steps); None when no such line fits them all."""
    points = {(n, calls), *others}
    if len({m for m, _ in points}) < 2:
        return None
    (m0, c0), (m1, c1) = sorted(points)[0], sorted(points)[-1]
    if (c1 - c0) % (m1 - m0):
        return None
    k = (c1 - c0) // (m1 - m0)
    extra = c0 - k * m0
    return (k, extra) if k >= 1 and all(c == k * m + extra for m, c in points) else None


CALLS_UNEVEN = Mistake(
    "ex4.calls_not_n_steps", "a number of calls that does not follow n_steps for every n_steps",
    "Call step_fn exactly n_steps times after the one warm-up call, for every n_steps, odd or even: "
    "for _ in range(n_steps): params, opt_state, loss = step_fn(params, opt_state, x, y).")


EXTRA_WARMUPS = Mistake(
    "ex4.extra_warmups", "more than one warm-up call",
    "The timed calls are right, and more than one call ran before the clock: one warm-up call compiles the step "
    "(tracing and compiling happen together, on the first call); make a single call, block on its result, then "
    "start the clock.")


WARMUP_PASS = Mistake(
    "ex4.warmup_pass", "a warm-up of n_steps calls",
    "One warm-up call is enough to compile the step: make a single call before the clock starts (blocked on its "
    "result), not a whole pass of n_steps calls, which doubles what timing costs (and fails at n_steps=0).")


def _warmup_once(ctx: Context) -> str:
    """Words for a time_steps whose first call in the process (the compile run, the probe's first) made one call
    beyond n_steps, and every later run exactly n_steps: the warm-up was made once and then remembered; ""
    otherwise."""
    runs = [(name, ctx.student[name]) for name in ("time/compile", "time/async", "time/count")
            if ctx.student.has(name) and isinstance(ctx.student[name], dict) and "calls" in ctx.student[name]]
    if len(runs) < 3:
        return ""
    (_, first), later = runs[0], [run for _, run in runs[1:]]
    if first["calls"] != first["n_steps"] + 1 or any(run["calls"] != run["n_steps"] for run in later):
        return ""
    shown = ", ".join(f"n_steps={run['n_steps']}: {run['calls']}" for run in later)
    return (f"the first call of time_steps (n_steps={first['n_steps']}) made {first['calls']} calls, a warm-up and "
            f"n_steps timed ones, and every later call exactly n_steps ({shown}): the warm-up is made once and then "
            "skipped, as something kept from one call of time_steps to the next says it was done")


def _calls_again(ctx: Context) -> tuple[str, Mistake] | None:
    """Words and the mistake for runs of ``time/repeat`` (the same step twice in a row) whose second made other
    calls than its first, or a run of MANY_STEPS (``time/many``) that made other than n_steps calls plus a warm-up;
    None when they are right, or were not observed (a crash there is charged where the usual runs crash)."""
    repeat, many = (ctx.student[name] if ctx.student.has(name) and name not in ctx.student.errors else None
                    for name in ("time/repeat", "time/many"))
    if isinstance(repeat, dict) and len(repeat.get("calls", [])) == 2:
        n, calls, seconds = repeat["n_steps"], list(repeat["calls"]), list(repeat["seconds"])
        if calls[0] != calls[1] or any(c not in (n, n + 1) for c in calls):
            said = "; ".join(f"the {which} made {c} call{'s' * (c != 1)} of step_fn and returned {t:.3g} s"
                             for which, c, t in zip(("first", "second"), calls, seconds))
            none = [which for which, c in zip(("first", "second"), calls) if c == 0]
            return (f"time_steps called twice in a row with one step_fn, the same params, opt_state and batch and "
                    f"n_steps={n}: {said}" + (f"; the {' and the '.join(none)} returned a time without calling "
                                               "step_fn at all: a time kept from an earlier call" if none else ""),
                    TIME_KEPT)
    if isinstance(many, dict) and many.get("calls") and many["calls"][0] not in (MANY_STEPS, MANY_STEPS + 1):
        calls = many["calls"][0]
        return (f"time_steps(n_steps={MANY_STEPS}) called step_fn {calls} times, where n_steps calls and a warm-up "
                f"({MANY_STEPS + 1}) were expected, as the usual runs, of fewer steps, make them: n_steps is honoured "
                "up to some limit only", STEPS_CAPPED)
    return None


TIME_KEPT = Mistake(
    "ex4.time_kept_from_earlier_call", "a call of time_steps that did not time its own steps",
    "Every call of time_steps runs its warm-up and n_steps timed calls and measures them: a timing harness keeps "
    "nothing from one call to the next (no cache of times, no flag), as the calls cost what they cost at that "
    "moment. Remove any memo keyed on the step, n_steps or the batch.")
STEPS_CAPPED = Mistake(
    "ex4.n_steps_capped", "n_steps honoured up to a limit only",
    "time_steps makes exactly n_steps timed calls for any n_steps, above the lesson's default of 100 too: loop "
    "over range(n_steps) itself, not over a table, a range or a batch of indices sized in advance.")


WARMUP_ONCE = Mistake(
    "ex4.warmup_only_once", "a warm-up made only on the first call of time_steps",
    "Every call of time_steps warms up its own step_fn: each is a new function to compile (the jitted step "
    "compiles on its own first call). Keep no flag between calls (on a class, a module or a default argument): "
    "make the warm-up call every time.")


def _idle_runs(ctx: Context, n: int, calls: int) -> str:
    """Words for runs that returned a time without calling step_fn at all while the count run made its calls; ""
    otherwise."""
    runs = [(name, ctx.student[name]) for name in ("time/compile", "time/async") if ctx.student.has(name)]
    idle = [(name, run) for name, run in runs if isinstance(run, dict) and run.get("calls") == 0
            and isinstance(run.get("seconds"), (int, float))]
    if not idle or calls == 0:
        return ""
    shown = "; ".join(f"time_steps(n_steps={run['n_steps']}) made no call and returned {run['seconds']:.3g} s"
                      for _, run in idle)
    return (f"time_steps(n_steps={n}) called step_fn {calls} times, but {shown}: a time returned without a step run "
            "is a time kept from an earlier call")


def _calls_uneven(ctx: Context, n: int, calls: int) -> str:
    """Words for runs whose calls are another number beyond n_steps than the count run's (one fewer at an odd
    n_steps, say); "" when every run makes its n_steps plus the same extra calls."""
    runs = [ctx.student[name] for name in ("time/compile", "time/async") if ctx.student.has(name)]
    others = sorted({(run["n_steps"], run["calls"]) for run in runs if isinstance(run, dict) and "calls" in run})
    off = [(m, c) for m, c in others if c - m != calls - n]
    if not off:
        return ""
    said = (f"time_steps(n_steps={n}) called step_fn {calls} times ({calls - n} beyond n_steps), but " +
            ", ".join(f"time_steps(n_steps={m}) {c} times ({c - m} beyond)" for m, c in off))
    if n % 2 == 0 and all(m % 2 and c - m == calls - n - 1 for m, c in off):
        said += ": one call fewer when n_steps is odd, as a loop of two calls per turn over n_steps // 2 turns makes"
    return said


def _results_to_jax(ctx: Context) -> dict | None:
    """The calls time_steps made before it gave their results to JAX code instead of waiting for them (the probe
    raised ``ResultsToJax`` in the run that counts calls); None otherwise. No time was returned there."""
    error = ctx.student.errors.get("time/count")
    if error is None or error.type != "ResultsToJax" or not ctx.student.has("time/count/calls"):
        return None
    made = ctx.student["time/count/calls"]
    return made if isinstance(made, dict) and {"n_steps", "calls", "params_seen", "state_seen"} <= set(made) else None


def _calls_without_time(ctx: Context) -> Verdict | None:
    """ex4.n_steps for a time_steps that gave its results to JAX code instead of waiting for them: what its calls
    were, said; None when the calls were not observed, so the error is shown. Nothing is paid: right calls with no
    time measured are worth nothing (a loop that returns a constant earns nothing either)."""
    made = _results_to_jax(ctx)
    if made is None:
        return None
    n, calls = made["n_steps"], made["calls"]
    threaded = [list(range(calls))] + ([[0, *range(n)]] if calls == n + 1 else [])
    hint: Mistake | str = ("Make exactly n_steps calls after the single warm-up call, each given the params and "
                           "opt_state the one before returned, then wait for the last results with "
                           "jax.block_until_ready((params, opt_state, loss)) before reading the clock: a JAX function "
                           "given them (jax.device_put, a jnp function...) queues more work and returns at once.")
    if calls != n + 1:
        said = f"time_steps(n_steps={n}) called step_fn {calls} times; expected {n} plus one warm-up; then"
    elif made["params_seen"] not in threaded or made["state_seen"] not in threaded:
        said = (f"time_steps(n_steps={n}) called step_fn {calls} times, giving them params counters "
                f"{made['params_seen']} and opt_state counters {made['state_seen']} (threading the state gives "
                f"{list(range(calls))}); then")
    else:
        said = (f"time_steps(n_steps={n}) called step_fn {calls} times (one warm-up and {n} timed), each given the "
                "state the one before returned, as it should; then")
        hint = RESULTS_TO_JAX
    said += (" it gave their results to JAX code other than jax.block_until_ready, where its clock should wait for "
             "them, and returned no time")
    return fail(said + (f" (JAX: {made['jax_error']})" if isinstance(made.get("jax_error"), str) else ""), hint)


def times_n_steps(ctx: Context) -> Verdict:
    """Exactly n_steps timed calls (plus one warm-up), state threaded through, the total time in seconds.

    Three properties: the number of calls, the threading of the state, and
    the returned time against the known one (a total, in seconds). A timer
    that makes the wrong number of calls, or whose time follows no clock,
    gets nothing, unless the extra calls are warm-ups before a clock that
    times the n_steps calls right; otherwise a third for each property it has.
    """
    small = _small_n_steps_crash(ctx)
    if small:
        return fail(small[0], small[1])
    if (without_time := _calls_without_time(ctx)) is not None:
        return without_time
    count = ctx.got("time/count")
    n, calls = count["n_steps"], count["calls"]
    if calls not in (n, n + 1):
        said = f"time_steps(n_steps={n}) called step_fn {calls} times; expected {n} plus one warm-up"
        if calls == 2 and n > 2:  # the warm-up and one timed call
            return fail(said, ONE_CALL)
        runs = [ctx.student[name] for name in ("time/compile", "time/async") if ctx.student.has(name)]
        others = [(run["n_steps"], run["calls"], float(run.get("cost", 0.0))) for run in runs
                  if isinstance(run, dict) and "n_steps" in run and "calls" in run]
        shown = ", ".join(f"{c} with n_steps={m} and steps that queue {cost * 1000:.0f} ms of work"
                          for m, c, cost in others)
        per_step = _calls_per_step(n, calls, [(m, c) for m, c, _ in others])
        if per_step is not None and per_step[0] != 1:
            k, extra = per_step
            if (k, extra) == (2, 0) and timing(ctx).kind == "ok":  # the last n_steps calls timed right
                return fail(f"{said}; it called it {shown}: twice n_steps, and its time is that of the last "
                            "n_steps calls: the first n_steps ran before the clock, a warm-up of n_steps calls",
                            WARMUP_PASS)
            minibatches = _minibatches(count, k, extra)
            if minibatches:
                return fail(f"{said}; it called it {shown}: {k} calls per step, plus {extra}; {minibatches}",
                            MINIBATCHES)
            return fail(f"{said}; it called it {shown}: {k} calls per step, plus {extra}"
                        f"{' (the warm-up)' if extra == 1 else ''}",
                        f"time_steps makes {k} calls of step_fn for each of the n_steps steps (the message counts "
                        "them): time one loop of n_steps calls, for _ in range(n_steps): params, opt_state, loss = "
                        "step_fn(params, opt_state, x, y), each step called once: not the loop repeated (as timeit's "
                        "repeat does), not another call for the loss (it is in what the call returned).")
        if others and calls <= 1 and all(c == calls for _, c, _ in others):
            return fail(f"{said}; it called it {shown}: {calls} call{'s' * (calls != 1)} whatever n_steps is, so "
                        "the loop of timed calls did not run (one call at most, a warm-up or the loop's first)",
                        NO_TIMED_CALLS)
        if others and any(c - m != calls - n for m, c, _ in others):  # the calls do not follow n_steps
            per_row = _one_call_per_row(count, calls)
            if per_row and all(c == calls for _, c, _ in others):
                return fail(f"{said}; it called it {shown}: {per_row}", PER_ROW)
            if all(c == calls for _, c, _ in others):
                asked = sorted({n, *(m for m, _, _ in others)})
                return fail(f"{said}; it called it {shown}: {calls} calls whatever n_steps is "
                            f"({' and '.join(map(str, asked))} asked), as a fixed count or a floor on the steps "
                            f"({calls - 1} timed calls and a warm-up) gives",
                            "time_steps must make exactly n_steps timed calls after one warm-up, for any n_steps, "
                            "small ones included: no minimum number of steps and no fixed count.")
            return fail(f"{said}; it called it {shown}: the number of calls does not follow n_steps",
                        "time_steps must call step_fn n_steps times after one warm-up call, whatever the calls cost: "
                        "a loop of its own (until a time budget is spent, or doubling) times another number of "
                        "calls.")
        if calls > n + 1 and timing(ctx).kind == "ok" and _started_at_timed_calls(ctx):  # the rest: warm-ups
            return fail(f"{said}; its time is that of the last {n} calls: the clock started after {calls - n} calls, "
                        "warm-ups", EXTRA_WARMUPS, fraction=1 - 1 / 3)
        hint = HINT_ONE_STEP if calls < n else "Make exactly n_steps calls after the single warm-up call."
        if calls == n + 2:
            hint = OFF_BY_ONE
            if _started_at_timed_calls(ctx, earlier=1):
                said += f"; its time is that of the last {n + 1} calls: one warm-up and {n + 1} timed calls"
        if calls == 2 and n > 2:  # the warm-up and one timed call
            hint = ONE_CALL
        return fail(said, hint)
    once = _warmup_once(ctx)
    if once:
        return fail(once, WARMUP_ONCE, fraction=1 - 1 / 3)
    idle = _idle_runs(ctx, n, calls)
    if idle:
        return fail(idle, TIME_KEPT, fraction=1 - 1 / 3)
    uneven = _calls_uneven(ctx, n, calls)
    if uneven:
        return fail(uneven, CALLS_UNEVEN, fraction=1 - 1 / 3)  # one of the three properties: the calls
    measured = timing(ctx)
    # A clock started again at the last call times about all the queued work when calls queue it, so the timed
    # runs look right or near it (on a loaded machine, just outside); the compile run, which queues none, tells.
    restarted = _restarted(ctx) if measured.kind in ("ok", "not_measured") else ""
    if measured.kind == "not_measured" and not restarted:
        negated = _negated(ctx)
        if negated:
            return fail(measured.message + f"; measured: {negated}", NEGATED, fraction=1 - 1 / 3)
        added = _accumulated(ctx)
        if added:
            return fail(measured.message + added, ACCUMULATED)
        if all(ctx.got(name)["seconds"] == 0 for name in ALL_RUNS):
            return fail(measured.message + "; exactly 0, though every run's calls took a fraction of a second: a "
                        "duration cut to whole seconds (a difference of two clock readings is never exactly 0)",
                        TRUNCATED)
        if _floor_words(ctx.got(ALL_RUNS[0])["seconds"]) and len({ctx.got(name)["seconds"] for name in ALL_RUNS}) == 1:
            return fail(measured.message, FLOOR_KEPT)
        return fail(measured.message, NOT_MEASURED)
    problems, hints = [], []
    if calls == n and _warm_up_excluded(ctx) and measured.kind != "left_out":  # left out: measured, said below
        # n calls, and the slow first one was not timed: a warm-up and n - 1 timed calls
        problems.append(f"time_steps(n_steps={n}) called step_fn {calls} times, and the first (slow) call was not "
                        f"timed: a warm-up and {n - 1} timed calls")
        hints.append(OFF_BY_ONE)
    other = count.get("other_batch", [])
    if other:
        problems.append(f"step_fn's call{'s' if len(other) > 1 else ''} {', '.join(str(k + 1) for k in other)} "
                        "got another x or y than the batch time_steps was given"
                        + (f" ({'; '.join(count['other_dtypes'])})" if count.get("other_dtypes") else ""))
        hints.append(OTHER_BATCH)
    expected = list(range(calls))
    # The timed calls must be threaded; the warm-up's result may feed the first of them or be discarded.
    threaded = [expected] + ([[0, *range(n)]] if calls == n + 1 else [])
    if count["params_seen"] not in threaded or count["state_seen"] not in threaded:
        problems.append(f"the calls received params counters {count['params_seen']} and opt_state counters "
                        f"{count['state_seen']}; threading the state gives {expected}")
        hints.append(THREAD)
    scalar = _scalar_params_problem(ctx) if THREAD not in hints else ""  # said last: see _times_right
    scale = {"per_step": PER_STEP, "per_c_steps": PER_C_STEPS, "unit": UNIT, "off_by_one": OFF_BY_ONE,
             "left_out": LEFT_OUT, "laps_to_return": LAPS_TO_RETURN, "late_start": LATE_START,
             "started_before_call": START_FIXED, "consecutive": CONSECUTIVE, "cumulative": CUMULATIVE,
             "other_clock": CLOCKS_MIXED}.get(measured.kind)
    if scale is not None and OFF_BY_ONE not in hints:
        problems.append(measured.message)
        hints.append(scale)
    if restarted and not problems:
        problems.append(restarted)
        hints.append(RESTARTED)
    uneven = _uneven_problem(ctx) if measured.kind == "ok" else None
    if uneven:
        problems.append(uneven[0])
        hints.append(uneven[1])
    default = _default_steps_problem(ctx)
    if default:
        problems.append(default)
        hints.append(DEFAULT_N_STEPS)
    one = _one_step_problem(ctx)
    if one:
        problems.append(one[0])
        hints.append(one[1])
    if scalar:
        problems.append(scalar)
        hints.append(OUTPUTS_BY_TYPE)
    again = _calls_again(ctx) if not problems else None  # said only alone: see _times_right
    if again:
        problems.append(again[0])
        hints.append(again[1])
    if not problems:
        return PASS
    return fail("; ".join(problems), hints[0], fraction=max(0.0, 1 - len(problems) / 3))


EXTRAPOLATED = Mistake(
    "ex4.extrapolated", "a time extrapolated from typical calls, not measured over all of them",
    "Calls of unequal cost were timed wrong, though calls of equal cost were timed right: the returned time is "
    "worked out from some calls (a median or a single lap, times n_steps) instead of measured. Read "
    "time.perf_counter() once before the first timed call and once after blocking on the last results, and "
    "return the difference.")


MINIBATCHES = Mistake(
    "ex4.minibatches", "an epoch of minibatches per step",
    "A step is one call of step_fn on the whole batch time_steps was given: n_steps steps are n_steps calls, "
    "step_fn(params, opt_state, x, y), with no loop over minibatches of x inside.")


PER_ROW = Mistake(
    "ex4.loop_over_rows", "a loop that runs once per example of the batch",
    "time_steps calls step_fn n_steps times, each with the whole batch x, y as it was given. Its loop here runs "
    "once per example (x's rows, whatever n_steps is): a loop over an array iterates over its first axis, so copies "
    "of the batch stacked for the loop must be stacked on a new first axis (jnp.stack(..., axis=0)); simpler, call "
    "step_fn(params, opt_state, x, y) in a for _ in range(n_steps) loop.")


def _one_call_per_row(obs: dict, calls: int) -> str:
    """Words for a number of calls that is x's number of rows (plus one, a warm-up), whatever n_steps is, with the
    shapes of x the timed calls were given; "" otherwise."""
    given = obs.get("timed_shapes") or [None]
    rows = given[0][0] if given[0] else 0
    if not rows or calls - rows not in (0, 1):
        return ""
    seen = sorted({tuple(s[0]) for s in obs.get("shapes") or [] if s and s[0]})
    shapes = ", ".join(str(s) for s in seen[:3])
    return (f"{calls} calls whatever n_steps is: one per row of x ({rows} rows){' and a warm-up' if calls > rows else ''}"
            + (f"; the calls were given x of shape {shapes}, where the batch is {tuple(given[0])}" if seen else ""))


def _minibatches(obs: dict, per_step: int, extra: int) -> str:
    """Words for calls given slices of the batch's rows that add up to the whole batch every ``per_step`` calls
    after the ``extra`` first (an epoch of minibatches per step); "" otherwise."""
    given = obs.get("timed_shapes") or [None]
    rows = given[0][0] if given[0] else 0
    sizes = [s[0][0] if s and s[0] else 0 for s in obs.get("shapes") or []]
    tail = sizes[extra:] if per_step > 1 else []
    groups = [tail[i:i + per_step] for i in range(0, len(tail) - per_step + 1, per_step)]
    if not rows or not groups or any(sum(g) != rows or max(g) >= rows for g in groups):
        return ""
    slices = ", ".join(str(size) for size in groups[0])
    return (f"measured: the calls were given {per_step} slices of x's {rows} rows per step ({slices} rows): an "
            "epoch of minibatches per step")


def _accumulated(ctx: Context) -> str:
    """Words for times that each equal the time before them plus the run's own (correct) time, in the order the
    runs were made (the compile run, then the two timed runs): a total kept between calls; "" otherwise."""
    warm_up_excluded = _warm_up_excluded(ctx)
    runs = [_run(ctx, name, warm_up_excluded) for name in ALL_RUNS]
    own = [runs[0]["seconds"]] + [b["seconds"] - a["seconds"] for a, b in zip(runs, runs[1:])]
    if not all(_correct({**obs, "seconds": mine}, warm_up_excluded) for obs, mine in zip(runs, own)):
        return ""
    sums = ", ".join(f"{b['seconds']:.4g} = {a['seconds']:.4g} + {mine:.4g}"
                     for a, b, mine in zip(runs, runs[1:], own[1:]))
    return (f"; measured: each run's time is the previous run's plus the time its own calls took ({sums}, where the "
            "first run's calls took {:.4g} s and it returned {:.4g}): the times add up from call to call".format(
                runs[0]["expected"], runs[0]["seconds"]))


def _uneven_problem(ctx: Context) -> tuple[str, Mistake] | None:
    """Words for a timer right on calls of equal cost and wrong on calls of unequal cost (``UNEVEN_COSTS``), with
    what its time fits when it does (the laps with the first or the last few left out, or n_steps times the median
    lap), and the mistake to name; None when it is right there, or not observed."""
    if not ctx.student.has("time/uneven"):
        return None
    obs = {**ctx.got("time/uneven")}
    excluded = _warm_up_excluded(ctx)
    obs["expected"] = _expected(obs, excluded)
    if obs["expected"] <= 0 or _correct(obs, excluded):
        return None
    first, n, seconds = _first_timed(obs, excluded), obs["n_steps"], obs["seconds"]
    laps = obs.get("laps", [])[first:first + n]
    slow = [f"{c * 1000:.0f} ms" for c in UNEVEN_COSTS]
    words = (f"time_steps(n_steps={n}) on calls that queue unequal work ({slow[0]} for the first timed call, "
             f"{slow[1]} for the next ones, {slow[-1]} for the last) returned {seconds:.4g}; the timed calls took "
             f"{obs['expected']:.4g} s to their last result")
    if len(laps) != n or not isinstance(seconds, (int, float)) or seconds <= 0:
        return words, EXTRAPOLATED
    by_size = sorted(range(n), key=lambda i: laps[i])
    left_out: dict[frozenset[int], list[str]] = {}  # the calls left out -> what they are
    for k in range(1, n // 2 + 1):
        for end, which in (("first", range(k)), ("last", range(n - k, n)), ("slowest", by_size[n - k:])):
            said = f"the {end} call" if k == 1 else f"the {k} {end} calls" if end == "slowest" else f"the {end} {k} calls"
            left_out.setdefault(frozenset(which), []).append(said)
    times = {which: sum(lap for i, lap in enumerate(laps) if i not in which) for which in left_out}
    which = min(times, key=lambda w: abs(math.log(seconds / times[w])) if times[w] > 0 else math.inf)
    if times[which] > 0 and _in(seconds / times[which], OK_RANGE):
        return (words + f", and {times[which]:.4g} s with {', also '.join(left_out[which])} left out: the time of "
                f"{n - len(which)} of the {n} timed calls (a burn-in, trimmed laps or a loop that stops early)",
                LEFT_OUT)
    if _in(seconds / (n * statistics.median(laps)), OK_RANGE):
        words += (f" (n_steps times a typical call: the median call took {statistics.median(laps):.3g} s; a time "
                  "extrapolated from it)")
    return words, EXTRAPOLATED


ONE_STEP = Mistake(
    "ex4.one_step_not_timed", "n_steps=1 not timed",
    "n_steps=1 is a request like any other: one warm-up call, then one timed call, and its time returned. Nothing "
    "in time_steps may return early or skip the loop for small n_steps; an input check, if any, rejects only "
    "n_steps below 1.")


def _small_n_steps_crash(ctx: Context) -> tuple[str, Mistake | str] | None:
    """Words and hint for a time_steps that raised for every n_steps below some value and ran for every larger one
    (the runs of ``RUN_STEPS``); None otherwise."""
    raised, ran = {}, set()
    for name, n in RUN_STEPS.items():
        if not ctx.student.observed(name):
            continue
        if name in ctx.student.errors:
            raised[n] = ctx.student.errors[name]
        else:
            ran.add(n)
    if not raised or not ran or max(raised) >= min(ran):
        return None
    error = raised[max(raised)]
    said = (f"time_steps raised {error.summary().splitlines()[0]} with n_steps={', '.join(map(str, sorted(raised)))} "
            f"and ran with n_steps={', '.join(map(str, sorted(ran)))}: any n_steps from 1 up is allowed")
    if error.type == "ZeroDivisionError":
        return (f"{said}; measured: a division by zero only for small n_steps: a divisor computed from n_steps "
                "(n_steps // k) is 0 there", SMALL_N_STEPS)
    return said, SMALL_N_STEPS


SMALL_N_STEPS = Mistake(
    "ex4.small_n_steps", "a time_steps that fails for small n_steps",
    "time_steps must work for every n_steps from 1 up: a count computed from it (a progress interval n_steps // 4, "
    "a number of chunks) is 0 for small ones, and a modulo or division by it raises. Guard it (max(1, n_steps // "
    "4)), or keep printing out of the timed loop.")


def _negated(ctx: Context) -> str:
    """Words for timed runs that each returned minus the time their calls took (within OK_RANGE); "" otherwise."""
    warm = _warm_up_excluded(ctx)
    ratios = []
    for name, _label in RUNS:
        run = _run(ctx, name, warm)
        seconds, expected = run.get("seconds"), run.get("expected", 0.0)
        if not isinstance(seconds, (int, float)) or seconds >= 0 or expected <= 0:
            return ""
        ratios.append(-seconds / expected)
    if not all(_in(r, OK_RANGE) for r in ratios):
        return ""
    return ("each time is minus the time the calls took: the clock readings were subtracted the wrong way round "
            "(start - stop)")


NEGATED = Mistake(
    "ex4.time_negated", "the time's sign flipped",
    "The elapsed time is the later clock reading minus the earlier one, time.perf_counter() - start: the other way "
    "round it comes out negative (check the order of the operands of a subtraction, operator.sub or a "
    "difference of a list of readings).")


def _scalar_params_problem(ctx: Context) -> str:
    """Words for a run whose params and opt_state are 0-d arrays (``time/scalar_params``) where the calls were not
    given the threaded (params, opt_state), (k, 10 k) at call k (the warm-up's result may be dropped); "" where
    they were, or this was not observed or raised (a step that reads float() of its inputs is the grader's)."""
    try:
        seen = [tuple(pair) for pair in ctx.got("time/scalar_params")] if ctx.student.has("time/scalar_params") else []
    except (StudentError, TypeError):
        return ""
    if not seen:
        return ""
    threaded = [(float(k), 10.0 * k) for k in range(len(seen))]
    dropped = [(0.0, 0.0)] + threaded[:len(seen) - 1]
    if seen in (threaded, dropped):
        return ""
    shown = ", ".join(f"({p:g}, {s:g})" for p, s in seen[:6])
    return (f"with params and opt_state each a 0-d array (a step adding 1 to params, 10 to opt_state, and returning "
            f"a loss of -1), the calls got (params, opt_state) = {shown}, where threading gives (0, 0), (1, 10), "
            "(2, 20), ...: the step's outputs were not taken as (params, opt_state, loss) in that order")


OUTPUTS_BY_TYPE = Mistake(
    "ex4.outputs_taken_by_type", "the step's outputs sorted by their type or shape",
    "step_fn returns (params, opt_state, loss) in that order, whatever each one is (params may be a single "
    "number): unpack them by position, params, opt_state, loss = step_fn(params, opt_state, x, y), with no test of "
    "which output looks like a loss.")


def _one_step_problem(ctx: Context) -> tuple[str, Mistake] | None:
    """What time_steps does with n_steps=1 (its first call ONE_STEP_DELAY slower, like compilation), where it is
    not one timed call after a warm-up whose time is returned; None if it is (or this was not observed)."""
    if not ctx.student.observed("time/one"):
        return None  # observed by a probe older than this measurement
    try:
        one = ctx.got("time/one")
    except StudentError as exc:
        return f"time_steps(n_steps=1) failed ({exc.error.summary()})", ONE_STEP
    seconds, delay = one.get("seconds"), float(one.get("compile_delay") or 0.0)
    timed = isinstance(seconds, (int, float)) and seconds > 0
    if one["calls"] == 2 and isinstance(seconds, (int, float)):
        return None  # a warm-up and one timed call: the time's value is judged with the other runs'
    if one["calls"] == 1 and timed and delay and seconds >= delay and _warms_up(ctx):
        return (f"time_steps(n_steps=1) called step_fn once, and returned {seconds:.3g} s: that one call was the "
                f"first, which compiles (here {delay:g} s slower than the others), so the compilation was timed; "
                f"with n_steps=1 as with any other, one warm-up call comes first"), ONE_STEP_WARMUP
    if one["calls"] == 1 and timed:
        return None
    shown = "nothing" if seconds is None else f"{seconds:g}"
    return (f"time_steps(n_steps=1) called step_fn {one['calls']} time{'s' * (one['calls'] != 1)} and returned "
            f"{shown}; n_steps=1 makes one timed call (and one warm-up), and returns its time"), ONE_STEP


def _warms_up(ctx: Context) -> bool:
    """The compile run made one call more than its n_steps: a warm-up, where n_steps is not 1."""
    try:
        run = ctx.got("time/compile")
        return run["calls"] == run["n_steps"] + 1
    except (StudentError, KeyError, TypeError):
        return False


ONE_STEP_WARMUP = Mistake(
    "ex4.one_step_warmup_skipped", "the warm-up left out for n_steps=1",
    "Every n_steps, 1 too, makes one untimed warm-up call first (it compiles), then n_steps timed calls: a special "
    "case for n_steps=1 that makes a single call times the compilation. Keep one code path: warm up, start the "
    "clock, loop n_steps times, wait, stop.")


def _default_steps_problem(ctx: Context) -> str:
    """What time_steps does with n_steps left out, where that differs from the API's n_steps=100; "" if not."""
    if not ctx.student.observed("time/default"):
        return ""  # observed by a probe older than this measurement
    try:
        calls = ctx.got("time/default")["calls"]
    except StudentError as exc:
        return f"time_steps(step_fn, params, opt_state, x, y), with n_steps left out, failed ({exc})"
    if calls in (API_N_STEPS, API_N_STEPS + 1):  # as with n_steps given: the warm-up may be one of them
        return ""
    return (f"time_steps(step_fn, params, opt_state, x, y), with n_steps left out, called step_fn {calls} times; "
            f"n_steps={API_N_STEPS} makes {API_N_STEPS} timed calls and one warm-up")


def _restarted(ctx: Context) -> str:
    """Words for a clock started again at the last call, measured on the compile run; "" when it was not.

    There the calls queue no work, so the last call alone is a fraction of the timed calls. A busy machine only
    adds to a time, so a time under half the timed calls' that matches the last call's is that call's alone.
    """
    obs = ctx.got("time/compile")
    expected = _expected(obs, _warm_up_excluded(ctx))
    to_last = obs.get("to_last", [])
    if obs["calls"] < 3 or len(to_last) != obs["calls"] or not 0 < obs["seconds"] < expected / 2:
        return ""
    last = to_last[-1]
    if not _in(obs["seconds"] / last, OK_RANGE):
        return ""
    return (f"time_steps(n_steps={obs['n_steps']}) on a step whose calls queue no work returned {obs['seconds']:.3g} "
            f"s, the time of the last call alone ({last:.3g} s), where the timed calls took {expected:.3g} s")


#: A time rounded to at most this many decimals is charged: a perf_counter difference has about 15 digits.
ROUNDED_DECIMALS = 4


def _decimals(seconds: list[float]) -> int | None:
    """The fewest decimals that hold every value exactly, when that is at most ROUNDED_DECIMALS; else None."""
    for places in range(ROUNDED_DECIMALS + 1):
        if all(abs(s * 10**places - round(s * 10**places)) < 1e-6 for s in seconds):
            return places
    return None


LONGER_THAN_CALL = Mistake(
    "ex4.longer_than_call", "a time longer than the calls took",
    "time_steps returns the time its clock measured, time.perf_counter() - start, whatever its size: on a step "
    "that takes microseconds it returned more than the whole time_steps call took (a floor such as max(elapsed, "
    "1e-3), or a time added). A fast run is a small number, never 0 and never raised.")


def _longer_than_call(ctx: Context) -> str:
    """Words for a time_steps that, on one call of a step that costs nothing, returned more than the whole call
    took measured from outside; "" otherwise (or when not observed)."""
    try:
        obs = ctx.got("time/instant")
        seconds, outer = float(obs["seconds"]), float(obs["outer"])
    except (StudentError, Missing, KeyError, TypeError, ValueError):
        return ""
    if seconds <= 1.05 * outer + 1e-5:
        return ""
    return (f"time_steps(n_steps=1) on a step that costs nothing returned {seconds:.3g} s, where the whole "
            f"time_steps call took {outer:.3g} s from start to return: more than it took")


def returns_float(ctx: Context) -> Verdict:
    """time_steps returns a Python float, as measured (not rounded)."""
    obs = ctx.got("time/count")
    if not obs["is_float"]:
        return fail(f"time_steps returned a {obs['returned_type']}", FLOAT)
    seconds = [ctx.got(name)["seconds"] for name in ("time/compile", *(run for run, _ in RUNS))]
    longer = _longer_than_call(ctx) if all(ctx.passed(check) for check in _TIMER) else ""
    if longer:  # judged where the usual runs are timed right: a wrong unit or clock is charged there
        return fail(longer, LONGER_THAN_CALL)
    places = _decimals(seconds)
    if places is not None and any(seconds):
        shown = ", ".join(repr(s) for s in seconds)
        return fail(f"the three runs returned {shown}: every one has at most {places} decimals", ROUNDED)
    return PASS


def _speedup(ctx: Context) -> dict:
    try:
        result = ctx.got("speedup")
    except StudentError as exc:
        swapped = _batch_swapped(ctx)
        if swapped:
            raise _BadDict(f"jit_speedup raised {exc.error.summary()}; {swapped}", BATCH_SWAPPED) from exc
        drawn = _batch_drawn(ctx)
        if drawn:
            raise _BadDict(f"jit_speedup raised {exc.error.summary()}; {drawn}", BATCH_SHAPE) from exc
        if _donated_unthreaded(ctx, exc):
            raise _BadDict(f"jit_speedup raised {exc.error.summary().splitlines()[0]}: time_steps gives every call "
                           "the params it was given (the state is not threaded, charged in ex4.n_steps), and a jitted "
                           "step that donates them deletes them at its first call, so the next meets deleted "
                           "buffers", DONATED_UNTHREADED) from exc
        raise
    missing = {"eager_s", "jit_s", "speedup"} - set(result.get("keys", []))
    if result.get("type") != "dict" or missing:
        raise _BadDict(f"jit_speedup returned {result.get('type')} with keys {result.get('keys', [])}; "
                       f"missing {sorted(missing)}")
    values = result.get("values", {})
    if not all(isinstance(values.get(k), float) for k in ("eager_s", "jit_s", "speedup")):
        others = result.get("others", {})
        shown = "; ".join(f"{k} is {others[k]}" for k in ("eager_s", "jit_s", "speedup") if k in others)
        if shown and all(others[k].startswith("a str ") for k in others if k in ("eager_s", "jit_s", "speedup")):
            raise _BadDict(f"jit_speedup's eager_s, jit_s and speedup must each be one number; measured: {shown}",
                           FORMATTED)
        raise _BadDict("jit_speedup's eager_s, jit_s and speedup must each be one number"
                       + (f"; measured: {shown}" if shown else ""))
    return values


FORMATTED = Mistake(
    "ex4.results_formatted", "timings returned as formatted text",
    "jit_speedup returns the numbers themselves, {'eager_s': float, 'jit_s': float, 'speedup': float}: format "
    "them (f\"{speedup:.1f}x\") only where they are printed.")


#: The hint of a jit_speedup that failed only because time_steps does not thread the state: not judged, as the
#: cause is charged in ex4.n_steps.
DONATED_UNTHREADED = "Thread the state through time_steps (charged in ex4.n_steps); this goes with it."


def _donated_unthreaded(ctx: Context, exc: StudentError) -> bool:
    """jit_speedup raised JAX's error for a deleted (donated) buffer while time_steps gave every call the params
    it was given, as the counting run measured."""
    message = exc.error.message.lower()
    if "deleted" not in message and "donated" not in message:
        return False
    try:
        seen = ctx.got("time/count")["params_seen"]
    except (StudentError, Missing, KeyError, TypeError):
        return False
    return isinstance(seen, list) and len(seen) > 2 and len(set(seen)) == 1


class _BadDict(Exception):
    """jit_speedup's result cannot be judged as a dict of timings: why (the message), and the hint."""

    def __init__(self, message: str, hint: str | Mistake = "") -> None:
        super().__init__(message)
        self.hint = hint or HINT_DICT


def _batch_swapped(ctx: Context) -> str:
    """Words for a time_steps that gave the grader's step y where x goes and x where y goes, on every call of its
    second timed run, measured by their shapes; "" otherwise."""
    if not ctx.student.has("time/count"):
        return ""
    obs = ctx.student["time/count"]
    given, shapes = obs.get("timed_shapes"), obs.get("shapes") or []
    if not given or len(given) != 2 or given[0] == given[1] or not shapes:
        return ""
    if any(shape != [given[1], given[0]] for shape in shapes):
        return ""
    return (f"measured: time_steps gave step_fn an array of shape {tuple(given[1])}, y's, where x goes and one of "
            f"shape {tuple(given[0])}, x's, where y goes, on every call")


def _batch_drawn(ctx: Context) -> str:
    """Words for a jit_speedup that gave time_steps a batch of other shapes than the lesson's (x of (B, 784), y of
    (B,)), measured on its first call against the reference's; "" when they agree or were not recorded."""
    try:
        got, want = ctx.got("speedup/batches"), ctx.want("speedup/batches")
    except Exception:  # noqa: BLE001 - not recorded: nothing measured
        return ""
    if not got or not want or got[0] == want[0]:
        return ""
    x, y, lesson_x = got[0]["x"], got[0]["y"], want[0]["x"]
    words = []
    if x != lesson_x:
        how = (" (its axes swapped)" if x == lesson_x[::-1] else
               " (images not flattened)" if x and len(x) > 2 and math.prod(x[1:]) == lesson_x[-1] else "")
        words.append(f"x of shape {_shown_shape(x)}{how}")
    if y != want[0]["y"]:
        words.append(f"y of shape {_shown_shape(y)}")
    return ("measured: jit_speedup gave time_steps " + " and ".join(words) +
            f"; the lesson's step takes x of shape (batch, {lesson_x[-1]}), one row of pixels per image, and y of "
            "shape (batch,)") if words else ""


def _shown_shape(shape: list[int] | None) -> str:
    return "no array" if shape is None else str(tuple(shape))


#: Summaries of several runs' times (or of their ratios), by name.
_TIME_SUMMARIES = (("mean", statistics.fmean), ("median", statistics.median), ("least", min), ("greatest", max))
_RATIO_SUMMARIES = (("geometric mean", statistics.geometric_mean), ("mean", statistics.fmean),
                    ("median", statistics.median))


def _summary_of(value: float, values: list, summaries: tuple, rtol: float) -> str:
    """Which of ``summaries`` (name, function) of ``values`` ``value`` is, within ``rtol``; "" when it is none, or
    there were fewer than two values."""
    values = [v for v in values if isinstance(v, (int, float)) and math.isfinite(v)]
    if len(values) < 2 or not isinstance(value, (int, float)):
        return ""
    for name, summary in summaries:
        try:
            if abs(value - float(summary(values))) <= rtol * max(abs(value), 1e-12):
                return name
        except (ValueError, statistics.StatisticsError):
            continue
    return ""


def _aggregate_of(value: float, seconds: list) -> str:
    """Which summary (mean, median, least, greatest) of several times time_steps returned ``value`` is, to float
    rounding; "" when it is none. Several timed runs summed up are times time_steps measured too."""
    return _summary_of(value, seconds, _TIME_SUMMARIES, 1e-9)


def _timed_by_time_steps(ctx: Context, r: dict) -> str:
    """"" when eager_s and jit_s are what time_steps returned for the lesson's step without and with jit."""
    timed = ctx.got("speedup").get("timed", [])
    lesson = [t for t in timed if t.get("lesson_params") and t.get("n_steps") == SPEEDUP_STEPS]
    found = []
    for key, jitted in (("eager_s", False), ("jit_s", True)):
        if not any(t["jitted"] == jitted and t["seconds"] == r[key] for t in lesson) \
                and not _aggregate_of(r[key], [t["seconds"] for t in lesson if t["jitted"] == jitted]):
            kind = "a jax.jit-wrapped step" if jitted else "the plain (not jitted) step"
            found.append(f"{key}={r[key]:.4g} is not what time_steps returned for {kind} on the lesson's params "
                         f"with n_steps={SPEEDUP_STEPS}"
                         + _other_kinds_time(r[key], jitted, lesson, r["eager_s"] == r["jit_s"]))
    if not found:
        return ""
    if not any(t["jitted"] for t in timed):  # no jax.jit-wrapped step seen (a lambda around one): how fast each ran
        speeds = _speeds(ctx, lesson)
        if speeds.get(r["eager_s"]) == "eager" and speeds.get(r["jit_s"]) == "compiled" \
                and not _partly_compiled(ctx, lesson, r) and not _compiled_by_program(ctx, lesson, r["eager_s"]):
            return ""
    calls = ", ".join(f"{_kind_of_step(t)} step, n_steps={t['n_steps']}: {t['seconds']:.4g}" for t in timed) or "none"
    other = [t for t in timed if not t.get("lesson_params") and t["seconds"] in (r["eager_s"], r["jit_s"])]
    params = ("; measured: they are what time_steps returned for params whose first layer is not the lesson's "
              "784 -> 256 (the MLP timed is another network: check the sizes its params are made with)"
              ) if other else ""
    return "; ".join(found) + f" (time_steps calls seen: {calls}){params}"


def _other_kinds_time(value: float, jitted: bool, lesson: list[dict], same: bool) -> str:
    """Words for a returned time that is what time_steps returned for the other kind of step (the jitted one where
    the plain one's belongs, or the reverse), and, where eager_s and jit_s are one value (``same``), the summary of
    all the runs of both kinds it is, if any; "" otherwise. One time of two is always their least or greatest, so
    a summary is named only where both keys hold it."""
    other = [t["seconds"] for t in lesson if t["jitted"] != jitted]
    if value not in other:
        return ""
    kind = "a jax.jit-wrapped step" if not jitted else "the plain (not jitted) step"
    summary = _summary_of(value, [t["seconds"] for t in lesson], _TIME_SUMMARIES, 1e-9) if same else ""
    over_both = (f", the {summary} of all {len(lesson)} times of both steps together: a summary taken across the two "
                 "kinds of step, where each kind's own runs are summarised apart") if summary else ""
    return f"; measured: it is what time_steps returned for {kind}{over_both}"


def _outside_jit(timed: list[dict], seconds: float) -> int:
    """How many operations the step that time_steps returned ``seconds`` for runs outside any jax.jit-compiled call
    (its program traced by the probe where no step was jax.jit-wrapped); 0 when unknown or none."""
    return next((int(t.get("outside_jit") or 0) for t in timed if t["seconds"] == seconds), 0)


def _lesson_ops(ctx: Context) -> int:
    """How many operations the reference's plain training step runs (its program traced by the probe); 0 when
    unknown."""
    try:
        return int(ctx.want("speedup/plain_ops")["ops"])
    except Exception:  # noqa: BLE001 - the comparison figure is optional (a reference sealed before it was kept)
        return 0


def _partly_compiled(ctx: Context, timed: list[dict], r: dict) -> bool:
    """The step timed for jit_s runs more than a tenth as many operations outside any jax.jit-compiled call as the
    lesson's plain step runs in all (a plain function around one jitted step runs none, or a few conversions)."""
    lesson = _lesson_ops(ctx)
    return lesson > 0 and _outside_jit(timed, r["jit_s"]) > 0.1 * lesson


def _compiled_by_program(ctx: Context, timed: list[dict], seconds: float) -> bool:
    """The step time_steps returned ``seconds`` for is not jax.jit-wrapped, and its traced program runs at most a
    tenth as many operations outside compiled calls as the lesson's plain step: a plain function around a jitted
    step, which runs compiled (unless jax.disable_jit() was on while it was timed)."""
    lesson = _lesson_ops(ctx)
    entry = next((t for t in timed if t["seconds"] == seconds and not t["jitted"]), None)
    return (lesson > 0 and entry is not None and entry.get("outside_jit") is not None
            and int(entry["outside_jit"]) <= 0.1 * lesson and not entry.get("jit_disabled"))


def _returned_by(timed: list[dict], seconds: float, jitted: bool, any_n: bool = False) -> bool:
    """``seconds`` is what time_steps returned for a jitted (or plain) lesson step with jit_speedup's n_steps (or,
    with ``any_n``, with any n_steps)."""
    return any(t["jitted"] == jitted and t["seconds"] == seconds and (any_n or t["n_steps"] == SPEEDUP_STEPS)
               for t in timed)


def _per_step(timed: list[dict], r: dict) -> bool:
    """eager_s and jit_s are the plain and jitted totals time_steps returned, each divided by its n_steps."""
    timed = [t for t in timed if t.get("n_steps", 0) > 0]
    return all(any(t["jitted"] == jitted and abs(t["seconds"] / t["n_steps"] - r[key]) <= 1e-9 * abs(r[key])
                   for t in timed) for key, jitted in (("eager_s", False), ("jit_s", True)))


def _divided_times(ctx: Context, timed: list[dict], r: dict) -> str:
    """Words for eager_s and jit_s that are the plain and jitted totals time_steps returned, both divided by one
    number (named when it is the batch size, or n_steps times it: seconds per example); "" otherwise."""
    try:
        batch = int(ctx.got("speedup/batches")[0]["x"][0])
    except Exception:  # noqa: BLE001 - not recorded: the divisor is given as a number only
        batch = 0
    if not (r["eager_s"] > 0 and r["jit_s"] > 0):
        return ""
    for plain in (t for t in timed if not t["jitted"] and t.get("seconds")):
        for jitted in (t for t in timed if t["jitted"] and t.get("seconds")):
            d = plain["seconds"] / r["eager_s"]
            if abs(jitted["seconds"] / r["jit_s"] / d - 1) > 1e-6 or abs(d - 1) < 1e-6:
                continue
            n = plain["n_steps"]
            named = {n * batch: f"n_steps x the batch size ({n} x {batch}): seconds per example",
                     batch: f"the batch size ({batch})"}.get(round(d)) if abs(d - round(d)) < 1e-6 else None
            return (f"eager_s and jit_s are what time_steps returned for the plain and the jitted step divided by "
                    f"{named or f'{d:.6g}'}, where the contract asks for the seconds of the n_steps calls")
    return ""


def _kind_of_step(timing: dict) -> str:
    if timing["jitted"]:
        return "jitted"
    return "plain (jax.disable_jit() on)" if timing.get("jit_disabled") else "plain"


def _truncated_times(timed: list[dict], r: dict) -> str:
    """Words for eager_s and jit_s that are whole numbers, each time_steps' time for its step cut to its whole part
    (int(), //, or an integer array that stored it); "" otherwise."""
    for key, jitted in (("eager_s", False), ("jit_s", True)):
        if r[key] != int(r[key]) or not any(t["jitted"] == jitted and int(t["seconds"]) == r[key] != t["seconds"]
                                            for t in timed):
            return ""
    return (f"eager_s={r['eager_s']:g} and jit_s={r['jit_s']:g} are the whole parts of what time_steps returned, "
            "cut to whole seconds on their way into the dict")


def _jit_timed_disabled(ctx: Context, r: dict) -> bool:
    """jit_s is what time_steps returned for the lesson's step while jax.disable_jit() was on."""
    return any(t.get("jit_disabled") and t["seconds"] == r["jit_s"] for t in ctx.got("speedup").get("timed", []))


def speedup_dict(ctx: Context) -> Verdict:
    """jit_speedup reports what time_steps measured, eagerly and jitted, and speedup == eager_s / jit_s."""
    try:
        r = _speedup(ctx)
    except _BadDict as exc:
        if exc.hint is DONATED_UNTHREADED:
            return skip(f"not judged: {exc}")
        return fail(str(exc), exc.hint)
    eager, jit, speedup = r["eager_s"], r["jit_s"], r["speedup"]
    not_timed = _timed_by_time_steps(ctx, r)
    every = ctx.got("speedup").get("timed", [])
    timed = [t for t in every if t.get("lesson_params")]
    if not_timed and _returned_by(timed, r["eager_s"], True) and _returned_by(timed, r["jit_s"], False):
        return fail(f"jit_speedup({SPEEDUP_STEPS}): {not_timed}; measured: eager_s is what time_steps returned for the "
                    "jitted step and jit_s what it returned for the plain one", TIMES_SWAPPED)
    other_n = sorted({t["n_steps"] for t in timed if t["n_steps"] != SPEEDUP_STEPS})
    if not_timed and other_n and all(_returned_by(timed, r[key], jitted, any_n=True)
                                     for key, jitted in (("eager_s", False), ("jit_s", True))):
        return fail(f"jit_speedup({SPEEDUP_STEPS}): {not_timed}; measured: it called time_steps with n_steps="
                    f"{', '.join(map(str, other_n))}, not the n_steps={SPEEDUP_STEPS} it was given", N_STEPS_NOT_PASSED)
    if not_timed and _per_step(every, r):
        return fail(f"jit_speedup({SPEEDUP_STEPS}): {not_timed}; measured: eager_s and jit_s are what time_steps "
                    f"returned divided by n_steps={SPEEDUP_STEPS}, seconds per step", PER_STEP_REPORTED)
    divided = _divided_times(ctx, every, r) if not_timed else ""
    if divided:
        return fail(f"jit_speedup({SPEEDUP_STEPS}): {not_timed}; measured: {divided}", PER_STEP_REPORTED)
    truncated = _truncated_times(timed, r)
    if not_timed and truncated:
        return fail(f"jit_speedup({SPEEDUP_STEPS}): {not_timed}; measured: {truncated}", REPORTED_TRUNCATED)
    if not_timed and len(timed) >= 2 and all(t["jitted"] for t in timed):
        return fail(f"jit_speedup({SPEEDUP_STEPS}): {not_timed}; measured: every step time_steps timed is a "
                    "jax.jit-wrapped function, the one for eager_s too", EAGER_COMPILED)
    if not_timed and not any(t["jitted"] for t in timed) and _compiled_by_program(ctx, timed, r["eager_s"]):
        return fail(f"jit_speedup({SPEEDUP_STEPS}): {not_timed}; measured: the step timed for eager_s runs "
                    f"{_outside_jit(timed, r['eager_s'])} operations outside any jax.jit-compiled call, where the "
                    f"lesson's step run op by op has {_lesson_ops(ctx)}: it calls a jitted step, and runs compiled",
                    EAGER_COMPILED)
    if not_timed and not any(t["jitted"] for t in timed):  # no jax.jit-wrapped step seen: how fast each ran
        speeds = _speeds(ctx, timed)
        if speeds.get(r["eager_s"]) == speeds.get(r["jit_s"]) == "compiled":
            mine = _own_timings(ctx)
            return fail(f"jit_speedup({SPEEDUP_STEPS}): {not_timed}; measured: both steps ran at the speed of a "
                        f"compiled one (eager_s={eager:.4g} s and jit_s={jit:.4g} s, where the grader's own steps "
                        f"took {mine['eager_s']:.4g} s eagerly and {mine['jit_s']:.4g} s jitted): the step timed as "
                        "the eager one runs compiled too", EAGER_COMPILED)
    if not_timed and not _jit_timed_disabled(ctx, r) and not any(t["jitted"] for t in timed) \
            and r["eager_s"] != r["jit_s"] and all(_returned_by(timed, r[key], False) for key in ("eager_s", "jit_s")):
        mine = _own_timings(ctx)
        own = (f"; the grader's own steps took {mine['eager_s']:.4g} s eagerly and {mine['jit_s']:.4g} s jitted"
               if mine.get("eager_s") and mine.get("jit_s") else "")
        outside = _outside_jit(timed, r["jit_s"])
        runs = (f", and the one timed for jit_s runs {outside} of its operations outside any jax.jit-compiled call "
                f"(the lesson's step, run op by op, has {_lesson_ops(ctx)})") if _partly_compiled(ctx, timed, r) else ""
        return fail(f"jit_speedup({SPEEDUP_STEPS}): {not_timed}; measured: eager_s and jit_s are what time_steps "
                    f"returned for two plain steps, neither a jax.jit-wrapped function{runs} (jit_s={jit:.4g} s, "
                    f"eager_s={eager:.4g} s{own})", STEP_NOT_JITTED)
    if not_timed:
        return fail(f"jit_speedup({SPEEDUP_STEPS}): {not_timed}",
                    JIT_DISABLED if _jit_timed_disabled(ctx, r) else NOT_TIMED)
    if not (eager > 0 and jit > 0):
        for check, mistake in (("ex4.excludes_compile", WARMUP_SUBTRACTED), ("ex4.n_steps", NEGATED)):
            if ctx.verdict(check).mistake == mistake.id:
                return skip(f"not judged: eager_s={eager:.4g} and jit_s={jit:.4g} are negative, as time_steps' times "
                            f"are (charged in {check})")
        return fail(f"eager_s={eager:.4g} and jit_s={jit:.4g}: both must be positive durations", HINT_DICT)
    if abs(speedup - eager / jit) <= 1e-6 * abs(eager / jit):
        return _speedup_default(ctx)
    ratio = eager / jit
    if abs(speedup - jit / eager) <= 1e-6 * abs(jit / eager):
        return fail(f"speedup={speedup:.4g} but eager_s / jit_s = {ratio:.4g}", INVERTED)
    if abs(speedup - (ratio - 1)) <= 1e-6 * abs(ratio):
        return fail(f"speedup={speedup:.4g} but eager_s / jit_s = {ratio:.4g}: it is the ratio minus 1, "
                    "(eager_s - jit_s) / jit_s, the relative gain", RELATIVE_GAIN)
    for value, words in ((eager * jit, "eager_s * jit_s, the product"), (eager - jit, "eager_s - jit_s, the "
                         "difference"), (jit - eager, "jit_s - eager_s"), (eager + jit, "eager_s + jit_s")):
        if abs(speedup - value) <= 1e-6 * max(abs(value), 1e-12):
            return fail(f"speedup={speedup:.4g} but eager_s / jit_s = {ratio:.4g}; measured: speedup is {words} "
                        "of the two times it returns beside it", "speedup is the ratio eager_s / jit_s of the "
                        "two times jit_speedup returns: check the operator on that line.")
    plain = [t["seconds"] for t in timed if not t["jitted"] and isinstance(t.get("seconds"), (int, float))]
    compiled = [t["seconds"] for t in timed if t["jitted"] and isinstance(t.get("seconds"), (int, float))]
    if len(plain) == len(compiled) >= 2 and all(b > 0 for b in compiled):
        ratios = [a / b for a, b in zip(plain, compiled)]
        name = _summary_of(speedup, ratios, _RATIO_SUMMARIES, 1e-6)
        if name:
            return fail(f"speedup={speedup:.4g} but eager_s / jit_s = {ratio:.4g}; measured: speedup is the "
                        f"{name} of the {len(ratios)} runs' own ratios ({', '.join(f'{x:.4g}' for x in ratios)}), "
                        f"while eager_s and jit_s summarise the runs' times", "speedup is eager_s / jit_s of the "
                        "two times jit_speedup returns beside it, whatever they summarise: divide those two.")
    seconds = [t["seconds"] for t in every if isinstance(t.get("seconds"), (int, float)) and t["seconds"] > 0]
    words, hint = _speedup_reading(eager, jit, speedup, seconds)
    return fail(f"speedup={speedup:.4g} but eager_s / jit_s = {ratio:.4g}" + (f"; measured: {words}" if words else ""),
                hint)


def _speedup_default(ctx: Context) -> Verdict:
    """jit_speedup() with n_steps left out times API_N_STEPS steps each way: the n_steps it gave time_steps (a
    time_steps that runs nothing stood in). Passes when that is unknown (time_steps not called, or the call
    raised)."""
    try:
        passed = ctx.got("speedup/default_n_steps")["n_steps"]
        deleted = ctx.got("speedup/default_n_steps").get("deleted") or []
    except (StudentError, Missing, KeyError, TypeError, AttributeError):
        return PASS
    if deleted:
        return fail(f"jit_speedup() called a second time gave time_steps {', '.join(map(str, deleted))} whose arrays "
                    "an earlier call deleted (a jitted step given them with donate_argnums deletes them once it has "
                    "run) and that are kept from call to call: every later call works on deleted buffers",
                    DONATED_KEPT, fraction=0.5)
    if not passed or all(n == API_N_STEPS for n in passed):
        return PASS
    if len(set(passed)) > 1:  # the two steps timed over different counts: not a default, the count passed on
        return fail(f"jit_speedup() with n_steps left out called time_steps with n_steps="
                    f"{', '.join(map(str, passed))}: each way must time the same n_steps", N_STEPS_NOT_PASSED,
                    fraction=0.5)
    return fail(f"jit_speedup() with n_steps left out called time_steps with n_steps="
                f"{', '.join(map(str, sorted(set(passed))))}, not {API_N_STEPS}", DEFAULT_N_STEPS, fraction=0.5)


def _speedup_reading(eager: float, jit: float, speedup: float, seconds: list[float]) -> tuple[str, Mistake | str]:
    """What a speedup other than eager_s / jit_s (and other than its inverse or the ratio minus 1) is, measured
    against the two times and the ``seconds`` time_steps returned: (words, hint); ("", HINT_DICT) when nothing
    reads it."""
    ratio = eager / jit
    times = (eager, jit, *seconds)
    ratios = [a / b for i, a in enumerate(times) for j, b in enumerate(times) if i != j and i != 1 and j != 0]
    if speedup in (0.0, 1.0) and abs(ratio - speedup) > 0.05 * max(ratio, 1e-12):
        return (f"it is exactly {speedup:g}, a fixed value: no two times this call measured have that ratio",
                "speedup is eager_s / jit_s, computed from the two times every time: not a fixed value (1.0 or 0 "
                "for short runs, or where the times look unreliable; a caveat belongs in answers.md).")
    cut = next((f"rounded to {k} decimal place{'s' * (k != 1)}" for k in (3, 2, 1, 0) for q in ratios
                if speedup == round(q, k)), "")
    cut = cut or ("cut to its whole part" if any(speedup == int(q) for q in ratios) else "")
    if cut:
        return f"it is that ratio {cut}", "speedup is eager_s / jit_s as it is, not rounded: round it where you print " \
                                         "it, if anywhere."
    formula = next((words for words, v in (
        ("the difference eager_s - jit_s", eager - jit), ("the fraction of time saved, (eager_s - jit_s) / eager_s",
                                                           (eager - jit) / eager),
        ("the percent of time saved, 100 (eager_s - jit_s) / eager_s", 100 * (eager - jit) / eager),
        ("the percent gain, 100 (eager_s - jit_s) / jit_s", 100 * (ratio - 1)), ("the ratio as a percent", 100 * ratio))
        if abs(speedup - v) <= 1e-6 * max(abs(v), 1e-12)), "")
    if not formula and speedup > 0:
        formula = _padded(eager, jit, speedup)
    if formula:
        return f"it is {formula}", ("speedup is the ratio eager_s / jit_s (5 when jit is five times faster), as it is: "
                                    "not a difference, a fraction or a percentage, and with nothing added to either "
                                    "time (jit_s is a measured duration, never 0).")
    if abs(speedup - ratio) > 0.05 * ratio and not any(abs(speedup - q) <= 1e-3 * abs(q) for q in ratios):
        return (f"it is not the ratio of any two times this call measured (eager_s, jit_s, or the {len(seconds)} "
                "time_steps returned)"), SPEEDUP_ELSEWHERE
    return "", HINT_DICT


def _padded(eager: float, jit: float, speedup: float) -> str:
    """Words for a speedup that is the ratio with a power of ten added to (or taken from) one of the times, to float
    precision; "" otherwise."""
    for words, c in (("jit_s", eager / speedup - jit), ("eager_s", speedup * jit - eager)):
        term = math.copysign(10.0 ** round(math.log10(abs(c))), c) if c != 0 else 0.0
        if not term or jit + term == 0:
            continue
        padded = eager / (jit + term) if words == "jit_s" else (eager + term) / jit
        if abs(padded - speedup) <= 1e-9 * speedup:
            sign = "+" if c > 0 else "-"
            return (f"the ratio with {abs(term):g} {'added to' if c > 0 else 'taken from'} {words}, "
                    + (f"eager_s / (jit_s {sign} {abs(term):g})" if words == "jit_s" else
                       f"(eager_s {sign} {abs(term):g}) / jit_s"))
    return ""


SPEEDUP_ELSEWHERE = Mistake(
    "ex4.speedup_not_measured", "a speedup not computed from this call's times",
    "speedup is eager_s / jit_s of the two times this call of jit_speedup measured and returns beside it. The "
    "value returned is not the ratio of any two of them: it comes from elsewhere (a constant, an earlier run's "
    "timings kept in the file, a module-level value). Compute it from the eager_s and jit_s you return.")


NOT_TRAINING = Mistake(
    "ex4.not_training_step", "timing a step that does not train",
    "jit_speedup times the lesson's training step, which computes the loss and gradients and returns updated "
    "params and optimizer state: train_step eagerly and jax.jit(train_step), not a loss or forward evaluation.")
EAGER_COMPILED = Mistake(
    "ex4.eager_step_compiled", "the eager timing of a compiled step",
    "The eager time must be train_step run op by op: pass train_step itself (not a function that calls a jitted "
    "step; a lambda made in a loop calls the last one it sees) for eager_s, and jax.jit(train_step) for jit_s.")


def _own_timings(ctx: Context) -> dict:
    """The grader's own jit_speedup figures of the lesson step on this machine (``eager_s``, ``jit_s``,
    ``speedup``); empty when the reference run did not give them (they are only ever compared with)."""
    try:
        values = ctx.want("speedup")["values"]
        return {k: float(values[k]) for k in ("eager_s", "jit_s", "speedup") if k in values}
    except Exception:  # noqa: BLE001 - the comparison figures are optional
        return {}


def _speeds(ctx: Context, timed: list[dict]) -> dict[float, str]:
    """For each time time_steps returned on the lesson's step with jit_speedup's n_steps: "compiled" or "eager",
    as it sits nearer the grader's own jitted or eager time of that step (on a log scale); empty when the grader's
    own two times are too close to tell them apart."""
    mine = _own_timings(ctx)
    eager, jit = float(mine.get("eager_s", 0.0)), float(mine.get("jit_s", 0.0))
    if not (jit > 0 and eager > 3 * jit):
        return {}
    cut = (eager * jit) ** 0.5
    return {t["seconds"]: "compiled" if t["seconds"] < cut else "eager" for t in timed
            if t.get("n_steps") == SPEEDUP_STEPS and t["seconds"] > 0}


RELATIVE_GAIN = Mistake(
    "ex4.speedup_relative_gain", "the relative gain (the ratio minus 1) as the speedup",
    "speedup is the ratio eager_s / jit_s (5 when jit is five times faster), not the relative gain "
    "(eager_s - jit_s) / jit_s, which is that ratio minus 1.")


def _times_right(ctx: Context, check: str) -> bool:
    """``check`` passed, or failed only on what leaves the times jit_speedup gets right: its default n_steps
    (jit_speedup passes n_steps), extra warm-ups (the timed calls are right), or what only n_steps=1, 0-d params,
    a repeated call or many steps show. Each of these is said after every other problem of ex4.n_steps, so when one is the verdict's mistake
    there is no other."""
    if ctx.passed(check):
        return True
    kept = (DEFAULT_N_STEPS.id, EXTRA_WARMUPS.id, ONE_STEP.id, ONE_STEP_WARMUP.id, OUTPUTS_BY_TYPE.id, TIME_KEPT.id,
            STEPS_CAPPED.id)
    try:
        return check == "ex4.n_steps" and ctx.verdict(check).mistake in kept
    except StudentError:
        return False


def _skipped(ctx: Context, check: str) -> bool:
    try:
        return ctx.verdict(check).skipped
    except StudentError:
        return False


def jit_faster(ctx: Context) -> Verdict:
    """The jitted step is faster than the eager one, as time_steps measured them."""
    try:
        r = _speedup(ctx)
    except _BadDict as exc:
        if exc.hint is FORMATTED:
            return skip(f"not judged: {exc} (charged in ex4.speedup_dict)")
        if exc.hint is DONATED_UNTHREADED:
            return skip(f"not judged: {exc}")
        return fail(str(exc), exc.hint)
    mine = _own_timings(ctx)
    own = f" (the grader measured {mine['speedup']:.1f}x on this machine)" if "speedup" in mine else ""
    if _timed_by_time_steps(ctx, r):
        return skip("not judged: eager_s and jit_s are not what time_steps measured (charged in ex4.speedup_dict)")
    wrong = [check for check in _TIMER if not _times_right(ctx, check)]
    if wrong:  # whichever way the times fall, by chance: not judged either way
        charged = [check for check in wrong if not _skipped(ctx, check)] or wrong
        return skip(f"not judged: time_steps does not time the calls as it should (charged in {', '.join(charged)}), so "
                    f"the times it gave jit_speedup (eager_s={r['eager_s']:.4g} s, jit_s={r['jit_s']:.4g} s) cannot "
                    "say which step is faster")
    if ctx.got("speedup").get("jit_disabled_after"):
        return fail("jit_speedup returned with jax.disable_jit still on: every jax.jit that runs after it, in the "
                    "same program, runs op by op", JIT_LEFT_DISABLED)
    idle = [t for t in ctx.got("speedup").get("timed", []) if t.get("trains") is False and t.get("lesson_params")]
    if idle:
        kinds = sorted({_kind_of_step(t) for t in idle})
        which = (f"the {kinds[0]} step time_steps timed returned the params it was given unchanged: it is not a "
                 "training step" if len(kinds) == 1 else f"the {' and '.join(kinds)} steps time_steps timed returned "
                 "the params they were given unchanged: they are not training steps")
        return fail(f"eager_s={r['eager_s']:.4g} s, jit_s={r['jit_s']:.4g} s{own}; measured: {which}", NOT_TRAINING)
    lesson_step = _lesson_step_problem(ctx)
    if lesson_step:
        return fail(f"eager_s={r['eager_s']:.4g} s, jit_s={r['jit_s']:.4g} s{own}; measured: {lesson_step[0]}",
                    lesson_step[1], fraction=lesson_step[2])
    compiled = _compiled_products(ctx, r["eager_s"])
    if compiled:
        return fail(f"eager_s={r['eager_s']:.4g} s, jit_s={r['jit_s']:.4g} s{own}; measured: {compiled}",
                    EAGER_PARTLY_COMPILED)
    if r["eager_s"] > 0 and r["jit_s"] > 0 and r["eager_s"] / r["jit_s"] > 1.0:
        return Verdict(True, f"jit was {r['eager_s'] / r['jit_s']:.1f}x faster{own}")
    lesson = [t for t in ctx.got("speedup").get("timed", []) if t.get("lesson_params")]
    if _speeds(ctx, lesson).get(r["eager_s"]) == "compiled":
        return fail(f"eager_s={r['eager_s']:.4g} s, jit_s={r['jit_s']:.4g} s{own}; measured: the eager step ran at "
                    f"the speed of a compiled one (the grader's own steps took {mine['eager_s']:.4g} s eagerly and "
                    f"{mine['jit_s']:.4g} s jitted): it runs compiled too", EAGER_COMPILED)
    return fail(f"eager_s={r['eager_s']:.4g} s, jit_s={r['jit_s']:.4g} s{own}", HINT_SLOWER)


EAGER_PARTLY_COMPILED = Mistake(
    "ex4.eager_step_partly_compiled", "an eager step with jitted pieces inside",
    "The eager time must be the lesson's train_step run op by op: nothing inside it jitted. A jax.jit around "
    "value_and_grad, the loss or the forward pass compiles the costly part of the step, so eager_s is mostly compiled "
    "time and the speedup comes out too small. Keep train_step as it is given, and apply jax.jit only to the whole "
    "step, for jit_s.")


def _compiled_products(ctx: Context, seconds: float) -> str:
    """What runs compiled inside the plain step time_steps returned ``seconds`` for: some of its matrix products
    sit inside jax.jit-compiled calls of the step (the lesson's runs all of them op by op); "" when none do or it is
    unknown (a step that is all one jitted call is told apart elsewhere)."""
    entry = next((t for t in ctx.got("speedup").get("timed", [])
                  if t["seconds"] == seconds and not t["jitted"] and t.get("lesson_params")), None)
    products = (entry or {}).get("products") or {}
    if not products.get("compiled") or entry.get("jit_disabled"):
        return ""
    calls = ", ".join(products.get("calls", [])) or "a jitted function"
    share = (f"all {products['all']}" if products["compiled"] == products["all"]
             else f"{products['compiled']} of the {products['all']}")
    return (f"the step timed for eager_s runs {share} of its matrix products inside "
            f"jax.jit-compiled calls ({calls}), so its forward and backward passes run compiled: eager_s is not the "
            "lesson's step run op by op")


OTHER_TRAIN_STEP = Mistake(
    "ex4.other_train_step", "timing another training step than the lesson's",
    "jit_speedup times the lesson's train_step, the one given in the file, eagerly and as jax.jit(train_step): the "
    "step timed returned other params than train_step does from the same params, optimizer state and batch (a "
    "step written anew, another optimizer or learning rate). Pass train_step itself, and jax.jit(train_step).")
STATE_NOT_INIT = Mistake(
    "ex4.state_not_fresh", "a timed run that does not start from optimizer.init(params)",
    "Each of jit_speedup's two runs starts from the params init_params built and a fresh optimizer.init(params), "
    "the lesson's optax.adam state: the message says which run was given what. Nothing carries over from the "
    "eager run to the jitted one (JAX state lives in the values passed, not in the model), and the state is the "
    "lesson optimizer's own, not one written by hand.")
#: How far (as a fraction of Adam's first update, about the learning rate) the timed step's first params may sit
#: from the lesson's train_step's: jitted and plain runs of the same step differ by float rounding only.
OFF_LESSON = 0.05


def _lesson_step_problem(ctx: Context) -> tuple[str, Mistake, float | None] | None:
    """What the probe measured of each timed run against the lesson's train_step from optimizer.init(params):
    (words, mistake, fraction) for a step that computes other params (the whole check), or a start that is not
    a fresh optax.adam state (half of it); None when each run is the lesson's step from a fresh state, or when
    that was not measured."""
    drawn = _batch_drawn(ctx)
    try:
        first = ctx.got("speedup/batches")[0]
        lesson = len(first["x"]) == 2 and first["x"][1] == 784 and first["y"] == first["x"][:1]
    except Exception:  # noqa: BLE001 - not recorded: nothing measured
        lesson = True
    if drawn and not lesson:  # another batch size is the student's choice; other shapes are another computation
        return drawn.removeprefix("measured: "), BATCH_SHAPE, 0.5
    unequal = _batches_unequal(ctx)
    if unequal:
        return unequal, BATCHES_UNEQUAL, None
    timed = [t for t in ctx.got("speedup").get("timed", []) if t.get("lesson_params") and t.get("state")]
    off = [t for t in timed if (t.get("off_lesson") or 0.0) > OFF_LESSON]
    if off:
        t = off[0]
        return (f"the {_kind_of_step(t)} step's first call returned params {t['off_lesson'] * 1e-3:.3g} away (the "
                "largest difference) from those the lesson's train_step returns from the same params, state and "
                "batch, where its update moves each by about 0.001", OTHER_TRAIN_STEP, None)
    other = [t for t in timed if not t["state"].get("lesson")]
    if other:
        t = other[0]
        same = (" (it computes the lesson's update: the params it returned agree with train_step's)"
                if t.get("off_lesson") is not None else "")
        return (f"the optimizer state given to time_steps for the {_kind_of_step(t)} step is {t['state']['form']}, "
                f"not optimizer.init(params) (optax.adam's state){same}", STATE_NOT_INIT, 0.5)
    stale = [t for t in timed if not t["state"].get("fresh")]
    if stale:
        t = stale[0]
        count = t["state"].get("count")
        return (f"the {_kind_of_step(t)} run started from an optax.adam state that is not fresh (its step count is "
                f"{count}, where optimizer.init(params) gives 0): it continues an earlier run", STATE_NOT_INIT, 0.5)
    return None


def _batches_unequal(ctx: Context) -> str:
    """Words for a jit_speedup whose two runs were given batches of different shapes (one run on a slice of the
    batch), from the shapes each time_steps call was given; "" when they agree or were not recorded."""
    try:
        batches, timed = ctx.got("speedup/batches"), ctx.got("speedup").get("timed", [])
    except Exception:  # noqa: BLE001 - not recorded: nothing measured
        return ""
    runs = [(_kind_of_step(t), b) for t, b in zip(timed, batches) if t.get("lesson_params")]
    if len(runs) < 2 or len({str(b) for _, b in runs}) == 1:
        return ""
    shown = ", ".join(f"the {kind} run x of shape {_shown_shape(b['x'])}" for kind, b in runs)
    return (f"jit_speedup gave {shown}: the two runs time different amounts of work, so their ratio is not the "
            "speedup of jax.jit")


BATCHES_UNEQUAL = Mistake(
    "ex4.batches_unequal", "the eager and jitted runs timed on batches of different sizes",
    "jit_speedup gives both time_steps calls the same x and y (the whole batch): a run on a slice of it, or on "
    "another batch, does less or more work, and eager_s / jit_s then measures that as well as jax.jit.")


#: ex4.n_steps earns nothing when the returned time follows no clock; the timer's other properties are judged
#: only once it earns credit.
_TIMED = ("ex4.n_steps",)
#: What time_steps' timing is judged by: when one fails, the speedup it measured says nothing.
_TIMER = ("ex4.n_steps", "ex4.excludes_compile", "ex4.waits_for_results")

OTHER_STEP = Mistake(
    "ex4.other_step", "timing another function than step_fn",
    "time_steps called step_fn, then gave what it returned to JAX code other than step_fn (the message says after "
    "how many calls; JAX's words may name that code): every call, the warm-up and each timed one, must be "
    "step_fn(params, opt_state, x, y), the function jit_speedup passes in, not train_step or a step of time_steps' "
    "own; and the one JAX function to give results to, to wait for them, is jax.block_until_ready.")
RESULTS_TO_JAX = Mistake(
    "ex4.results_to_jax", "the results given to a JAX function in place of a wait",
    "time_steps made all its calls of step_fn, then gave their results to a JAX function other than "
    "jax.block_until_ready (jax.device_put, jax.lax.optimization_barrier, a jnp function...). JAX returns from a "
    "call before its result is computed, and a function given that result queues more work without waiting for it "
    "(jax.lax.optimization_barrier only orders computations inside one program): wait with jax.block_until_ready((params, opt_state, loss)) before reading "
    "the clock.")
STEP_TRANSFORMED = Mistake(
    "ex4.step_transformed", "time_steps jits (or transforms) the step it is given",
    "time_steps gave step_fn to JAX (the message quotes the line) instead of calling it as it is given. It must "
    "call step_fn exactly as passed: jit_speedup passes train_step for the eager time and jax.jit(train_step) for "
    "the jitted one, and a new jax.jit(step_fn) is another function with a cache of its own, so a warm-up through "
    "it leaves step_fn's own first call (its compilation) inside the clock. Warm up with step_fn(params, "
    "opt_state, x, y) itself.")

TRACED_FOR_SHAPES = Mistake(
    "ex4.warmup_traced_only", "a warm-up that traces step_fn for its shapes (jax.eval_shape) instead of calling it",
    "jax.eval_shape and jax.make_jaxpr trace a function for its output shapes or its program: they compile "
    "nothing and run nothing, so a jitted step still compiles inside the timed loop. Warm up by calling step_fn "
    "itself once, params, opt_state, loss = step_fn(params, opt_state, x, y), and wait for it "
    "(jax.block_until_ready) before starting the clock.")


#: time_steps' default n_steps, fixed by the exercise API.
API_N_STEPS = 100
DEFAULT_N_STEPS = Mistake(
    "ex4.default_n_steps", "a default for n_steps other than 100",
    "With n_steps left out, time_steps must time 100 steps: the API is time_steps(step_fn, params, opt_state, x, y, "
    "n_steps=100), and jit_speedup(n_steps=100) likewise.")
JIT_LEFT_DISABLED = Mistake(
    "ex4.jit_left_disabled", "jax.disable_jit left on after jit_speedup",
    "jit_speedup switched jax.disable_jit on and left it on, so every jax.jit after it runs op by op. Time the "
    "eager step by passing train_step itself (not jitted), or use `with jax.disable_jit():` around that call "
    "only, so that it is switched back off.")
OTHER_BATCH = Mistake(
    "ex4.other_batch", "step_fn called with another batch than the one given",
    "time_steps must call step_fn(params, opt_state, x, y) with the x and y it was given, every time (the "
    "message says which calls got others): timing a step on other data (resampled, shuffled, sliced) times "
    "another computation.")
STATE_SWAPPED = Mistake(
    "ex4.params_state_swapped", "params and opt_state passed to step_fn the other way round",
    "step_fn was given the optimizer state where params go (the message says on which call): it takes "
    "(params, opt_state, x, y) and returns (new_params, new_opt_state, loss), in that order. Unpack its results "
    "in that order, params, opt_state, loss = step_fn(params, opt_state, x, y), and pass them back the same way.")
STEP_KEYWORDS = Mistake(
    "ex4.step_fn_keywords", "step_fn called with keyword arguments",
    "time_steps called step_fn with its arguments by name (params=..., x=...), which works only for a step "
    "whose parameters have those names; a jitted lambda or another training step may name them otherwise. "
    "Pass them by position, as the contract does: step_fn(params, opt_state, x, y).")
BATCH_SWAPPED = Mistake(
    "ex4.x_y_swapped", "x and y passed to step_fn the other way round",
    "step_fn takes (params, opt_state, x, y): the inputs x (shape (B, 784)), then the labels y (shape (B,)). Pass "
    "them in that order, as time_steps was given them.")
NO_TIMED_CALLS = Mistake(
    "ex4.no_timed_calls", "a timed loop that made no calls",
    "The timed loop did not make its calls of step_fn: something that only describes them (a generator, map() or "
    "an itertools object such as accumulate, which run nothing until iterated), a range of no steps, or a return "
    "inside the loop. Call it in a plain loop: for _ in range(n_steps): params, opt_state, loss = "
    "step_fn(params, opt_state, x, y).")
BATCH_SHAPE = Mistake(
    "ex4.batch_shape", "a batch drawn in other shapes than the lesson's",
    "jit_speedup draws the lesson's batch: x of shape (batch, 784), one flattened image per row, and y of shape "
    "(batch,), one label per image (jax.random.normal(key, (128, 784)), jax.random.randint(key, (128,), 0, 10)).")
NOT_SECONDS = Mistake(
    "ex4.not_seconds", "time_steps returning something other than a number of seconds",
    "time_steps returns one number, the elapsed seconds as a Python float (time.perf_counter() - start); the "
    "message says what it returned instead. Return the loss or the state, if you need them, from another "
    "function.")


def time_steps_error_hint(error: ObservationError) -> Mistake | str:
    """When time_steps raised: JAX refusing the grader's step before it ran is named (the probe raises
    ``StepTransformed``, by type); otherwise the crash's kind decides."""
    if error.type == "StepTransformed":
        return STEP_TRANSFORMED
    if error.type == "StepTracedForShapes":
        return TRACED_FOR_SHAPES
    if error.type == "ResultsToJax":
        return RESULTS_TO_JAX
    if error.type == "StateElsewhere":
        return OTHER_STEP
    if error.type == "NotSeconds":
        return NOT_SECONDS
    if error.type == "StepArgumentsSwapped":
        return STATE_SWAPPED
    if error.type == "StepCalledWithKeywords":
        return STEP_KEYWORDS
    if error.type == "StepBatchSwapped":
        return BATCH_SWAPPED
    return crash_hint(error)


CHECKS = [
    Check("ex4.excludes_compile", "compilation is excluded from the timing", excludes_compile, ("time_steps",),
          requires=_TIMED),
    Check("ex4.waits_for_results", "the clock waits for the results (block_until_ready)", waits_for_results,
          ("time_steps",), requires=_TIMED),
    Check("ex4.n_steps", "exactly n_steps calls, state threaded through", times_n_steps, ("time_steps",),
          time_steps_error_hint),
    Check("ex4.returns_float", "time_steps returns a float", returns_float, ("time_steps",), requires=_TIMED,
          reads=_TIMER),
    Check("ex4.speedup_dict", "jit_speedup reports eager_s, jit_s and speedup = eager_s / jit_s", speedup_dict,
          ("jit_speedup",), requires=_TIMED, reads=("ex4.excludes_compile", "ex4.n_steps")),
    Check("ex4.jit_faster", "jit is faster than eager", jit_faster, ("jit_speedup",), requires=_TIMED,
          reads=_TIMER),
]

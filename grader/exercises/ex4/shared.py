"""What ex4's probe (child side) and checks (judging side) both read. Standard library only."""

#: The instrumented steps: a first call this slow (like compilation) ...
COMPILE_DELAY = 0.3
#: ... every call this much CPU time before it returns (like dispatching) ...
SYNC_COST = 0.002
#: ... and then this much wall time off the CPU before it returns (like waiting on the host), which a CPU clock
#: does not count and a wall clock read before the wait does.
SYNC_WAIT = 0.002
#: ... and queued work per call finished later (like async dispatch): its cost per call is an input
#: (``inputs.py``, drawn from the seed), these are the public costs.
ASYNC_COST = 0.06
COUNT_COST = 0.04
#: n_steps of the two timed runs: different, so a per-step time, a wrong unit and an off-by-one count
#: each leave their own ratio between what was returned and what was known.
N_STEPS = 3
COUNT_STEPS = 6
#: n_steps passed to the student's jit_speedup: enough for the jitted step to be several times faster on any
#: machine (the eager one is about ten times slower), few enough that the eager steps stay cheap.
SPEEDUP_STEPS = 5
#: The probe lists at most this many calls per run (started times, states seen, results waited on).
MAX_CALLS_SHOWN = 64
#: A third timed run, of UNEVEN_STEPS calls whose queued work is unequal (the first and the last slow): a time
#: extrapolated from typical calls (n_steps times a median or a single lap) parts there from the time the calls
#: took, and so does one that leaves out some laps (a "burn-in" of n_steps // 10, the slowest or the last ones):
#: ten calls, so a tenth of them is one.
UNEVEN_STEPS = 10
UNEVEN_COSTS = (0.05, *(0.005,) * 8, 0.07)
#: A fourth timed run, of N_STEPS calls that each wait this long on the host before they return (off the CPU, as
#: a slow dispatch or a host-side input pipeline does) and queue little work: a clock that times only the wait for
#: the results, not the calls, parts there from the time the calls took.
HOST_WAIT = 0.03
HOST_QUEUED = 0.005

#: The first call's delay (like compilation) in the run of n_steps=1 (``time/one``): a warm-up skipped for one step
#: times it.
ONE_STEP_DELAY = 0.15
#: n_steps of a run whose params and opt_state are 0-d arrays (``time/scalar_params``): params is any pytree, a
#: single number too, and the step's outputs are (params, opt_state, loss) whatever their types.
SCALAR_STEPS = 3
#: The n_steps each timed observation passes to time_steps (the probe reads its own from here, the checks judge by it).
RUN_STEPS = {"time/compile": N_STEPS, "time/async": N_STEPS, "time/count": COUNT_STEPS, "time/uneven": UNEVEN_STEPS,
             "time/host": N_STEPS, "time/one": 1}
#: n_steps of a run of steps that cost nothing (``time/many``): more than the lesson's default of 100, so a loop
#: over a table or a range sized for the default shows.
MANY_STEPS = 150
#: n_steps of two runs of one and the same step, params and batch in a row (``time/repeat``): the second must make
#: its calls and measure them again (a time kept from the first shows).
REPEAT_STEPS = N_STEPS


"""Exercise 4 observations: the timing harness against steps whose costs the grader sets and knows.

The steps here are instrumented stand-ins, not real training. Each call
spends a little CPU time and a little wall time off the CPU before it
returns (as dispatching does), then queues work on a pretend device that
finishes a known time later (as JAX's asynchronous dispatch does); the first
call of a run costs nothing queued, and in one run the first call with each
new shape of its inputs is slow itself (as compilation is). Every result is ready
when its own call's work is, as a ``jax.Array`` is: waiting on an earlier
result does not wait for later work. The probe records, for each run, the
calls, the state each received, which calls' results were waited on, and
when the last result was ready, so the parent knows what a correct timer
returns (the time from the first timed call to the last result) without
depending on how fast this machine is. The costs are inputs, drawn from the
seed for the official grade.
"""

import os
import time

import jax
import numpy as np
import optax

from grader.exercises.ex4.shared import (COMPILE_DELAY, HOST_QUEUED, HOST_WAIT, MANY_STEPS, MAX_CALLS_SHOWN,
                                         ONE_STEP_DELAY, REPEAT_STEPS, RUN_STEPS, SCALAR_STEPS,
                                         SPEEDUP_STEPS, SYNC_COST, SYNC_WAIT, UNEVEN_COSTS)
from grader.harness.jaxpr_tools import inside
from grader.harness.probe_tools import same_array


class _Device:
    """A pretend device: each call's work starts when the previous call's is done and takes ``cost`` s."""

    def __init__(self, cost):
        self.cost, self.free_at = cost, 0.0
        self.ready_at: list[float] = []
        self.waited: list[int] = []
        self.woke: list[tuple[int, float]] = []  # (call, when its wait returned)
        self.waited_latest: set[int] = set()  # calls waited on before the next call was made (a sync per step)

    def enqueue(self, cost):
        self.free_at = max(self.free_at, time.perf_counter()) + cost
        self.ready_at.append(self.free_at)
        return len(self.ready_at) - 1

    def wait(self, call):
        self.waited.append(call)
        if call == len(self.ready_at) - 1:
            self.waited_latest.add(call)
        remaining = self.ready_at[call] - time.perf_counter()
        if remaining > 0:
            time.sleep(remaining)
        self.woke.append((call, time.perf_counter()))

    def woke_on_last(self):
        """When the first wait on the last result returned, once that result was ready; None if never.

        A correct timer reads its clock just after; on a loaded machine the wake-up comes late, and the grader
        allows a time up to then."""
        last = len(self.ready_at) - 1
        return next((at for call, at in self.woke if call == last and at >= self.ready_at[last]), None)


class Pending:
    """One call's result: ready once that call's own work is done, like a jax.Array."""

    def __init__(self, device, call, value):
        self._device, self._call, self.value = device, call, value

    def block_until_ready(self):
        self._device.wait(self._call)
        return self

    def __array__(self, dtype=None, copy=None):
        self._device.wait(self._call)
        return np.asarray(self.value, dtype=dtype)

    def __float__(self):
        self._device.wait(self._call)
        return float(self.value)

    def __int__(self):
        self._device.wait(self._call)
        return int(self.value)

    def item(self):
        return float(self)


def _placing_stand_ins(device_put):
    """``jax.device_put`` that passes the stand-in results (:class:`Pending`) through as they are, as placing an
    array already on the device does, and places everything else as ``device_put`` does: a timer that moves the
    state to its devices before the warm-up must not fail on the grader's stand-ins."""

    def placed(x, *args, **kwargs):
        leaves, tree = jax.tree.flatten(x, is_leaf=lambda v: isinstance(v, Pending))
        if not any(isinstance(v, Pending) for v in leaves):
            return device_put(x, *args, **kwargs)
        return jax.tree.unflatten(tree, [v if isinstance(v, Pending) else device_put(v, *args, **kwargs)
                                         for v in leaves])

    placed.__wrapped__ = device_put
    placed.passes_stand_ins = True
    return placed


def _busy(seconds):
    """Spend ``seconds`` of CPU time (a CPU clock counts it, unlike a sleep)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def _shape(value):
    """The shape of a step's input as a list, or None when it has none."""
    try:
        return list(np.shape(value))
    except Exception:  # noqa: BLE001 - whatever the student passed, the step itself must not fail
        return None


def make_step(first_call_delay=0.0, cost=0.0, host_cost=True, costs=(), host_wait=SYNC_WAIT):
    """A step that threads a counter through params and opt_state, with a log of its calls.

    ``host_cost``: each call also spends a little CPU and waits a little on the host, as a real call does (what
    the timing measurements need; counting calls does not). ``costs``: the queued work of the calls after the
    first, in turn (repeated), in place of ``cost`` for each."""
    device = _Device(cost)
    log = {"calls": 0, "params_seen": [], "state_seen": [], "started": [], "returned": 0.0, "shapes": [],
           "compiled": [], "batches": [], "returned_at": [], "cached": [], "cleared": []}

    def step(params, opt_state, x, y):
        if not isinstance(params, dict) and isinstance(opt_state, dict):
            raise StepArgumentsSwapped(
                f"step_fn's call {log['calls'] + 1} was given the optimizer state as params and params as "
                "opt_state")
        log["started"].append(time.perf_counter())
        log["calls"] += 1
        log["params_seen"].append(params["count"].value)
        log["state_seen"].append(opt_state.value)
        first = log["calls"] == 1
        # Like jax.jit, the step compiles on the first call with each new shape of its inputs.
        shapes = [_shape(x), _shape(y)]
        if shapes not in log["cached"] and first_call_delay:
            log["compiled"].append(log["calls"] - 1)
            time.sleep(first_call_delay)
        log["shapes"].append(shapes)
        log["cached"].append(shapes)  # what jax.clear_caches() forgets
        log["batches"].append((x, y))  # compared with the batch time_steps was given after the run
        if host_cost:
            _busy(SYNC_COST)
            time.sleep(host_wait)
        call = device.enqueue(0.0 if first else costs[(log["calls"] - 2) % len(costs)] if costs else cost)
        count = params["count"].value + 1
        log["returned"] = time.perf_counter()
        log["returned_at"].append(log["returned"])
        return {"count": Pending(device, call, count)}, Pending(device, call, count), Pending(device, call, 0.5)

    by_position = step

    def step(*args, **kwargs):
        """The contract calls step_fn(params, opt_state, x, y): by position, whatever its parameters are named."""
        if kwargs:
            raise StepCalledWithKeywords(
                f"time_steps called step_fn with keyword arguments ({', '.join(f'{name}=' for name in kwargs)}) "
                f"on its call {log['calls'] + 1}")
        return by_position(*args)

    def initial():
        call = device.enqueue(0.0)
        return {"count": Pending(device, call, 0)}, Pending(device, call, 0)

    return step, initial, log, device


class StepArgumentsSwapped(TypeError):
    """time_steps called step_fn with params and opt_state the other way round (on its first call, or after
    unpacking what step_fn returned in another order than (new_params, new_opt_state, loss))."""


class StepCalledWithKeywords(TypeError):
    """time_steps passed step_fn's arguments by name, which only a step with those parameter names accepts."""


class NotSeconds(TypeError):
    """time_steps returned something that is not one number (a tuple, a dict, None...)."""


def _seconds(value) -> float:
    """What time_steps returned, as a float; ``NotSeconds`` naming its type when it is not one number."""
    try:
        return float(value)
    except (TypeError, ValueError):
        raise NotSeconds(f"time_steps returned a {type(value).__name__}, not a number of seconds") from None


class StepTransformed(TypeError):
    """time_steps gave the step it was given to JAX (jax.jit, jax.vmap...) instead of calling it: the step's
    arguments are not arrays, so JAX refused them before the step ran once."""


class StepTracedForShapes(StepTransformed):
    """time_steps gave step_fn to jax.eval_shape or jax.make_jaxpr (as a warm-up, say): traced for its shapes,
    which compiles and runs nothing."""


#: The JAX functions that trace a function for its shapes or program only, by the name a line calls them with.
_TRACE_ONLY = ("eval_shape", "make_jaxpr")


def _line_giving_the_step(exc: BaseException, module_file: str) -> str:
    """The line of the submission's module, innermost, through which ``exc`` passed; "" when none."""
    import traceback

    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == module_file]
    return (frames[-1].line or "").strip() if frames else ""


class StateElsewhere(TypeError):
    """time_steps called step_fn, then gave the state it returned to other JAX code (a step of its own, the
    module's train_step...): JAX refused the grader's stand-in state there."""


class ResultsToJax(StateElsewhere):
    """time_steps made every call of step_fn (n_steps of them at least), then gave the results to JAX code other
    than jax.block_until_ready: the function JAX names in its message, where the clock should wait."""


def _raised_by_jax(exc: BaseException) -> bool:
    """The exception was raised inside the jax package (not in the submission or this probe). JAX drops its
    own frames from the traceback it shows; the exception it raised first, with them, is the context."""
    seen = 0
    while exc is not None and seen < 4:
        tb, last = exc.__traceback__, ""
        while tb is not None:
            last, tb = tb.tb_frame.f_code.co_filename, tb.tb_next
        if f"{os.sep}jax{os.sep}" in last:
            return True
        exc, seen = exc.__context__, seen + 1
    return False


def _scalar_params(m):
    """The (params, opt_state) each call of a step got, where both are 0-d arrays (the step adds 1 to params and 10
    to opt_state, and returns a loss of -1): threading them gives (k, 10 k) at call k."""
    seen = []

    def step(params, opt_state, x, y):
        seen.append([float(params), float(opt_state)])
        return params + 1.0, opt_state + 10.0, np.float32(-1.0)

    m.time_steps(step, jax.numpy.float32(0.0), jax.numpy.float32(0.0), *_BATCH, n_steps=SCALAR_STEPS)
    return seen[:MAX_CALLS_SHOWN]


def _time(m, first_call_delay, cost, n_steps, costs=(), host_wait=SYNC_WAIT, calls_made=None):
    """One timed run (see the module docstring). When time_steps gives its results to JAX code after all its calls,
    ``calls_made`` (a dict) receives what those calls were before ``ResultsToJax`` is raised: they are judged
    without a time."""
    step, initial, log, device = make_step(first_call_delay, cost, costs=costs, host_wait=host_wait)
    params, opt_state = initial()
    start = time.perf_counter()
    x, y = _BATCH
    clear_caches = jax.clear_caches

    def cleared(*args, **kwargs):
        """jax.clear_caches(), which also makes the step compile again, as a jitted one would."""
        log["cleared"].append(log["calls"])
        log["cached"].clear()
        return clear_caches(*args, **kwargs)

    jax.clear_caches = cleared
    began_cpu = time.process_time()  # another clock a start may be read from
    try:
        seconds = m.time_steps(step, params, opt_state, x, y, n_steps=n_steps)  # as documented: by name
    except TypeError as exc:
        if log["calls"] == 0 and _raised_by_jax(exc):
            line = _line_giving_the_step(exc, getattr(m, "__file__", "") or "")
            if any(f"{name}(" in line for name in _TRACE_ONLY):
                raise StepTracedForShapes(f"time_steps gave step_fn to JAX, in `{line[:200]}`, which traces it for "
                                          "its shapes and neither runs nor compiles it") from exc
            where = f", in `{line[:200]}`," if line else ""
            raise StepTransformed(f"time_steps gave step_fn to JAX{where} instead of calling it as given ({exc})") from exc
        if Pending.__name__ in str(exc) and (_raised_by_jax(exc) or "JAX" in str(exc)) and log["calls"] >= n_steps:
            if calls_made is not None:
                calls_made.update(n_steps=n_steps, calls=log["calls"], params_seen=log["params_seen"],
                                  state_seen=log["state_seen"], waited=sorted(set(device.waited)),
                                  last=len(device.ready_at) - 1, jax_error=" ".join(str(exc).split())[:500])
            raise ResultsToJax(f"time_steps made {log['calls']} calls of step_fn (n_steps={n_steps}), then gave their "
                               "results to JAX "
                               f"code other than jax.block_until_ready ({' '.join(str(exc).split())})") from exc
        if Pending.__name__ in str(exc) and (_raised_by_jax(exc) or "JAX" in str(exc)):
            raise StateElsewhere(f"time_steps called step_fn {log['calls']} time(s), then JAX code other than step_fn "
                                 f"was given the state step_fn returned ({exc})") from exc
        raise
    finally:
        jax.clear_caches = clear_caches
    wall = time.perf_counter() - start
    calls = log["calls"]
    # What a correct timer returns when its clock starts just before call k: the time from then to the last result.
    to_last = [device.ready_at[-1] - started for started in log["started"][:MAX_CALLS_SHOWN]]
    # ... and when it stops as the last call returns, before its results are ready (CPU and host wait included).
    to_return = [log["returned"] - started for started in log["started"][:MAX_CALLS_SHOWN]]
    # ... and the most a correct timer can return on this machine: from the return of the call before its first
    # timed call (or the start of time_steps) until it woke up after the last result was ready.
    woke = device.woke_on_last()
    to_woke = [] if woke is None else [woke - start] + [woke - back for back in log["returned_at"][:MAX_CALLS_SHOWN]]
    return {
        "returned_type": type(seconds).__name__,
        "is_float": isinstance(seconds, float),
        "seconds": _seconds(seconds),
        "wall": wall,
        # when time_steps was called and returned, on the clock the submission reads (time.perf_counter)
        "began": start,
        "ended": start + wall,
        # time.process_time() when time_steps was called and returned (a start read from that clock lies between)
        "began_cpu": began_cpu,
        "ended_cpu": time.process_time(),
        "calls": calls,
        "params_seen": log["params_seen"],
        "state_seen": log["state_seen"],
        # Result indices: 0 is the initial state, call k's results are k.
        "waited": sorted(set(device.waited)),
        "waited_latest": sorted(device.waited_latest)[:MAX_CALLS_SHOWN],
        "last": len(device.ready_at) - 1,
        "to_last": to_last,
        "to_return": to_return,
        "to_woke": to_woke,
        "shapes": log["shapes"][:MAX_CALLS_SHOWN],
        "compiled": log["compiled"][:MAX_CALLS_SHOWN],
        "cleared": log["cleared"][:MAX_CALLS_SHOWN],  # after how many calls jax.clear_caches() was called
        "timed_shapes": [_shape(x), _shape(y)],
        # calls given other values of the same shapes (another shape is a compilation, judged as one)
        "other_batch": [k for k, (bx, by) in enumerate(log["batches"]) if [_shape(bx), _shape(by)] ==
                        [_shape(x), _shape(y)] and not (_same(bx, x) and _same(by, y))][:MAX_CALLS_SHOWN],
        # the dtypes of the x and y each call got, where they are not those given (a cast is another batch)
        "other_dtypes": sorted({f"{name} of dtype {_dtype(b)} where time_steps was given {_dtype(g)}"
                                for bx, by in log["batches"] for name, b, g in (("x", bx, x), ("y", by, y))
                                if _dtype(b) != _dtype(g)}),
        "sync": SYNC_COST * min(calls, n_steps),
        "n_steps": n_steps,
        # each call's time from its start to its own result (a lap, when every call is waited on)
        "laps": [device.ready_at[k + 1] - started for k, started in enumerate(log["started"][:MAX_CALLS_SHOWN])],
        "compile_delay": first_call_delay,
        "cost": cost,
    }


#: The batch time_steps is given: rows that differ, so a step given other rows (resampled, shuffled) shows; 300 of
#: them, more than a minibatch of 32 to 256, so a time_steps that cuts the batch into minibatches shows too.
_ROWS = 300
_BATCH = (np.arange(_ROWS * 784, dtype=np.float32).reshape(_ROWS, 784) / (_ROWS * 784.0),
          np.arange(_ROWS, dtype=np.int32) % 10)


def _dtype(value) -> str:
    """The dtype's name of an array (or of what numpy makes of a value); "?" when it has none."""
    try:
        return str(getattr(value, "dtype", None) or np.asarray(value).dtype)
    except Exception:  # noqa: BLE001 - a student's object may refuse to be read
        return "?"


def _same(value, given) -> bool:
    """``value`` is the array time_steps was given, or equal to it."""
    return value is given or same_array(value, given)


def _default_n_steps(m):
    """How many times time_steps calls step_fn with n_steps left out (a step that costs nothing)."""
    step, initial, log, _ = make_step(0.0, 0.0, host_cost=False)
    params, opt_state = initial()
    m.time_steps(step, params, opt_state, np.zeros((4, 784), np.float32), np.zeros(4, np.int32))
    return {"calls": log["calls"]}


def _instant(m):
    """time_steps on one call of a step that costs nothing: what it returned, and the time the whole time_steps call
    took from outside (a correct time is never longer)."""
    step, initial, _, _ = make_step(0.0, 0.0, host_cost=False)
    params, opt_state = initial()
    x, y = np.zeros((4, 784), np.float32), np.zeros(4, np.int32)
    start = time.perf_counter()
    returned = m.time_steps(step, params, opt_state, x, y, n_steps=1)
    outer = time.perf_counter() - start
    return {"seconds": _seconds(returned), "outer": outer}


def _calls_of(m, runs, n_steps):
    """time_steps ``runs`` times in a row on one step that costs nothing, the same params, opt_state and batch: the
    calls each made and the time each returned."""
    step, initial, log, _ = make_step(0.0, 0.0, host_cost=False)
    params, opt_state = initial()
    x, y = np.zeros((4, 784), np.float32), np.zeros(4, np.int32)
    calls, seconds = [], []
    for _ in range(runs):
        before = log["calls"]
        seconds.append(_seconds(m.time_steps(step, params, opt_state, x, y, n_steps=n_steps)))
        calls.append(log["calls"] - before)
    return {"n_steps": n_steps, "calls": calls, "seconds": seconds}


def _speedup(m, batches, plain_ops):
    """jit_speedup, with every time_steps call it makes recorded (the step it timed and what it returned); the
    shapes of the batch each call was given go to ``batches`` first, kept if jit_speedup raises, and the operations
    each plain step runs outside compiled calls to ``plain_ops``."""
    own = m.time_steps
    timed, given = [], []

    def recording_time_steps(step_fn, params, opt_state, x, y, n_steps=100):
        given.append((step_fn, params, opt_state, x, y))
        batches.append({"x": _shape(x), "y": _shape(y)})
        state, expected = _lesson_start(params, opt_state, x, y)  # before the clock: waited for here
        # (what is not a function is passed as it is: calling it then fails in time_steps' own frame, which the
        # recorder reads for arguments passed in each other's places)
        watched = _Watched(step_fn) if callable(step_fn) else step_fn
        seconds = own(watched, params, opt_state, x, y, n_steps)
        first = watched.first if isinstance(watched, _Watched) else None
        disabled = _jit_disabled()
        timed.append({"jitted": _runs_compiled(step_fn, disabled), "jit_disabled": disabled,
                      "n_steps": int(n_steps) if np.size(n_steps) == 1 else -1,
                      "seconds": _seconds(seconds), "lesson_params": _lesson_shaped(params),
                      "trains": _params_moved(*first[0]) if first else None,
                      "state": state, "off_lesson": _off_lesson(first[0][1], expected) if first else None})
        return seconds

    m.time_steps = recording_time_steps
    try:
        result = m.jit_speedup(SPEEDUP_STEPS)
    finally:
        m.time_steps = own
    for t, args in zip(timed, given):  # each step that is not jax.jit-wrapped: how much of it runs uncompiled
        if not t["jitted"]:
            t["outside_jit"], t["products"] = _ops_outside_jit(*args)
            plain_ops.append(t["outside_jit"] or 0)
    left_disabled = _jit_disabled()  # jax.disable_jit still on for whatever runs after jit_speedup
    if not isinstance(result, dict):
        return {"type": type(result).__name__, "timed": timed, "jit_disabled_after": left_disabled}
    return {
        "type": "dict",
        "keys": sorted(str(k) for k in result),
        "timed": timed,
        "jit_disabled_after": left_disabled,
        "values": {str(k): number for k, v in result.items() if (number := _number(v)) is not None},
        "others": {str(k): _shown(v) for k, v in result.items() if _number(v) is None},
    }


#: The lesson's optimizer, the grader's own: the state jit_speedup gives time_steps is judged against its init.
_LESSON_OPTIMIZER = optax.adam(1e-3)


def _lesson_train_step(params, opt_state, x, y):
    """The lesson's train_step (the stub's given code), the grader's own copy: what the step timed must compute."""
    def loss_fn(p):
        h = jax.nn.relu(x @ p["layer1"]["w"] + p["layer1"]["b"])
        h = jax.nn.relu(h @ p["layer2"]["w"] + p["layer2"]["b"])
        logits = h @ p["layer3"]["w"] + p["layer3"]["b"]
        return -jax.numpy.mean(jax.numpy.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = _LESSON_OPTIMIZER.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def _lesson_start(params, opt_state, x, y):
    """What time_steps was given, against the lesson's: the optimizer state (optax.adam's from
    ``optimizer.init(params)``, fresh or with its count), and the params the lesson's train_step returns from there
    (from a fresh adam state when the state given is another optimizer's all at zero); (state, None) when the params
    are not the lesson's MLP or the step cannot be run."""
    if not _lesson_shaped(params):
        return None, None
    try:
        fresh = _LESSON_OPTIMIZER.init(params)
        leaves = jax.tree.leaves(opt_state)
        lesson = jax.tree.structure(opt_state) == jax.tree.structure(fresh)
        zero = all(not np.any(np.asarray(leaf)) for leaf in leaves)
        state = {"lesson": lesson, "fresh": lesson and all(np.array_equal(np.asarray(a), np.asarray(b))
                                                            for a, b in zip(leaves, jax.tree.leaves(fresh))),
                 "zero": zero, "form": _state_form(opt_state),
                 "count": int(np.asarray(opt_state[0].count)) if lesson else None}
        start = opt_state if lesson else fresh if zero else None
        if start is None:
            return state, None
        expected = jax.block_until_ready(_lesson_train_step(params, start, x, y)[0])
        return state, jax.tree.map(np.asarray, expected)
    except Exception:  # noqa: BLE001 - a student's state may be anything: then it is only described
        return {"lesson": False, "fresh": False, "zero": False, "form": _state_form(opt_state), "count": None}, None


def _state_form(opt_state) -> str:
    """A short description of an optimizer state: its type and how many arrays it holds."""
    try:
        leaves = jax.tree.leaves(opt_state)
    except Exception:  # noqa: BLE001
        leaves = []
    return f"a {type(opt_state).__name__} of {len(leaves)} array{'s' if len(leaves) != 1 else ''}"


def _off_lesson(returned, expected) -> float | None:
    """How far the params the step's first call returned are from the lesson's train_step's on the same start, as
    a fraction of the lesson's update (0 for the lesson's step, jitted or not; about 1 or more for another
    computation); None when either cannot be read (deleted by donation, another structure)."""
    if expected is None:
        return None
    try:
        got = jax.tree.leaves(returned[0])
        want = jax.tree.leaves(expected)
        if len(got) != len(want) or any(isinstance(g, jax.Array) and g.is_deleted() for g in got):
            return None
        gap = max(float(np.max(np.abs(np.asarray(g, np.float64) - w))) for g, w in zip(got, want))
        return gap / 1e-3  # the lesson's first Adam update moves each weight by about lr = 1e-3
    except Exception:  # noqa: BLE001 - a student's step may return anything
        return None


#: The calls a traced step's operations run inside of, rather than one by one.
_COMPILED_CALLS = ("pjit", "jit", "closed_call")


def _ops_outside_jit(step_fn, *args):
    """How many operations of ``step_fn``'s program (traced, not run) are outside any jax.jit-compiled call (0 for
    a plain function that calls one jitted step, many for one that jits some pieces and runs the rest op by op),
    and its matrix products: ``{"all": n, "compiled": k, "calls": [...]}``, the k of them inside jitted calls of
    the step and those calls' names (the lesson's step runs all its products op by op; jax's own functions that
    it calls jitted hold none). (None, None) when it cannot be traced."""
    try:
        program = jax.make_jaxpr(step_fn)(*args)
    except Exception:  # noqa: BLE001 - a step that cannot be traced is told by its speed alone
        return None, None
    outside, products = 0, {"all": 0, "compiled": 0, "calls": []}
    for eqn in program.jaxpr.eqns:
        if eqn.primitive.name not in _COMPILED_CALLS:
            outside += 1
            products["all"] += eqn.primitive.name == "dot_general"
            continue
        compiled = sum(inner.primitive.name == "dot_general" for inner in inside(eqn))
        products["all"] += compiled
        products["compiled"] += compiled
        name = str(eqn.params.get("name", eqn.primitive.name))
        if compiled and name not in products["calls"] and len(products["calls"]) < 4:
            products["calls"].append(name)
    return outside, products


def _default_speedup_steps(m):
    """The n_steps jit_speedup() passes to time_steps with its own n_steps left out, read from a time_steps that
    times nothing (so no step runs)."""
    own, passed, deleted = m.time_steps, [], []

    def counting_time_steps(step_fn, params, opt_state, x, y, n_steps=100):
        passed.append(int(n_steps) if np.size(n_steps) == 1 else -1)
        # arrays given this second call that an earlier run deleted (donated to a jitted step, kept in a cache)
        deleted.extend(name for name, value in (("params", params), ("opt_state", opt_state), ("x", x), ("y", y))
                       if _any_deleted(value) and name not in deleted)
        return 1.0

    m.time_steps = counting_time_steps
    try:
        m.jit_speedup()
    finally:
        m.time_steps = own
    return {"n_steps": passed[:MAX_CALLS_SHOWN], "deleted": deleted}


def _any_deleted(tree) -> bool:
    """Some jax.Array in ``tree`` has had its buffer deleted (donated to a jitted call, or deleted by hand)."""
    try:
        return any(leaf.is_deleted() for leaf in jax.tree_util.tree_leaves(tree) if isinstance(leaf, jax.Array))
    except Exception:  # noqa: BLE001 - whatever the student passed, reading it must not fail the observation
        return False


class _Watched:
    """``step_fn`` as time_steps is given it, keeping its first call's params in and result out (compared once the
    timing is done, so no wait is added to it); every attribute (``lower``, ...) is step_fn's own."""

    def __init__(self, step_fn):
        self._step_fn, self.first = step_fn, []

    def __call__(self, *args, **kwargs):
        out = self._step_fn(*args, **kwargs)
        if not self.first:
            self.first.append((args[0] if args else None, out))
        return out

    def __getattr__(self, name):
        return getattr(self._step_fn, name)


def _params_moved(given, returned) -> bool | None:
    """The step's first call returned other params than it was given (a training step moves them); None when
    that cannot be read (not a (params, opt_state, loss) result, or values that are not arrays)."""
    try:
        before, after = jax.tree.leaves(given), jax.tree.leaves(returned[0])
        if not before or len(before) != len(after):
            return None
        return any(not np.array_equal(np.asarray(a), np.asarray(b)) for a, b in zip(before, after))
    except Exception:  # noqa: BLE001 - a student's step may return anything
        return None


def _number(value) -> float | None:
    """``value`` as a float when it is one number (not text that reads as one); None otherwise."""
    if isinstance(value, (str, bytes)):
        return None
    try:
        return float(value) if np.size(value) == 1 else None
    except (TypeError, ValueError, OverflowError):
        return None


def _shown(value) -> str:
    """What a value that is not one number is, for the message: its type and a short repr."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a student's object whose repr fails is still shown by its type
        text = "?"
    return f"a {type(value).__name__} {text[:40]}"


def _runs_compiled(step_fn, jit_disabled: bool) -> bool:
    """The step runs as one compiled program: a jax.jit-wrapped function while jit is on (``jax.disable_jit()``
    runs it op by op), or a step compiled ahead of time (``jax.jit(f).lower(...).compile()``)."""
    import jax

    if isinstance(step_fn, jax.stages.Compiled):
        return True
    return hasattr(step_fn, "lower") and not jit_disabled


def _jit_disabled() -> bool:
    """``jax.disable_jit()`` is on here and now."""
    import jax

    try:
        return bool(jax.config.jax_disable_jit)
    except AttributeError:  # where the option is not read through jax.config
        from jax._src import config

        return bool(config.disable_jit.value)


def _lesson_shaped(params):
    """True when ``params`` has the lesson MLP's first layer (784 -> 256)."""
    try:
        return tuple(np.shape(params["layer1"]["w"])) == (784, 256)
    except (KeyError, TypeError, IndexError):
        return False


def prepare(inputs, options):
    """Before the submission is imported (so ``from jax import device_put`` gets it too): ``jax.device_put`` passes
    the stand-in results through, for this child's run only (once: a process observing several runs wraps it once)."""
    if not getattr(jax.device_put, "passes_stand_ins", False):
        jax.device_put = _placing_stand_ins(jax.device_put)


def probe(rec, modules, inputs, options):
    m = modules["ex4_jit_speedup"]
    costs = inputs["ex4"]
    rec.record("time/compile", lambda: _time(m, COMPILE_DELAY, 0.0, RUN_STEPS["time/compile"]))
    rec.record("time/async", lambda: _time(m, 0.0, float(costs["async_cost"]), RUN_STEPS["time/async"]))
    calls_made = {}
    rec.record("time/count", lambda: _time(m, 0.0, float(costs["count_cost"]), RUN_STEPS["time/count"],
                                                 calls_made=calls_made))
    if calls_made:  # time_steps gave its results to JAX code instead of waiting: the calls it made before that
        rec.record("time/count/calls", lambda: dict(calls_made))
    rec.record("time/uneven", lambda: _time(m, 0.0, 0.0, RUN_STEPS["time/uneven"], costs=UNEVEN_COSTS))
    rec.record("time/host", lambda: _time(m, 0.0, HOST_QUEUED, RUN_STEPS["time/host"], host_wait=HOST_WAIT))
    rec.record("time/default", lambda: _default_n_steps(m))
    rec.record("time/one", lambda: _time(m, ONE_STEP_DELAY, float(costs["count_cost"]), RUN_STEPS["time/one"]))
    rec.record("time/scalar_params", lambda: _scalar_params(m))
    rec.record("time/instant", lambda: _instant(m))  # calls that take microseconds: a floor or an added time shows
    rec.record("time/repeat", lambda: _calls_of(m, 2, REPEAT_STEPS))
    rec.record("time/many", lambda: _calls_of(m, 1, MANY_STEPS))
    batches, plain_ops = [], []
    rec.record("speedup", lambda: _speedup(m, batches, plain_ops))
    rec.record("speedup/batches", lambda: batches)
    # the most operations a plain step ran outside compiled calls: on the reference, its training step run op by op
    # (counted, not timed, so it holds on any machine)
    rec.record("speedup/plain_ops", lambda: {"ops": max(plain_ops, default=0)})
    rec.record("speedup/default_n_steps", lambda: _default_speedup_steps(m))

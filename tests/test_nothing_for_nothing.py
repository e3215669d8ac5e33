"""Nothing for nothing: answers that compute nothing score 0 in ex2, ex4, ex5 and accuracy at a secret seed.

Each submission below is the stub of one exercise with answers appended that
a student who has read the grader could write without computing the answer:
well-shaped zeros, constants, the public outputs, or the labels of the MNIST
sample the wheel ships. Graded on inputs drawn from a secret seed, each must
score 0 in its exercise. What would earn each check's points without the
work, and what stops it:

ex2 (per-example gradients)
    ``shapes``: zeros shaped like params with a batch axis -> paid only once
    some batch's values agree. ``values``: zeros -> compared with the
    reference. ``vectorised``, ``jit``, ``params_unchanged``: any function
    that ignores its inputs has these properties -> judged only once
    ``values`` earns credit. ``norms``: zeros of shape (B,) -> compared with
    the reference. ``largest``: the argmax of the student's own zero norms
    (0), or the public standout index (B // 2) -> judged against the
    reference only, on three batches whose standout the seed places; the
    type earns its part only with the right index.
ex4 (timing)
    ``n_steps``, ``excludes_compile``, ``waits_for_results``,
    ``returns_float``: a ``time_steps`` that makes the right calls but
    returns a constant, or n_steps times the public cost per call -> the
    costs are drawn from the seed and ``n_steps`` pays nothing for a time
    that follows no clock; the others are judged only once it earns credit. A
    ``time_steps`` that makes the right calls and then raises what JAX raises
    when given the stand-in results -> the calls are described, and nothing
    is paid without a time.
    ``speedup_dict``, ``jit_faster``: constants -> eager_s and jit_s must be
    what ``time_steps`` returned for the lesson's step without and with jit.
ex5 (clipping)
    ``chain``, ``hyperparams``: an optimizer whose updates are zeros ->
    compared with the reference's updates. ``step_values``,
    ``uses_given_optimizer``: a jitted step that returns what it was given ->
    compared with the reference's step. ``jitted``, ``params_unchanged``: a
    jitted no-op has both -> judged only once ``step_values`` earns credit.
accuracy
    ``threshold``: test labels looked up from a table of the shipped
    sample's images, by hash -> under a seed the pixels and the classes are
    permuted secretly, so no image is in the table (on the public inputs the
    same table scores 100%, which shows the test can fail); the labels found
    in the process's own frames and objects -> the child never holds the
    test labels: it returns logits and the parent scores them.

The judged observations are made in this process (as in ``test_seeds.py``),
except the frame-reading ``mlp_forward``, which must run in a real child to
see what a child holds. Beside them: correct timers keep full marks at the
same seed, and ex4's timer classes (constant, wrong unit, per-step, off by
one, waiting on an earlier result) are told apart on recorded observations;
the same classes run end to end as mutants in ``corpus/mutants/ex4_*``.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from conftest import CORPUS, EXERCISES_DIR, REFERENCE, observe_here, submission_with
from test_seeds import judge, observe

from grader import data as grader_data
from grader import inputs as grader_inputs
from grader.observations import Observations

SECRET = 31337
pytestmark = pytest.mark.usefixtures("compilation_cache")  # observed in this process: see conftest

EX2_ZEROS = '''
import jax
import jax.numpy as jnp


def per_example_grads(params, x, y):
    return jax.tree.map(lambda leaf: jnp.zeros((x.shape[0], *leaf.shape), jnp.float32), params)


def per_example_grad_norms(grads):
    return jnp.zeros(jax.tree.leaves(grads)[0].shape[0], jnp.float32)


def largest_gradient_example(params, x, y):
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
'''
EX2_CONSTANTS = '''
import jax
import jax.numpy as jnp


def per_example_grads(params, x, y):
    return jax.tree.map(lambda leaf: jnp.full((x.shape[0], *leaf.shape), 1e-3, jnp.float32), params)


def per_example_grad_norms(grads):
    return jnp.ones(jax.tree.leaves(grads)[0].shape[0], jnp.float32)


def largest_gradient_example(params, x, y):
    return x.shape[0] // 2  # where the public inputs put the standout example
'''
EX4_CONSTANTS = '''
import jax


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return 0.25


def jit_speedup(n_steps=100):
    return {"eager_s": 2.0, "jit_s": 0.25, "speedup": 8.0}
'''
EX4_PUBLIC_COST = '''
import jax

_RUNS = []


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    _RUNS.append(n_steps)
    if n_steps == 10:  # the run of ten calls of unequal cost
        return 0.05 + 8 * 0.005 + 0.07 + 10 * 0.004
    return n_steps * (0.06 if n_steps == 3 else 0.04)  # the public costs per call


def jit_speedup(n_steps=100):
    eager_s, jit_s = n_steps * 0.01, n_steps * 0.001
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
'''
EX4_RAISES_AFTER_CALLS = '''
import jax


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    # what JAX raises when given the grader's stand-in results: the right calls, and no time at all
    raise TypeError("Argument of type Pending is not a valid JAX type")


def jit_speedup(n_steps=100):
    return {"eager_s": 2.0, "jit_s": 0.25, "speedup": 8.0}
'''
EX5_NO_OP = '''
import jax
import jax.numpy as jnp
import optax


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return optax.set_to_zero()


def make_train_step(optimizer):
    return jax.jit(lambda params, opt_state, x, y: (params, opt_state, jnp.float32(0.0)))
'''


def _stub_with(module: str, answers: str) -> str:
    return (EXERCISES_DIR / f"{module}.py").read_text() + "\n\n# answers that compute nothing\n" + answers


def _score(results: dict, exercise: str) -> tuple[float, list]:
    mine = [r for r in results.values() if r.exercise == exercise]
    assert mine
    return sum(r.score for r in mine), [(r.id, r.status, r.score) for r in mine if r.score]


@pytest.mark.parametrize("task,module,answers", [
    ("ex2", "ex2_per_example_grads", None),
    ("ex2", "ex2_per_example_grads", EX2_ZEROS),
    ("ex2", "ex2_per_example_grads", EX2_CONSTANTS),
    ("ex4", "ex4_jit_speedup", None),
    ("ex4", "ex4_jit_speedup", EX4_CONSTANTS),
    ("ex4", "ex4_jit_speedup", EX4_PUBLIC_COST),
    ("ex4", "ex4_jit_speedup", EX4_RAISES_AFTER_CALLS),
    ("ex5", "ex5_clipping", None),
    ("ex5", "ex5_clipping", EX5_NO_OP),
], ids=["ex2-stub", "ex2-zeros", "ex2-constants", "ex4-stub", "ex4-constants", "ex4-public-cost",
        "ex4-right-calls-then-raises", "ex5-stub", "ex5-jitted-no-op"])
def test_answers_that_compute_nothing_score_zero_at_a_secret_seed(task, module, answers, tmp_path,
                                                                   tmp_path_factory):
    folder = submission_with(tmp_path, {module: _stub_with(module, answers) if answers else EXERCISES_DIR /
                                        f"{module}.py"})
    got = observe(task, folder, SECRET, tmp_path_factory)
    # ex4's judges read nothing of the reference's but the speed it measured, shown as a comparison
    reference = Observations() if task == "ex4" else observe(task, REFERENCE, SECRET, tmp_path_factory)
    score, earning = _score(judge(task, got, reference, SECRET), task)
    assert score == 0, earning


@pytest.mark.parametrize("variant", ["reference", "ex4_jit_speedup__discarded_warmup", "ex4_jit_speedup__time_time"])
def test_correct_timers_keep_full_marks_at_a_secret_seed(variant, tmp_path, tmp_path_factory):
    """The same judges, on timers that measure: nothing above is paid for by marking honest work down."""
    folder = REFERENCE if variant == "reference" else submission_with(
        tmp_path, {"ex4_jit_speedup": CORPUS / "correct" / f"{variant}.py"})
    results = judge("ex4", observe("ex4", folder, SECRET, tmp_path_factory), Observations(), SECRET)
    assert [(r.id, r.status, r.message[:300]) for r in results.values() if r.status != "pass"] == []


def test_ex4_public_cost_formula_passes_on_the_public_inputs_only(tmp_path, tmp_path_factory):
    """The formula above is right on the public inputs (so the test above can fail), not on secret ones.

    The formula is the calls' known cost; on a loaded machine the calls take longer than they cost and a fixed
    time falls short of them, so it is observed up to three times and must pass once."""
    folder = submission_with(tmp_path, {"ex4_jit_speedup": _stub_with("ex4_jit_speedup", EX4_PUBLIC_COST)})
    seen = []
    for attempt in range(3):  # each a fresh observation (observe() keeps its first)
        tmp = tmp_path_factory.mktemp(f"public-cost-{attempt}")
        observed = observe_here("ex4", folder, grader_inputs.write(tmp / "inputs.npz", None), tmp).observations
        results = judge("ex4", observed, Observations(), None)
        seen.append({c: (results[c].status, results[c].message[:200])
                     for c in ("ex4.n_steps", "ex4.waits_for_results")})
        if all(status == "pass" for status, _ in seen[-1].values()):
            break
    else:
        raise AssertionError(f"the public-cost formula never passed on the public inputs: {seen}")


def _label_table() -> dict[str, int]:
    """Image hash -> label for every image of the MNIST sample the wheel ships."""
    images, labels = grader_data._embedded_arrays()
    return {hashlib.sha1(row.tobytes()).hexdigest()[:16]: int(label) for row, label in zip(images, labels)}


def _table_forward(table: dict[str, int]) -> str:
    return f'''
import hashlib

import numpy as np
import jax.numpy as jnp

TABLE = {table!r}


def mlp_forward(params, x):
    pixels = np.round(np.asarray(x) * 255).astype(np.uint8)
    labels = [TABLE.get(hashlib.sha1(row.tobytes()).hexdigest()[:16], 0) for row in pixels]
    return jnp.asarray(np.eye(10, dtype=np.float32)[labels])
'''


def test_a_table_of_the_shipped_labels_scores_on_public_inputs_and_zero_at_a_secret_seed(tmp_path,
                                                                                          tmp_path_factory):
    folder = submission_with(tmp_path, {"ex3_mlp_forward": _stub_with("ex3_mlp_forward",
                                                                      _table_forward(_label_table()))})
    public = judge("accuracy", observe("accuracy", folder, None, tmp_path_factory), Observations(), None)
    assert public["accuracy.threshold"].status == "pass", public["accuracy.threshold"].message
    secret = judge("accuracy", observe("accuracy", folder, SECRET, tmp_path_factory), Observations(), SECRET)
    assert secret["accuracy.threshold"].score == 0, secret["accuracy.threshold"].message


FRAME_READER = '''
import gc
import sys

import numpy as np
import jax.numpy as jnp


def _labels_near(n):
    """Any integer array of n labels 0..9 in the frames above, or anywhere among the live objects."""
    frame, seen = sys._getframe(1), []
    while frame is not None:
        seen.extend(frame.f_locals.values())
        frame = frame.f_back
    seen.extend(gc.get_objects())
    for obj in seen:
        candidates = [obj] + (list(obj) if isinstance(obj, tuple) else []) + \\
            (list(obj.values()) if isinstance(obj, dict) else [])
        for value in candidates:
            if isinstance(value, np.ndarray) and value.shape == (n,) and value.dtype.kind in "iu" \\
                    and value.size and value.min() >= 0 and value.max() <= 9:
                return value
    return np.zeros(n, np.int64)


def mlp_forward(params, x):
    return jnp.asarray(np.eye(10, dtype=np.float32)[_labels_near(x.shape[0])])
'''


@pytest.mark.e2e
def test_labels_are_not_in_the_child_for_a_forward_that_reads_its_frames(tmp_path, grade_with):
    folder = submission_with(tmp_path, {"ex3_mlp_forward": _stub_with("ex3_mlp_forward", FRAME_READER)})
    report = grade_with(folder, only=("accuracy",), seed=SECRET)
    (check,) = [c for c in report.checks if c.exercise == "accuracy"]
    assert report.runs["accuracy"].status == "ok", report.runs["accuracy"]
    assert check.score == 0, check.message


class _Recorded:
    """A judge context over recorded observations (the parent's view, no child)."""

    def __init__(self, observations: dict):
        self.observations = observations
        self.student = self

    def got(self, name):
        return self.observations[name]

    def has(self, name):
        return name in self.observations


def _timed_run(seconds: float, n: int, cost: float, waited: list[int] | None = None, calls: int | None = None) -> dict:
    calls = n + 1 if calls is None else calls
    # the first call queues nothing; each later one `cost` s, back to back
    to_last = [cost * (calls - 1 - max(0, k - 1)) for k in range(calls)]
    return {"seconds": seconds, "n_steps": n, "cost": cost, "calls": calls, "to_last": to_last,
            "waited": list(range(calls + 1)) if waited is None else waited, "last": calls, "sync": 0.002 * n,
            "wall": cost * n}


@pytest.mark.parametrize("returned,kind", [
    (lambda t: t, "ok"),
    (lambda t: 0.25, "not_measured"),  # a constant: the same whatever the costs
    (lambda t: t * 1000, "unit"),  # milliseconds
    (lambda t: t / 60, "unit"),  # minutes
    (lambda t: t / 3 if t < 0.2 else t / 6, "per_step"),
    (lambda t: t * 2 / 3 if t < 0.2 else t * 5 / 6, "off_by_one"),  # the clock started a call late
])
def test_ex4_timer_classes_are_told_apart_from_the_known_costs(returned, kind):
    from grader.exercises.ex4 import checks as ex4

    first, second = 3 * 0.06, 6 * 0.04
    observations = {
        "time/async": _timed_run(returned(first), 3, 0.06),
        "time/count": _timed_run(returned(second), 6, 0.04),
        "time/compile": _timed_run(returned(0.004), 3, 0.0),
        # calls that each wait 30 ms on the host and queue 5 ms: 35 ms a call, as every timer above sees it
        "time/host": _timed_run(returned(3 * 0.035), 3, 0.035),
    }
    assert ex4.timing(_Recorded(observations)).kind == kind


def test_ex4_a_clock_around_the_wait_alone_is_told_by_calls_that_spend_their_time_on_the_host():
    from grader.exercises.ex4 import checks as ex4

    observations = {  # a little short where queued work takes the time; far short where the host calls do
        "time/async": _timed_run(0.92 * 3 * 0.06, 3, 0.06),
        "time/count": _timed_run(0.92 * 6 * 0.04, 6, 0.04),
        "time/compile": _timed_run(0.001, 3, 0.0),
        "time/host": _timed_run(3 * 0.005, 3, 0.035),
    }
    measured = ex4.timing(_Recorded(observations))
    assert measured.kind == "only_wait" and "the calls themselves were not timed" in measured.message
    observations["time/host"] = _timed_run(3 * 0.035, 3, 0.035)  # the calls timed too: not this class
    assert ex4.timing(_Recorded(observations)).kind != "only_wait"


def test_ex4_waiting_on_an_earlier_result_is_named_not_taken_for_a_per_step_time():
    from grader.exercises.ex4 import checks as ex4

    observations = {  # waited on call 1 of 3 (and 1 of 6): the first timed result, 1/n_steps of the work in
        "time/async": _timed_run(0.06, 3, 0.06, waited=[0, 1]),
        "time/count": _timed_run(0.04, 6, 0.04, waited=[0, 1]),
        "time/compile": _timed_run(0.004, 3, 0.0),
    }
    assert ex4.timing(_Recorded(observations)).kind == "earlier"


@pytest.mark.parametrize("share,kind", [
    (1.0, "wait_after_clock"),  # a wall clock read as the last call returned, the results waited for after it
    (0.5, "cpu_clock"),  # the calls' CPU time only: half the time they took to return
])
def test_ex4_a_cpu_clock_is_told_from_a_clock_read_before_the_wait(share, kind):
    from grader.exercises.ex4 import checks as ex4

    def run(n, cost):
        obs = _timed_run(0.0, n, cost)
        # each call spends 2 ms on the CPU and 2 ms off it before it returns
        obs["to_return"] = [0.004 * (obs["calls"] - max(0, k - 1) - 1) for k in range(obs["calls"])]
        obs["seconds"] = share * 0.004 * n
        return obs

    observations = {"time/async": run(3, 0.06), "time/count": run(6, 0.04), "time/compile": _timed_run(0.004, 3, 0.0)}
    assert ex4.timing(_Recorded(observations)).kind == kind

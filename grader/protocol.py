"""Constants shared by the probes (child side) and the checks (parent side).

Kept free of jax so the judging parent never imports it.
"""

from __future__ import annotations

from typing import Any

import numpy as np


#: Dropout rates at which ex1's dropout is observed.
EX1_RATES = (0.1, 0.25, 0.5, 0.8)

#: The ex2 batches largest_gradient_example is asked about: in each one example stands out, at a position
#: drawn from the seed, so a constant index is right on all of them about once in 640 seeds.
EX2_LARGEST_CASES = ("small", "lesson", "vec16")

#: ex4's instrumented steps: a first call this slow (like compilation) ...
EX4_COMPILE_DELAY = 0.6
#: ... every call this much CPU time before it returns (like dispatching) ...
EX4_SYNC_COST = 0.002
#: ... and then this much wall time off the CPU before it returns (like waiting on the host), which a CPU clock
#: does not count and a wall clock read before the wait does.
EX4_SYNC_WAIT = 0.002
#: ... and queued work per call finished later (like async dispatch): its cost per call is an input
#: (grader/inputs.py, drawn from the seed), these are the public costs.
EX4_ASYNC_COST = 0.06
EX4_COUNT_COST = 0.04
#: n_steps of the two timed runs: different, so a per-step time, a wrong unit and an off-by-one count
#: each leave their own ratio between what was returned and what was known.
EX4_N_STEPS = 3
EX4_COUNT_STEPS = 6
#: n_steps passed to the student's jit_speedup.
EX4_SPEEDUP_STEPS = 20

#: (name, args, kwargs) of the make_optimizer calls observed in ex5.
EX5_OPTIMIZERS = (
    ("default", (), {}),
    ("custom", (), {"learning_rate": 0.01, "max_norm": 0.3}),
    ("positional", (0.05, 5.0), {}),
)
#: The step of ex5's gradient sequence whose norm spikes.
EX5_SPIKE_STEP = 3
EX5_SGD_LR = 0.1
#: Steps of clip+Adam chained in ex5 (each given the params and state the previous returned).
EX5_CHAINED_STEPS = 3

#: End-to-end training run by the accuracy task.
ACCURACY_EPOCHS = 8
ACCURACY_BATCH = 128
ACCURACY_DROPOUT = 0.2
ACCURACY_SEED = 0

#: The lesson's own ex2 question: per-example gradients of this many MNIST images (the first of the
#: embedded training split), at the accuracy task's initial params. Observed, shown, never scored.
EX2_LESSON_IMAGES = 32
#: With --plots (or in a notebook), the accuracy task also trains with plain Adam, and once more with the
#: student's optimizer recording each step's gradient norm, to show where clipping was active.
CURVES_OPTION = "plain-adam"

#: The harness writes this to the child's stdout, unbuffered, just before it imports student code. A run that
#: ended without results and without it failed in the grader's own machinery (bad environment, unsupported
#: jax, a harness bug): no student code ran, and none can take back bytes already in the pipe.
STUDENT_CODE_STARTS = "\x1ejax-grader: running the submission\x1e\n"


# ---------------------------------------------------------------------------
# Measurements: small networks whose output shows one property of a forward pass.
#
# The ex3 probe runs the student's mlp_forward on these (numpy only, here where
# the child may read them, so the child and the judge read one definition); the judge compares what came
# back with what each property predicts and words its message from that.

#: Inputs at which a hidden activation is sampled: -3 to 3 in steps of 0.1.
EX3_GRID = np.round(np.arange(-30, 31) / 10.0, 1).astype(np.float32)
_AFFINE_W = np.array([[1.0, 2.0, -1.5], [-0.5, 0.25, 3.0], [2.0, -1.0, 0.5]], np.float32)
_AFFINE_B = np.array([0.5, -1.0, 2.0], np.float32)
_HIDDEN_B = np.array([1.5, -1.5], np.float32)


def _layer(w: Any, b: Any) -> dict[str, np.ndarray]:
    return {"w": np.asarray(w, np.float32), "b": np.asarray(b, np.float32)}


def ex3_measurement_cases() -> dict[str, dict[str, Any]]:
    """``{name: {"params": ..., "x": ...}}``, each a network that isolates one property:

    ``activation``: two 1-unit layers with w = 1, b = 0 on the grid: the output is
    the hidden activation's curve. ``output``: one square layer mapping (x, 0) to
    (x, -x): the output is returned raw, so anything applied to it shows. ``affine``: one
    3x3 layer on x = 0 and the three unit vectors: row 0 is the bias it adds,
    rows 1-3 minus row 0 the weight matrix it applies. ``hidden_bias``: zero
    weights and biases (1.5, -1.5) in the hidden layer, then the identity: the
    output is the activation of that bias.
    """
    grid = EX3_GRID.reshape(-1, 1)
    return {
        "activation": {"params": {"layer1": _layer([[1.0]], [0.0]), "layer2": _layer([[1.0]], [0.0])}, "x": grid},
        "output": {"params": {"layer1": _layer([[1.0, -1.0], [0.0, 0.0]], [0.0, 0.0])},
                   "x": np.concatenate([grid, np.zeros_like(grid)], axis=1)},
        "affine": {"params": {"layer1": _layer(_AFFINE_W, _AFFINE_B)},
                   "x": np.concatenate([np.zeros((1, 3)), np.eye(3)]).astype(np.float32)},
        "hidden_bias": {"params": {"layer1": _layer(np.zeros((2, 2)), _HIDDEN_B), "layer2": _layer(np.eye(2), [0, 0])},
                        "x": np.zeros((1, 2), np.float32)},
    }


def layer_prefix(params: dict[str, Any], k: int) -> dict[str, Any]:
    """The first ``k`` layers of ``params`` (layer1..layerk), listed in that order."""
    return {f"layer{i}": params[f"layer{i}"] for i in range(1, k + 1)}

"""What ex3's probe (child side) and checks (judging side) both read: the measurement networks.

Small networks whose output shows one property of a forward pass: the probe runs the student's mlp_forward
on them; the judge compares what came back with what each property predicts and words its message from that.
Numpy only, so the child and the judge read one definition.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: The networks of 1, 2, 3 and 5 layers the forward pass is checked on (observation ``out/<case>``,
#: inputs ``ex3/<case>``) ...
DEPTH_CASES = ("d1", "d2", "d3", "d5")
#: ... and the one of 12 layers, where layer10 must come after layer9 (also run again, and under jit).
DEEP_CASE = "d12"
#: The 3-layer case is also run with params this many times larger (observation ``measure/large/d3``): a forward
#: pass that caps, clips or normalises weights past some size shows there.
LARGE_SCALE = 10.0

#: Inputs at which a hidden activation is sampled: -3 to 3 in steps of 0.1.
GRID = np.round(np.arange(-30, 31) / 10.0, 1).astype(np.float32)
#: One grid point, given to the activation's network alone: its output must be the one it has in the grid's batch.
ALONE = 2.5
#: Inputs far from 0 for the activation: beyond the grid, where ReLU keeps growing and a capped one does not.
FAR = np.array([-64.0, -8.0, 4.0, 6.0, 8.0, 16.0, 64.0], np.float32)
_AFFINE_W = np.array([[1.0, 2.0, -1.5], [-0.5, 0.25, 3.0], [2.0, -1.0, 0.5]], np.float32)
_AFFINE_B = np.array([0.5, -1.0, 2.0], np.float32)
_HIDDEN_B = np.array([1.5, -1.5], np.float32)
#: The weights and bias of ``narrow``'s one layer, 3 inputs to 2 outputs.
NARROW_W = np.array([[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25]], np.float32)
NARROW_B = np.array([1.5, -2.5], np.float32)


#: The case whose gradient is taken through mlp_forward (of the sum of its outputs): a forward pass that gives
#: the right values can still stop the gradient.
GRAD_CASE = "d3"


#: The ``units`` measurement's two examples: the same first input, another second one.
UNITS_X = ((1.0, 0.0), (1.0, 5.0))


def _layer(w: Any, b: Any) -> dict[str, np.ndarray]:
    return {"w": np.asarray(w, np.float32), "b": np.asarray(b, np.float32)}


def measurement_cases() -> dict[str, dict[str, Any]]:
    """``{name: {"params": ..., "x": ...}}``, each a network that isolates one property:

    ``activation``: two 1-unit layers with w = 1, b = 0 on the grid: the output is
    the hidden activation's curve; ``activation_far``: the same, far from 0 (:data:`FAR`), where a capped
    activation (ReLU6) parts from ReLU; ``alone``: the same network on one grid point (:data:`ALONE`) alone, where
    an output that depends on the other examples of its batch differs from the grid's. ``output``: one square layer mapping (x, 0) to
    (x, -x): the output is returned raw, so anything applied to it shows; ``output_far``: the same, far from 0, where
    an output squashed or capped only there (a soft cap) parts from it. ``affine``: one
    3x3 layer on x = 0 and the three unit vectors: row 0 is the bias it adds,
    rows 1-3 minus row 0 the weight matrix it applies. ``hidden_bias``: zero
    weights and biases (1.5, -1.5) in the hidden layer, then the identity: the
    output is the activation of that bias. ``units``: two hidden units, the identity in both layers, on (1, 0) and
    (1, 5): the first output is 1 in both rows unless a unit's output depends on the other units of its layer.
    ``narrow``: ``affine`` for one layer of 3 inputs and 2 outputs (:data:`NARROW_W`, :data:`NARROW_B`), where
    a layer's widths differ (the other networks' layers are square).
    """
    grid = GRID.reshape(-1, 1)
    return {
        "activation": {"params": {"layer1": _layer([[1.0]], [0.0]), "layer2": _layer([[1.0]], [0.0])}, "x": grid},
        "alone": {"params": {"layer1": _layer([[1.0]], [0.0]), "layer2": _layer([[1.0]], [0.0])},
                  "x": np.array([[ALONE]], np.float32)},
        "activation_far": {"params": {"layer1": _layer([[1.0]], [0.0]), "layer2": _layer([[1.0]], [0.0])},
                           "x": FAR.reshape(-1, 1)},
        "output": {"params": {"layer1": _layer([[1.0, -1.0], [0.0, 0.0]], [0.0, 0.0])},
                   "x": np.concatenate([grid, np.zeros_like(grid)], axis=1)},
        "output_far": {"params": {"layer1": _layer([[1.0, -1.0], [0.0, 0.0]], [0.0, 0.0])},
                       "x": np.stack([FAR, np.zeros_like(FAR)], axis=1)},
        "affine": {"params": {"layer1": _layer(_AFFINE_W, _AFFINE_B)},
                   "x": np.concatenate([np.zeros((1, 3)), np.eye(3)]).astype(np.float32)},
        "hidden_bias": {"params": {"layer1": _layer(np.zeros((2, 2)), _HIDDEN_B), "layer2": _layer(np.eye(2), [0, 0])},
                        "x": np.zeros((1, 2), np.float32)},
        "units": {"params": {"layer1": _layer(np.eye(2), [0, 0]), "layer2": _layer(np.eye(2), [0, 0])},
                  "x": np.array(UNITS_X, np.float32)},
        "narrow": {"params": {"layer1": _layer(NARROW_W, NARROW_B)},
                   "x": np.concatenate([np.zeros((1, 3)), np.eye(3)]).astype(np.float32)},
    }


def layer_prefix(params: dict[str, Any], k: int) -> dict[str, Any]:
    """The first ``k`` layers of ``params`` (layer1..layerk), listed in that order."""
    return {f"layer{i}": params[f"layer{i}"] for i in range(1, k + 1)}


#: The layers of the very deep measurement network (``measure/very_deep``): past 99, so a layer number read from
#: two digits (or sorted as text) shows.
VERY_DEEP = 105


def very_deep_case() -> dict[str, Any]:
    """A network of VERY_DEEP 16-wide layers, each a permutation of its inputs plus a positive bias: every value
    stays positive (ReLU passes it on) and below 7 (where no cap on the logits reaches), and the output depends on
    the order of every layer.
    Numpy, drawn from a fixed generator."""
    rng = np.random.default_rng(105)
    params = {f"layer{i}": {"w": np.eye(16, dtype=np.float32)[rng.permutation(16)],
                            "b": rng.uniform(0.01, 0.05, 16).astype(np.float32)} for i in range(1, VERY_DEEP + 1)}
    return {"params": params, "x": rng.uniform(0.0, 1.0, (6, 16)).astype(np.float32)}


def shared_layer_case() -> dict[str, Any]:
    """Three layers given as one dict object (``measure/shared_layer``, tied weights): ReLU after the first two all
    the same; every value small (no cap on the logits reaches it). Numpy, drawn from a fixed generator; the probe
    keeps the one object when it moves it to the device."""
    rng = np.random.default_rng(3)
    layer = {"w": (rng.standard_normal((16, 16)) * 0.3).astype(np.float32),
             "b": (rng.standard_normal(16) * 0.3).astype(np.float32)}
    return {"params": {"layer1": layer, "layer2": layer, "layer3": layer},
            "x": rng.standard_normal((6, 16)).astype(np.float32)}


#: The case whose params are also run on its first row alone (``measure/one_row``, a batch of one example).
ONE_ROW_CASE = "d5"


def unit_wide_case() -> dict[str, Any]:
    """A 2-layer network whose hidden layer is one unit wide (``measure/unit_wide``): hidden values of shape (B, 1), a
    weight matrix of shape (1, 3). The unit is negative for some rows, so ReLU shows. Numpy, from a fixed generator."""
    rng = np.random.default_rng(1)
    params = {"layer1": {"w": rng.standard_normal((5, 1)).astype(np.float32),
                         "b": np.array([0.2], np.float32)},
              "layer2": {"w": rng.standard_normal((1, 3)).astype(np.float32),
                         "b": rng.standard_normal(3).astype(np.float32)}}
    return {"params": params, "x": rng.standard_normal((4, 5)).astype(np.float32)}


#: ``measure/middle_shuffled``: the DEEP_CASE's layers listed with the first and the last in place and the others
#: out of order (layer1, then these, then the last): code that checks the order by its ends alone runs the dict's.
MIDDLE_ORDER = (7, 3, 10, 2, 5, 11, 4, 9, 6, 8)


def middle_shuffled(params: dict) -> dict:
    """``params`` (the DEEP_CASE's, layer1..layer12) listed as layer1, MIDDLE_ORDER's layers, then the last."""
    last = f"layer{len(params)}"
    names = ["layer1", *(f"layer{k}" for k in MIDDLE_ORDER), last]
    return {name: params[name] for name in names}


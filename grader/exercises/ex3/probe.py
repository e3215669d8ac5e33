"""Exercise 3 observations: the forward pass at several depths and widths, and measurements.

The measurements (``measure/...``) run mlp_forward on small networks that each
isolate one property (the hidden activation's curve, what happens to the
output, the bias and weights of one layer; see
``grader.exercises.ex3.shared.measurement_cases``) and on the first k layers of the
12-layer case, k = 1..12, so the judge can say which layer first differs and
how, and call it once with its two arguments the other way round
(``measure/swapped/d3``, kept only when that call returns an array), and take the gradient of the
sum of its outputs through it (``measure/grad/d3``). They earn no points: they only word the messages.
"""

import jax
import jax.numpy as jnp

from grader.exercises.ex3.shared import DEEP_CASE, GRAD_CASE, LARGE_SCALE
from grader.exercises.ex3.shared import layer_prefix as prefix
from grader.exercises.ex3.shared import (ONE_ROW_CASE, measurement_cases, middle_shuffled, shared_layer_case,
                                         unit_wide_case, very_deep_case)
from grader.harness.compiled import compiled_or_eager
from grader.harness.probe_tools import as_jax, no_leaks, snapshot


def probe(rec, modules, inputs, options):
    m = modules["ex3_mlp_forward"]
    data = as_jax(inputs["ex3"])
    # The 2-layer case first of all, and again last, each on its own copy of the params dicts (a call that changes
    # them is charged on the graded calls): what is kept from one call to the next shows between them.
    # (a first call runs op by op, and says whether mlp_forward keeps anything: see compiled_or_eager)
    rec.record("first/d2", lambda: compiled_or_eager(m.mlp_forward, jax.tree.map(lambda a: a, data["d2"]["params"]),
                                                     data["d2"]["x"]))
    for case, c in data.items():
        rec.record(f"out/{case}", lambda c=c: m.mlp_forward(c["params"], c["x"]))
    deep = data[DEEP_CASE]
    rec.record(f"again/{DEEP_CASE}", lambda: m.mlp_forward(deep["params"], deep["x"]))
    d3 = data["d3"]  # params of the same shapes as an earlier call's, other values: a result kept from it shows
    rec.record("other_params/d3", lambda: m.mlp_forward(jax.tree.map(lambda a: a * 1.5, d3["params"]), d3["x"]))
    # ... and with params LARGE_SCALE times larger: what only large weights trigger (a cap, a clip) shows
    rec.record("measure/large/d3", lambda: m.mlp_forward(jax.tree.map(lambda a: a * LARGE_SCALE, d3["params"]),
                                                         d3["x"]))
    rec.record(f"jit/{DEEP_CASE}", lambda: no_leaks(jax.jit(m.mlp_forward), deep["params"], deep["x"]))
    rec.record("jit/d5", lambda: no_leaks(jax.jit(m.mlp_forward), data["d5"]["params"], data["d5"]["x"]))
    for case, c in data.items():
        rec.record(f"input/params_after/{case}", lambda c=c: snapshot(c["params"]))
    # the 2-layer case on as many rows as its last layer has inputs, on a copy of its params: the output then has
    # the last weight matrix's shape, and a jax.jit that donates params may reuse (and delete) the caller's arrays
    d2, own = data["d2"], jax.tree.map(jnp.array, data["d2"]["params"])
    rows = own["layer2"]["w"].shape[0]  # d2's last layer
    rec.record("measure/square_batch", lambda: m.mlp_forward(own, d2["x"][:rows]))
    rec.record("input/params_after/square_batch", lambda: snapshot(own))
    # eagerly, on a dict listing the keys as jax.jit does (sorted as text): tells an answer that follows the listing
    rec.record(f"measure/listed_as_jit/{DEEP_CASE}",
               lambda: m.mlp_forward({name: deep["params"][name] for name in sorted(deep["params"])}, deep["x"]))
    for name, c in as_jax(measurement_cases()).items():
        rec.record(f"measure/{name}", lambda c=c: m.mlp_forward(c["params"], c["x"]))
    try:  # the arguments the other way round: recorded only when that works, as a right answer fails so
        swapped = m.mlp_forward(data["d3"]["x"], data["d3"]["params"])
    except BaseException:  # noqa: BLE001 - a measurement that fails measures nothing (as in Recorder.record)
        swapped = None
    if isinstance(swapped, jax.Array):
        rec.record("measure/swapped/d3", lambda: swapped)
    g = data[GRAD_CASE]
    # the sum of the outputs, through the student's forward pass: the fewest operations a gradient needs
    rec.record(f"measure/grad/{GRAD_CASE}", lambda: compiled_or_eager(
        jax.grad(lambda p: jnp.sum(m.mlp_forward(p, g["x"]))), g["params"], owners=(m.mlp_forward,)))
    for k in range(1, len(deep["params"]) + 1):
        rec.record(f"measure/prefix{k}", lambda k=k: m.mlp_forward(prefix(deep["params"], k), deep["x"]))
    one = data[ONE_ROW_CASE]  # a batch of one example (sliced on the host), and a layer one unit wide
    rec.record("measure/one_row", lambda: m.mlp_forward(one["params"], jnp.asarray(inputs["ex3"][ONE_ROW_CASE]["x"][:1])))
    unit_wide = as_jax(unit_wide_case())
    rec.record("measure/unit_wide", lambda: m.mlp_forward(unit_wide["params"], unit_wide["x"]))
    shuffled = middle_shuffled(as_jax(inputs["ex3"][DEEP_CASE]["params"]))  # fresh: earlier calls touch none of it
    rec.record("measure/middle_shuffled", lambda: m.mlp_forward(shuffled, deep["x"]))
    very_deep = as_jax(very_deep_case())
    rec.record("measure/very_deep", lambda: m.mlp_forward(very_deep["params"], very_deep["x"]))
    tied = shared_layer_case()
    layer = as_jax(tied["params"]["layer1"])  # one object, as given: the layers share it
    rec.record("measure/shared_layer", lambda: m.mlp_forward({name: layer for name in tied["params"]},
                                                             jnp.asarray(tied["x"])))
    rec.record("last/d2", lambda: m.mlp_forward(jax.tree.map(lambda a: a, data["d2"]["params"]), data["d2"]["x"]))

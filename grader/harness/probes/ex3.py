"""Exercise 3 observations: the forward pass at several depths and widths."""

import jax

from grader.harness.probes._common import as_jax, no_leaks, snapshot


def probe(rec, modules, inputs, options):
    m = modules["ex3_mlp_forward"]
    data = as_jax(inputs["ex3"])
    for case, c in data.items():
        rec.record(f"out/{case}", lambda c=c: m.mlp_forward(c["params"], c["x"]))
    deep = data["d12"]
    rec.record("again/d12", lambda: m.mlp_forward(deep["params"], deep["x"]))
    rec.record("jit/d12", lambda: no_leaks(jax.jit(m.mlp_forward), deep["params"], deep["x"]))
    rec.record("jit/d5", lambda: no_leaks(jax.jit(m.mlp_forward), data["d5"]["params"], data["d5"]["x"]))
    for case, c in data.items():
        rec.record(f"input/params_after/{case}", lambda c=c: snapshot(c["params"]))

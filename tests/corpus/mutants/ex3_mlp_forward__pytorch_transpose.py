"""x @ w.T, as with PyTorch's Linear weights: here w is (in, out), so only square layers even run.

The 1- to 5-layer cases raise (their shapes do not fit); the 12 equal-width
layers run, with transposed weights, and that answer names the mistake in
ex3.depths. The 12 layers run in numeric order, so ex3.deep passes. Nothing
returns where depths is judged, so the checks gated on it are skipped.
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.weights_transposed", "hint": "transposed", "max_failing": 1,
          "also": ["ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"].T + params[name]["b"])
    return x @ params[names[-1]]["w"].T + params[names[-1]]["b"]

"""A ReLU applied to the input before the first layer (and after each hidden layer, as it should be).

Every case differs, depth 1 included, so ex3.depths earns nothing and the
checks gated on it ([requires]) are skipped. The 12 layers still run in
numeric order, so ex3.deep passes: the mistake is charged once, in ex3.depths.
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.relu_on_input", "hint": "before the first layer",
          "max_failing": 1, "also": ["ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    x = jax.nn.relu(x)
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]

"""Each layer is written as jnp.einsum("bi,io->io", h, w) + b: the output subscripts keep the inputs axis i and
drop the batch axis b, so the examples are summed and the result is (in, out); the next layer takes those in rows
as if they were examples.
"""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.batch_contracted", "hint": "inputs axis", "max_failing": 1,
          "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(jnp.einsum("bi,io->io", x, params[name]["w"]) + params[name]["b"])
    last = params[names[-1]]
    return jnp.einsum("bi,io->io", x, last["w"]) + last["b"]

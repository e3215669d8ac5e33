# BLIND-SET: mistake
# EXERCISE: ex3
# WHAT: Unpacks each layer with `w, b = params[name].values()`, relying on the inner dict listing 'w' before 'b'. Dicts rebuilt by JAX (under jax.jit, jax.tree.map, after an optax update) list keys sorted, 'b' first, so w and b swap and the matmul fails.
# SHOULD-SAY: ex3 fails under jax.jit and for any params rebuilt by JAX (w/b swapped: shape error); direct calls with {'w':..., 'b':...} literals pass.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        w, b = params[name].values()
        x = jax.nn.relu(x @ w + b)
    w, b = params[names[-1]].values()
    return x @ w + b

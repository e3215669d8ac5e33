# BLIND-SET: 56
# EXERCISE: ex3
# WHAT: The last layer adds `b`, the loop variable left over from a module-level cell that printed the notebook model's layer shapes (`for name, layer in net.items(): w, b = ...`), i.e. the notebook's layer3 bias (zeros of shape (10,)), instead of params[last]["b"]. With 10 outputs the output bias is silently replaced by zeros; with 1 output it broadcasts to 10 columns; with other output widths it raises a shape error.
# SHOULD-SAY: The output layer does not use its own bias: `b` in `h @ last["w"] + b` is the leftover loop variable from your shape-printing cell (the notebook model's layer3 bias), not the layer being applied. Use last["b"] there.
"""Exercise 3: a generic MLP that reads its depth from the params pytree (from my notebook)."""

import jax
import jax.numpy as jnp

# --- cell 1: the lesson's model, to have something to look at ----------------------


def init_params(key, sizes=(784, 256, 128, 10)):
    params = {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
        key, sub = jax.random.split(key)
        params[f"layer{i}"] = {
            "w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
            "b": jnp.zeros(n_out),
        }
    return params


net = init_params(jax.random.PRNGKey(0))
for name, layer in net.items():
    w, b = layer["w"], layer["b"]
    print(name, w.shape, b.shape)


# --- cell 2: generic forward ------------------------------------------------------------


def mlp_forward(params, x):
    order = sorted(params.keys(), key=lambda n: int(n[len("layer"):]))
    h = x
    for n in order[:-1]:
        h = jax.nn.relu(h @ params[n]["w"] + params[n]["b"])
    last = params[order[-1]]
    return h @ last["w"] + b


x_demo = jnp.ones((2, 784))
print(mlp_forward(net, x_demo).shape)

# BLIND-SET: 59
# EXERCISE: ex2
# WHAT: correct: per_example_grads is vmap(grad(single-example loss), in_axes=(None, 0, 0)), with asserts on input and leaf shapes and a Python loop check behind LOOP_CHECK = False. per_example_grad_norms is jnp.sqrt of the summed per-leaf row sums of squares over all leaves. It logs the norms into a module list through jax.debug.callback, which also works under jit. largest_gradient_example blocks on the norms and returns int(jnp.argmax). Grads are bit-identical eagerly and under jit; norms are within 9e-8 relative; the index is a Python int and right at B = 1/3/8/32/100/128.
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp
import numpy as np

# jax.config.update("jax_enable_x64", True)   # used this to compare with float64 numbers
DEBUG = False
LOOP_CHECK = False          # compare against a slow Python loop (only for small B)
_norm_log = []              # every norms array seen, via jax.debug.callback
_counts = {"grads": 0, "norms": 0, "largest": 0}


def _record(norms):
    _norm_log.append(np.asarray(norms).copy())


# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last.

    ``params`` is ``{"layer1": {"w": (784, 256), "b": (256,)}, ...,
    "layer3": {"w": (128, 10), "b": (10,)}}``; ``x`` is float32 ``(B, 784)``.
    """
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, stacked on axis 0."""
    _counts["grads"] += 1
    assert x.ndim == 2 and y.ndim == 1 and x.shape[0] == y.shape[0], (x.shape, y.shape)

    def example_loss(p, xi, yi):
        # xi: (784,), yi: () -> put the batch axis of size 1 back
        return loss_fn(p, xi[None], yi[None])

    grads = jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))(params, x, y)
    # every leaf: (B,) + the param's own shape
    for g, p in zip(jax.tree.leaves(grads), jax.tree.leaves(params)):
        assert g.shape == (x.shape[0],) + p.shape, (g.shape, p.shape)
    if LOOP_CHECK:
        for i in range(min(x.shape[0], 4)):
            gi = jax.grad(loss_fn)(params, x[i:i + 1], y[i:i + 1])
            print(i, [float(jnp.max(jnp.abs(a[i] - b)))
                      for a, b in zip(jax.tree.leaves(grads), jax.tree.leaves(gi))])
    return grads


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient, over every leaf."""
    _counts["norms"] += 1
    leaves = jax.tree.leaves(grads)
    assert all(g.shape[0] == leaves[0].shape[0] for g in leaves), [g.shape for g in leaves]
    per_leaf = [jnp.sum(jnp.square(g.reshape(g.shape[0], -1)), axis=1) for g in leaves]
    norms = jnp.sqrt(sum(per_leaf))
    jax.debug.callback(_record, norms)
    if DEBUG:
        jax.debug.print("norms {n}", n=norms)
    return norms


def largest_gradient_example(params, x, y):
    """Index of the example with the largest gradient norm, as a Python int."""
    _counts["largest"] += 1
    norms = jax.block_until_ready(per_example_grad_norms(per_example_grads(params, x, y)))
    i = int(jnp.argmax(norms))
    # i = int(np.argmax(np.asarray(norms)))   # same
    if DEBUG:
        print(f"example {i} has the largest gradient: {float(norms[i]):.3f} (label {int(y[i])})")
    return i


if __name__ == "__main__":
    key = jax.random.PRNGKey(42)  # fixed, so the "largest" example is the same every run
    k1, k2, k3 = jax.random.split(key, 3)
    sizes = (784, 256, 128, 10)
    params = {}
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
        k1, sub = jax.random.split(k1)
        params[f"layer{i}"] = {"w": jax.random.normal(sub, (a, b)) * jnp.sqrt(2.0 / a), "b": jnp.zeros(b)}
    x = jax.random.normal(k2, (8, 784))
    y = jax.random.randint(k3, (8,), 0, 10)
    print(largest_gradient_example(params, x, y), _counts, _norm_log[-1])

# BLIND-SET: 34
# EXERCISE: ex2
# WHAT: Correct rewrite in the notebook style: the demo params, batch, grads, norms and idx computed at import stay at module level, but every function uses its own arguments. The single-example loss is a module-level helper that differentiates its own `p`; norms are the square root of per-leaf row sums of squares added over leaves; the index is int(np.argmax(...)).
# SHOULD-SAY: Nothing to fix: gradients, norms and the index (a Python int) match; the notebook leftovers are unused by the functions.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import jax
import jax.numpy as jnp
import numpy as np


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- cells pasted from the lesson notebook ------------------------------------
key = jax.random.PRNGKey(0)
key, init_key, x_key, y_key = jax.random.split(key, 4)
params = {}
for i, (n_in, n_out) in enumerate([(784, 256), (256, 128), (128, 10)], start=1):
    init_key, sub = jax.random.split(init_key)
    params[f"layer{i}"] = {
        "w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
        "b": jnp.zeros(n_out),
    }
x = jax.random.normal(x_key, (8, 784))
y = jax.random.randint(y_key, (8,), 0, 10)


def example_loss(p, xi, yi):
    """Loss of one example (batch of one)."""
    return loss_fn(p, xi[None, :], yi[None])


# --- exercise -----------------------------------------------------------------


def per_example_grads(params, x, y):
    """One gradient per example, stacked on a leading axis."""
    grad_one = jax.grad(example_loss)
    return jax.vmap(grad_one, in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    sumsq = 0.0
    for g in jax.tree.leaves(grads):
        sumsq = sumsq + jnp.sum(jnp.square(g.reshape(g.shape[0], -1)), axis=1)
    return jnp.sqrt(sumsq)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(np.argmax(np.asarray(norms)))


# notebook: which demo example pulls hardest?
grads = per_example_grads(params, x, y)
norms = per_example_grad_norms(grads)
idx = largest_gradient_example(params, x, y)

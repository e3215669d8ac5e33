"""per_example_grads keeps its results in a dict keyed by the bytes of x, so a later call with the same images and
other labels (or other params) returns the first call's gradients. Every graded batch is right, each met once; the
report measures the small batch again with its labels moved one class on, and names the gradients as the earlier
call's."""

import jax
import jax.numpy as jnp
import numpy as np
import optax

EXPECT = {"check": "ex2.values", "mistake": "ex2.gradients_kept_from_earlier_call", "max_failing": 1,
          "hint": "cache keyed on x alone"}


_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


_SEEN = {}


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    try:
        key = np.asarray(x).tobytes()
    except Exception:  # traced under jit: no bytes to key on
        key = None
    if key is not None and key in _SEEN:
        return _SEEN[key]
    grads = jax.vmap(jax.grad(lambda p, xi, yi: loss_fn(p, xi[None], yi[None])), in_axes=(None, 0, 0))(params, x, y)
    if key is not None:
        _SEEN[key] = grads
    return grads


def per_example_grad_norms(grads):
    """L2 norm of each example's gradient across every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example with the largest gradient norm, as a Python int."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))

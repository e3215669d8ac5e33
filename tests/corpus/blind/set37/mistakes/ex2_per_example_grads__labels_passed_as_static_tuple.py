# BLIND-SET: 37
# EXERCISE: ex2
# WHAT: per_example_grads converts the labels to a hashable Python tuple and passes them to a jitted kernel as a static argument (one-hot targets baked in as constants); values are right eagerly, but under jax.jit the labels are tracers and the conversion raises (TracerArrayConversionError), so per_example_grads no longer works under jit (and it recompiles for every new label batch).
# SHOULD-SAY: Labels are data, not configuration: making y static forces a host round-trip (np.asarray on the labels), which fails on tracers under jax.jit and recompiles for every batch. Pass y as an ordinary traced argument and build the one-hot inside (jax.nn.one_hot(y, 10)), with vmap in_axes=(None, 0, 0).
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax

# optax.tree.norm is the current name; optax.global_norm is the older one.
_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm

_EYE10 = np.eye(10, dtype=np.float32)


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


@functools.partial(jax.jit, static_argnums=(2,))
def _grads_for_labels(params, x, labels):
    # Labels are static: their one-hot targets become compile-time constants.
    targets = jnp.asarray(_EYE10[list(labels)])

    def single_example_loss(params, xi, ti):
        logits = forward(params, xi[None])
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * ti[None], axis=-1))

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, targets)


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return _grads_for_labels(params, x, tuple(np.asarray(y).tolist()))


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))

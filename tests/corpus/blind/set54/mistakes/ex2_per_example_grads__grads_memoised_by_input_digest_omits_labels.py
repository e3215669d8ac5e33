# BLIND-SET: 54
# EXERCISE: ex2
# WHAT: per_example_grads memoises its result in a module dict keyed by (id(params), x.shape, a hash of x's bytes), so largest_gradient_example and repeated calls skip the vmap; the labels y are not in the key. A second call with the same inputs x but different labels returns the gradients for the first labels, so the gradients, the norms built on them and the index are those of the old labels.
# SHOULD-SAY: Your gradient cache is keyed on the inputs but not on the labels, and the per-example gradient depends on y as well; the same images with new labels get stale gradients. Include y (and the params values) in the key, or drop the cache and rely on jax.jit's compiled-program cache.
"""Exercise 2: per-example gradients with jax.vmap; results reused for repeated batches."""

import hashlib

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

def _loss_one(params, xi, yi):
    return loss_fn(params, xi[None], yi[None])


_vmapped = jax.jit(jax.vmap(jax.grad(_loss_one), in_axes=(None, 0, 0)))

# results of recent batches, so a follow-up call on the same batch is free
_RECENT = {}


def _digest(x):
    return hashlib.blake2b(np.asarray(x).tobytes(), digest_size=16).hexdigest()


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    if isinstance(x, jax.core.Tracer):  # under an outer jit: nothing to cache
        return _vmapped(params, x, y)
    key = (id(params), tuple(x.shape), _digest(x))
    hit = _RECENT.get(key)
    if hit is None:
        if len(_RECENT) > 32:
            _RECENT.clear()
        hit = _RECENT[key] = _vmapped(params, x, y)
    return hit


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    per_leaf = [jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1) for g in jax.tree.leaves(grads)]
    return jnp.sqrt(jnp.sum(jnp.stack(per_leaf), axis=0))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))

# BLIND-SET: 37
# EXERCISE: ex2
# WHAT: largest_gradient_example memoises its answer in a module dict keyed by (id(params), x.shape, sum of x rounded to 2 decimals, sum of y); any batch with the same sums, such as the same examples in a different order, gets the first batch's index back, so for a permuted batch the returned index no longer points at the largest-norm example.
# SHOULD-SAY: The cached index is stale: a sum is not a fingerprint of a batch (it ignores the order of the examples, and unrelated batches can collide), so the function returns an answer computed for other inputs. Compute argmax of the norms on every call (jit per_example_grads and the norms if speed matters) and drop the cache.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import jax
import jax.numpy as jnp
import optax

# optax.tree.norm is the current name; optax.global_norm is the older one.
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


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


# Finding the largest example is the expensive part (B gradients): remember the
# answer for a batch we have already seen with these params.
_LARGEST_SEEN = {}


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    # Sums rounded so that float noise in the reduction does not miss the cache.
    fingerprint = (id(params), tuple(x.shape), round(float(jnp.sum(x)), 2), int(jnp.sum(y)))
    if fingerprint not in _LARGEST_SEEN:
        _LARGEST_SEEN[fingerprint] = int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
    return _LARGEST_SEEN[fingerprint]

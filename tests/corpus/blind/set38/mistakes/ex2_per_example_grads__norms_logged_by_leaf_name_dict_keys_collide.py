# BLIND-SET: 38
# EXERCISE: ex2
# WHAT: per_example_grad_norms collects per-leaf squared norms in a dict keyed by the leaf's own name (path[-1]: "w"/"b"), as for grad_norm/kernel logging, so layer1 and layer2 are overwritten and only layer3's w and b are summed. The norms are too small (about a third of the reference's here) and the argmax index often moves; the gradients themselves are right.
# SHOULD-SAY: Your norms leave out most of the gradient: the dict keyed by leaf name ("w", "b") keeps only one layer's entries, because layer1/layer2 are overwritten by layer3. Sum the squares over every leaf (for example jax.tree.leaves, or the full path as the key) before taking the square root.
"""Exercise 2: per-example gradients with jax.vmap (with my usual CLU-style per-parameter logging)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, stacked on a leading axis."""
    batch = {"image": x, "label": y}

    def example_loss(params, example):
        return loss_fn(params, example["image"][None], example["label"][None])

    return jax.vmap(jax.grad(example_loss), in_axes=(None, {"image": 0, "label": 0}))(params, batch)


def _leaf_name(path):
    last = path[-1]
    return getattr(last, "key", getattr(last, "name", str(last)))


def per_example_grad_sq_norms_by_param(grads):
    """Squared per-example norms per parameter, keyed like my TensorBoard scalars."""
    flat, _ = jax.tree_util.tree_flatten_with_path(grads)
    logs = {}
    for path, g in flat:
        logs[_leaf_name(path)] = jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1)
    return logs


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient over all leaves."""
    return jnp.sqrt(sum(per_example_grad_sq_norms_by_param(grads).values()))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm, as a Python int."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))

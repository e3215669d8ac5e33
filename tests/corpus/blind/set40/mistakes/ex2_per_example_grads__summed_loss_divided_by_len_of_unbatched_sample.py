# BLIND-SET: 40
# EXERCISE: ex2
# WHAT: The per-example loss is written the torch way, `F.cross_entropy(out, target, reduction="sum") / len(sample)`, but inside the vmapped function `sample` is the unbatched (784,) row, so len(sample) is 784, not the batch size 1. Every per-example gradient (every leaf) is 784 times too small, and so are the norms; the argmax index is unchanged.
# SHOULD-SAY: Each per-example gradient is scaled by 1/784: the example loss divides a summed cross-entropy by len(sample), which under vmap is the feature count of one row, not the number of examples. For one example use the plain mean (or divide by the unsqueezed batch's shape[0]).
"""Exercise 2: per-example gradients with jax.vmap (functorch habits)."""

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


def cross_entropy(logits, target, reduction="mean"):
    """torch.nn.functional.cross_entropy on logits with class-index targets."""
    nll = -jnp.sum(jax.nn.log_softmax(logits, axis=-1) * jax.nn.one_hot(target, 10), axis=-1)
    if reduction == "sum":
        return nll.sum()
    if reduction == "mean":
        return nll.mean()
    return nll


def compute_loss(params, sample, target):
    """Loss of one example (the functorch per-sample-grads recipe)."""
    batch = sample[None]  # sample.unsqueeze(0)
    targets = target[None]
    out = forward(params, batch)
    # sum, then normalise by the batch size, as in my torch training loops
    return cross_entropy(out, targets, reduction="sum") / len(sample)


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""
    return jax.vmap(jax.grad(compute_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    leaves = jax.tree.leaves(grads)
    B = leaves[0].shape[0]
    flat = jnp.concatenate([g.reshape(B, -1) for g in leaves], axis=1)  # torch.cat([g.flatten(1) ...], 1)
    return jnp.linalg.norm(flat, axis=1)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    return per_example_grad_norms(per_example_grads(params, x, y)).argmax().item()

# BLIND-SET: 40
# EXERCISE: ex2
# WHAT: per_example_grad_norms picks the reduction dims from each leaf's rank using the rule for unbatched torch parameters ("1-D is a bias: vector norm over dim -1; otherwise a weight: Frobenius norm over dims (-2, -1)"). With the leading batch axis a bias leaf (B, out) has rank 2, so it is reduced over (B, out): each example's squared norm becomes its own weight-gradient energy plus the bias-gradient energy of the whole batch. For B > 1 every norm is too large (the ranking only reflects the weight gradients); at B = 1 the norms are right.
# SHOULD-SAY: The norms are wrong because the bias leaves are reduced over the batch axis too: with per-example gradients every leaf has an extra leading B axis, so choose the dims as everything but axis 0 (or reshape each leaf to (B, -1)) rather than by the torch parameter's rank.
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


def compute_loss(params, sample, target):
    """Loss of one example (the functorch per-sample-grads recipe)."""
    return loss_fn(params, sample[None], target[None])  # unsqueeze(0)


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""
    return jax.vmap(jax.grad(compute_loss), in_axes=(None, 0, 0))(params, x, y)


def _squared_norm(g):
    # torch: weights are 2-D -> matrix (Frobenius) norm, biases are 1-D -> vector norm
    if g.ndim == 1:
        return jnp.linalg.vector_norm(g, axis=-1) ** 2
    return jnp.linalg.matrix_norm(g, ord="fro") ** 2  # over dims (-2, -1)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    total = sum(_squared_norm(g) for g in jax.tree.leaves(grads))
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    return per_example_grad_norms(per_example_grads(params, x, y)).argmax().item()

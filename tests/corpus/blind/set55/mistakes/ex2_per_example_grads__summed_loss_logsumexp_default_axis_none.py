# BLIND-SET: 55
# EXERCISE: ex2
# WHAT: per-example grads use the Opacus-style trick (grad of the summed per-example losses w.r.t. params broadcast to B copies), but the hand-written cross-entropy calls jax.scipy.special.logsumexp(logits) with its default axis=None (as scipy/NumPy reductions default), so the log-normaliser is taken over the whole (B, 10) batch; every per-example gradient (and so the norms; the index may or may not change) is wrong whenever B > 1 (B = 1 happens to be right).
# SHOULD-SAY: The normaliser in your loss is logsumexp over the whole batch because logsumexp defaults to axis=None; use logsumexp(logits, axis=-1, keepdims=True) (or jax.nn.log_softmax) so each example is normalised over its own 10 classes.
"""Exercise 2: per-example gradients via broadcast parameter copies."""

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _summed_losses(stacked, x, y):
    # every example gets its own copy of the parameters: grad of the sum = per-example grads
    logits = jax.vmap(lambda p, xi: forward(p, xi[None])[0])(stacked, x)
    log_probs = logits - logsumexp(logits)
    return -jnp.sum(jnp.take_along_axis(log_probs, y[:, None], axis=1))


def per_example_grads(params, x, y):
    b = x.shape[0]
    stacked = jax.tree_util.tree_map(lambda p: jnp.broadcast_to(p, (b,) + p.shape), params)
    return jax.grad(_summed_losses)(stacked, x, y)


def per_example_grad_norms(grads):
    sq = jax.tree_util.tree_map(lambda g: jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))), grads)
    return jnp.sqrt(jax.tree_util.tree_reduce(jnp.add, sq))


def largest_gradient_example(params, x, y):
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))

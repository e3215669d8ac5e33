# BLIND-SET: 43
# EXERCISE: ex2
# WHAT: the per-example loss is computed in mixed precision: params and the input row are cast to float16, the forward pass runs in float16, the loss is multiplied by a static loss scale of 2**10 and the gradients are divided by it again. The unscaling is exact, but the float16 forward/backward gives gradients that differ from the float32 gradients of loss_fn by ~0.05% on typical entries and by up to ~0.3 absolute where a hidden unit's pre-activation is near zero and flips sign (B = 128), so the per-example gradients and their norms (up to ~4% off) are wrong.
# SHOULD-SAY: the per-example gradients do not match jax.grad(loss_fn) on each example: the loss is evaluated in float16, which keeps only ~3 significant digits. Loss scaling protects small gradients from underflow but does not restore precision; compute the loss and gradients in float32 (as loss_fn does) and vmap jax.grad over the examples.
"""Exercise 2: per-example gradients with jax.vmap, in mixed precision.

Per-example gradients cost B copies of the params, so the forward/backward is
done in float16 with float32 master params and a static loss scale that keeps
small gradients out of the float16 subnormal range.
"""

import jax
import jax.numpy as jnp

COMPUTE_DTYPE = jnp.float16
LOSS_SCALE = 2.0**10  # a power of two: scaling and unscaling are exact


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _scaled_example_loss(params, xi, yi):
    """Loss of one example, float16 compute, float32 softmax, times LOSS_SCALE."""
    p16 = jax.tree.map(lambda a: a.astype(COMPUTE_DTYPE), params)
    logits = forward(p16, xi[None].astype(COMPUTE_DTYPE)).astype(jnp.float32)
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    nll = -jnp.take_along_axis(log_probs, yi.reshape(1, 1).astype(jnp.int32), axis=-1)
    return jnp.mean(nll) * LOSS_SCALE


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    scaled = jax.vmap(jax.grad(_scaled_example_loss), in_axes=(None, 0, 0))(params, x, y)
    return jax.tree.map(lambda g: (g / LOSS_SCALE).astype(jnp.float32), scaled)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    sq = [jnp.sum(jnp.square(g.reshape(g.shape[0], -1)), axis=1) for g in jax.tree.leaves(grads)]
    return jnp.sqrt(sum(sq))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))

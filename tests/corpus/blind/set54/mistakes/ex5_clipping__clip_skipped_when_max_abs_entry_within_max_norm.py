# BLIND-SET: 54
# EXERCISE: ex5
# WHAT: The clip is a hand-written transform that first makes a cheap test, the largest absolute gradient entry is <= max_norm, and then skips the global-norm computation and passes the gradient through unclipped. A gradient whose entries are all small but whose global L2 norm exceeds max_norm (e.g. 0.01 in each of 200k entries, norm about 4.5 with max_norm=1) is not clipped, so Adam's moments and every later update differ from clip_by_global_norm + adam; gradients with a large entry are clipped correctly.
# SHOULD-SAY: The largest entry being below max_norm says nothing about the global norm, which sums the squares of all entries (the max is a lower bound, not an upper one). Always compute the global L2 norm (or use optax.clip_by_global_norm(max_norm)) before deciding whether to clip.
"""Exercise 5: gradient clipping before Adam, with a cheap early-out."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))

def _fast_clip_by_global_norm(max_norm):
    """clip_by_global_norm that skips the full norm when the gradient is clearly small."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        leaves = jax.tree.leaves(updates)
        largest = jnp.max(jnp.stack([jnp.max(jnp.abs(leaf)) for leaf in leaves]))

        def clip(u):
            norm = jnp.sqrt(sum(jnp.sum(jnp.square(leaf)) for leaf in jax.tree.leaves(u)))
            scale = jnp.where(norm < max_norm, 1.0, max_norm / norm)
            return jax.tree.map(lambda t: (t * scale).astype(t.dtype), u)

        updates = jax.lax.cond(largest <= max_norm, lambda u: u, clip, updates)
        return updates, state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(_fast_clip_by_global_norm(max_norm), optax.adam(learning_rate))


_VALUE_AND_GRAD = jax.value_and_grad(loss_fn)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = _VALUE_AND_GRAD(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step

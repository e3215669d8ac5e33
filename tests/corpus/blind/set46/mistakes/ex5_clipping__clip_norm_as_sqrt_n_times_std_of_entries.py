# BLIND-SET: 46
# EXERCISE: ex5
# WHAT: the hand-written clip measures the gradient's size as sqrt(n) times the population standard deviation of all its entries, i.e. the norm of the gradient after subtracting the mean entry, instead of the global L2 norm; the measured size is too small whenever the mean entry is non-zero, so gradients just above max_norm (or with a large common offset) are clipped too little or not at all and Adam's updates differ.
# SHOULD-SAY: the clipping norm is centred (a standard deviation times sqrt(n)) rather than the plain global L2 norm sqrt(sum of squares over all leaves), so gradients are under-clipped. Don't subtract the mean: use optax.clip_by_global_norm(max_norm) or sqrt(sum(jnp.sum(g**2))).
"""Exercise 5: gradient clipping by the spread of the gradient entries, then Adam."""

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


def _clip_by_spread(max_norm):
    """Scale the gradient down when its size sqrt(n) * SD exceeds max_norm."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        flat = jnp.concatenate([jnp.ravel(g) for g in jax.tree.leaves(updates)])
        size = jnp.sqrt(flat.size) * jnp.std(flat)     # root of n times the second moment
        factor = jnp.where(size > max_norm, max_norm / size, 1.0)
        return jax.tree.map(lambda g: g * factor, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the gradient's size to max_norm, then Adam."""
    return optax.chain(_clip_by_spread(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step

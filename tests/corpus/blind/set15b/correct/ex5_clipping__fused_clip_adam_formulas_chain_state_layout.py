# BLIND-SET: 15
# EXERCISE: ex5
# WHAT: make_optimizer is a single hand-written optax.GradientTransformation that clips by the global norm and then applies Adam's formulas (moments, bias correction, -lr step) itself, keeping a state with the same layout as optax.chain(clip_by_global_norm, adam).
# SHOULD-SAY: All ex5 checks pass: the optimizer's updates equal clip_by_global_norm followed by Adam over a gradient sequence with a norm spike for several learning rates and max norms (clipping happens before the Adam moments), and one jitted step gives the right new params, optimizer state and pre-update loss using the optimizer it is given.
"""Exercise 5: gradient clipping chained before Adam."""

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


def _global_norm(tree):
    return jnp.sqrt(sum(jnp.vdot(leaf, leaf) for leaf in jax.tree.leaves(tree)))


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam.

    Written out as one GradientTransformation with Adam's formulas spelled out;
    its state has the same layout as optax.chain(clip_by_global_norm, adam):
    (EmptyState(), (ScaleByAdamState(count, mu, nu), EmptyState())).
    """
    b1, b2, eps = 0.9, 0.999, 1e-8

    def init_fn(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        adam_state = optax.ScaleByAdamState(count=jnp.zeros([], jnp.int32), mu=zeros, nu=zeros)
        return (optax.EmptyState(), (adam_state, optax.EmptyState()))

    def update_fn(grads, state, params=None):
        del params
        clip_state, (adam_state, lr_state) = state
        norm = _global_norm(grads)
        grads = jax.tree.map(lambda g: jnp.where(norm < max_norm, g, g / norm * max_norm), grads)
        count = adam_state.count + 1
        mu = jax.tree.map(lambda m, g: (1 - b1) * g + b1 * m, adam_state.mu, grads)
        nu = jax.tree.map(lambda v, g: (1 - b2) * g * g + b2 * v, adam_state.nu, grads)
        c1 = 1 - b1 ** count.astype(jnp.float32)
        c2 = 1 - b2 ** count.astype(jnp.float32)
        updates = jax.tree.map(lambda m, v: -learning_rate * (m / c1) / (jnp.sqrt(v / c2) + eps), mu, nu)
        new_state = (clip_state, (optax.ScaleByAdamState(count=count, mu=mu, nu=nu), lr_state))
        return updates, new_state

    return optax.GradientTransformation(init_fn, update_fn)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return jax.jit(step)

# BLIND-SET: 29
# EXERCISE: ex5
# WHAT: the hand-written Adam increments its step counter t inside the loop over parameter leaves, so t advances by the number of leaves (6 for the lesson's MLP) on every update and each leaf uses a different t; the bias corrections 1 - b1**t and 1 - b2**t are wrong, so every update (the first one included) differs from optax.adam's.
# SHOULD-SAY: The step counter counts optimizer steps, not leaves: increment it once per update, before the loop over leaves, so every leaf of step k uses t = k. (Or use optax.adam, which does this for you.)
"""Exercise 5 (reference): gradient clipping chained before Adam."""

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


def _adam(learning_rate, b1=0.9, b2=0.999, eps=1e-8):
    """Adam written out: moment estimates, bias correction, then a step of size learning_rate."""

    def init_fn(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return (jnp.zeros([], jnp.int32), zeros, zeros)

    def update_fn(updates, state, params=None):
        t, mu, nu = state
        g_leaves, treedef = jax.tree.flatten(updates)
        new_u, new_mu, new_nu = [], [], []
        for g, m, v in zip(g_leaves, jax.tree.leaves(mu), jax.tree.leaves(nu)):
            t = t + 1
            m = b1 * m + (1 - b1) * g
            v = b2 * v + (1 - b2) * g * g
            m_hat = m / (1 - b1**t)
            v_hat = v / (1 - b2**t)
            new_u.append(-learning_rate * m_hat / (jnp.sqrt(v_hat) + eps))
            new_mu.append(m)
            new_nu.append(v)
        unflatten = lambda leaves: jax.tree.unflatten(treedef, leaves)
        return unflatten(new_u), (t, unflatten(new_mu), unflatten(new_nu))

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), _adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step

# BLIND-SET: mistake
# EXERCISE: ex5
# WHAT: Adam is written by hand as a GradientTransformation after the clip, but without the bias corrections 1/(1-b1^t) and 1/(1-b2^t): the first update is (1-b1)/sqrt(1-b2) ~ 3.2 times Adam's, and the ratio only approaches 1 after a few thousand steps.
# SHOULD-SAY: ex5: the Adam part lacks bias correction, so updates differ from clip+Adam, strongly in the first steps.
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


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    def init(params):
        zeros = jax.tree.map(jnp.zeros_like, params)
        return (zeros, zeros)

    def update(updates, state, params=None):
        mu, nu = state
        mu = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, mu, updates)
        nu = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g * g, nu, updates)
        new = jax.tree.map(lambda m, v: -learning_rate * m / (jnp.sqrt(v) + 1e-8), mu, nu)
        return new, (mu, nu)

    adam = optax.GradientTransformation(init, update)
    return optax.chain(optax.clip_by_global_norm(max_norm), adam)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step

# BLIND-SET: 31
# EXERCISE: ex5
# WHAT: make_optimizer collects the hyperparameters in `dict(learning_rate=..., max_norm=...)` (signature order) and zips its values with the factories in chain order (clip, adam), so clip_by_global_norm gets learning_rate and adam gets max_norm. Gradients are clipped to norm 1e-3 by default and Adam steps with learning rate 1.0: updates are about 1000 times too large.
# SHOULD-SAY: The two hyperparameters are swapped: zip pairs the factories with the dict's values in the dict's insertion order (learning_rate, max_norm), not with the names they belong to. Pass each by name: `optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))`, or list the dict in chain order and look values up by key.
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
    hyper = dict(learning_rate=learning_rate, max_norm=max_norm)
    factories = (optax.clip_by_global_norm, optax.adam)
    return optax.chain(*(make(value) for make, value in zip(factories, hyper.values())))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step

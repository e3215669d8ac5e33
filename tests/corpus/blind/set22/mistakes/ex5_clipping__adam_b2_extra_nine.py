# BLIND-SET: 22
# EXERCISE: ex5
# WHAT: make_optimizer spells out Adam's hyperparameters and types b2=0.9999 instead of the default 0.999 (b1=0.9, eps=1e-8 are right), so the second-moment average (nu) is about ten times smaller and decays ten times slower; the first update agrees to ~1e-4 relative, later ones drift further (~1e-3 after ten steps).
# SHOULD-SAY: clipping by global norm before Adam, the learning rate, max_norm and the jitted train step are right, but Adam's b2 is 0.9999 instead of 0.999, so the optimizer state's nu is about ten times too small and the updates drift away from clip-then-Adam step by step. Use optax.adam(learning_rate) with its defaults (b1=0.9, b2=0.999, eps=1e-8).
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
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.adam(learning_rate, b1=0.9, b2=0.9999, eps=1e-8),
    )


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step

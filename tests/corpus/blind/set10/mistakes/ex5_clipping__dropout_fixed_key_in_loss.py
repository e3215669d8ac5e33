# BLIND-SET: mistake
# EXERCISE: ex5
# WHAT: the training step differentiates a dropout-regularised loss (rate 0.5 after each hidden ReLU) built with a fixed jax.random.PRNGKey(0), so the loss and gradients are not those of loss_fn and the mask is the same every step.
# SHOULD-SAY: ex5 step check fails: the returned loss is not loss_fn at the incoming params and the new params/state differ (gradients of a dropout loss with a constant mask); make_optimizer passes; training accuracy may also suffer.
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
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        def train_loss(params):
            # regularise with dropout while training
            key1, key2 = jax.random.split(jax.random.PRNGKey(0))
            h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
            h = jnp.where(jax.random.bernoulli(key1, 0.5, h.shape), h / 0.5, 0.0)
            h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
            h = jnp.where(jax.random.bernoulli(key2, 0.5, h.shape), h / 0.5, 0.0)
            logits = h @ params["layer3"]["w"] + params["layer3"]["b"]
            return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))

        loss, grads = jax.value_and_grad(train_loss)(params)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step

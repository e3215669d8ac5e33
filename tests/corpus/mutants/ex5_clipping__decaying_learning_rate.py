"""The learning rate decays by 0.9 each step (optax.exponential_decay), where the exercise asks for a constant one.

Step 0's update is right; each later step's is the expected one times 0.9 ** step, which ex5.chain measures
and says. With other arguments the updates are the expected ones for them times the same factors: the
arguments are honoured, and ex5.hyperparams passes (the mistake is charged once)."""

EXPECT = {"check": "ex5.chain", "mistake": "ex5.learning_rate_changes", "hint": "schedule", "max_failing": 1}

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
    schedule = optax.exponential_decay(learning_rate, transition_steps=1, decay_rate=0.9)
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(schedule))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step

"""The loss is taken at stop_gradient(params), so every gradient is zero and the step leaves the params as they were.

The step does apply the optimizer's updates; they are zero because the loss does not depend on the argument the
gradient is taken with respect to. The report must not say the updates were not applied: what it measured is
that Adam's first moment stayed zero after a step, i.e. the gradients reaching the optimizer were zero.
ex5.step_values fails too (the same zero update, seen with clip + Adam)."""

import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.uses_given_optimizer", "mistake": "", "hint": "gradients", "max_failing": 2, "also": ["ex5.step_values"]}


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
        frozen = jax.lax.stop_gradient(params)  # "don't let the update leak into the loss"
        loss, grads = jax.value_and_grad(lambda p: loss_fn(frozen, x, y))(params)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step

"""The step clips the gradient to global norm 0.5 itself, with optax's clip used by hand, before the optimizer
it is given sees it: with clip + Adam that hardly shows; with any other optimizer it does."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))

EXPECT = {"check": "ex5.step_values", "mistake": "ex5.step_clips", "max_failing": 1, "hint": "optimizer's job"}


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        grads, _ = optax.clip_by_global_norm(0.5).update(grads, optax.EmptyState())
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step

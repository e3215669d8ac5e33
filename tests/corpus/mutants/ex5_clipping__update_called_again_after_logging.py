"""The step calls optimizer.update once to log the update's norm, keeps the state it returned, then calls it
again on the same gradients for the real update: optimizer.update runs twice per step, so Adam's count is 2 after
one step."""

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

EXPECT = {"check": "ex5.step_values", "mistake": "ex5.update_called_twice", "max_failing": 1,
          "hint": "an extra call"}


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        logged, opt_state = optimizer.update(grads, opt_state, params)
        jax.debug.callback(lambda norm: None, optax.global_norm(logged))  # logged elsewhere
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step

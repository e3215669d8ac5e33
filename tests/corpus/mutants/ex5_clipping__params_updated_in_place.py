"""The step writes the new params back into the dict it was given (params.update), around a jitted core."""

import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.params_unchanged", "mistake": "params_mutated", "max_failing": 1, "hint": "changed the params"}


def forward(params, x):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    @jax.jit
    def core(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    def step(params, opt_state, x, y):
        new_params, opt_state, loss = core(params, opt_state, x, y)
        params.update(new_params)
        return params, opt_state, loss

    return step

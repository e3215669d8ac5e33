"""The step applies the updates layer by layer in a comprehension over the hidden layers only (a fine-tuning
recipe's loop), so the output layer's weights and bias never move."""

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

EXPECT = {"check": "ex5.step_values", "mistake": "ex5.updates_partly_applied", "max_failing": 1, "hint": "every leaf"}


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        hidden = [name for name in params if name != "layer3"]
        new_params = {name: {k: params[name][k] + updates[name][k] for k in params[name]} if name in hidden
                      else params[name] for name in params}
        return new_params, opt_state, loss

    return step

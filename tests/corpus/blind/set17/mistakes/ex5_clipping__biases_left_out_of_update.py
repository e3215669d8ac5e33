# BLIND-SET: 17
# EXERCISE: ex5
# WHAT: the train step applies the optimizer's updates with a hand-written per-layer loop that adds them to the weights only; every bias is returned unchanged (the Adam state for the biases still advances)
# SHOULD-SAY: make_optimizer (clip then Adam), value_and_grad at the incoming params, the new optimizer state, the returned loss and jit are right, but the new params are wrong: biases never move because only the 'w' leaves get their update; apply the updates to every leaf, e.g. optax.apply_updates(params, updates)
"""Exercise 5: gradient clipping in an optax chain."""

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------



def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """An optax optimizer that clips, then applies Adam."""
    return optax.chain(
        optax.clip_by_global_norm(max_norm),
        optax.adam(learning_rate),
    )


def _apply(params, updates):
    """params + updates, layer by layer."""
    new_params = {}
    for name, layer in params.items():
        new_params[name] = {
            "w": layer["w"] + updates[name]["w"],
            "b": layer["b"],
        }
    return new_params


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return _apply(params, updates), opt_state, loss

    return jax.jit(step)

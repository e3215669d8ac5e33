# BLIND-SET: correct
# EXERCISE: ex5
# WHAT: The step flattens params with jax.flatten_util.ravel_pytree, takes jax.value_and_grad of the loss as a function of the flat vector, unravels the gradient back into the params pytree and then updates through the given optimizer.
# SHOULD-SAY: full marks
"""Exercise 5: clipping then Adam; gradients taken on the flattened params."""

import jax
import jax.flatten_util
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
    clip = optax.clip_by_global_norm(max_norm)
    adam = optax.adam(learning_rate)
    return optax.chain(clip, adam)


def make_train_step(optimizer):
    def step(params, opt_state, x, y):
        flat, unravel = jax.flatten_util.ravel_pytree(params)
        loss, flat_grads = jax.value_and_grad(lambda v: loss_fn(unravel(v), x, y))(flat)
        grads = unravel(flat_grads)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return jax.jit(step)

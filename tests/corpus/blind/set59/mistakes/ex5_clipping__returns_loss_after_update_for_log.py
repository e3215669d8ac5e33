# BLIND-SET: 59
# EXERCISE: ex5
# WHAT: The step computes the loss and gradients at the incoming params and updates correctly. But it returns loss_fn(new_params, x, y), the loss after the update, which was for a log line showing that one step helps. The new params and optimizer state are bit-identical. With lr 1e-3 and max_norm 1, the returned loss is 2.012 instead of 3.088 at B = 128, 1.374 instead of 3.137 at B = 32, and 0.185 instead of 4.465 at B = 1. With the file's own optimizer at lr 1e-2 and max_norm 5 it is 0.81 instead of 3.09. make_optimizer is right. Each step also costs an extra forward pass.
# SHOULD-SAY: The step must return the loss at the incoming params, from before the update, but yours returns the loss recomputed at the new params. Return the loss that jax.value_and_grad gives you; if you want the post-update loss, compute it outside the step.
"""Exercise 5: gradient clipping in an optax chain."""

import jax
import jax.numpy as jnp
import optax

# jax.config.update("jax_debug_nans", True)
VERBOSE = False
_n_traces = 0   # counts retraces of the step (should be 1 per input shape)

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
    """Clip the global gradient norm to max_norm, then Adam."""
    clip = optax.clip_by_global_norm(max_norm)
    adam = optax.adam(learning_rate)
    return optax.chain(clip, adam)


def make_train_step(optimizer):
    """A jitted training step that updates params through optimizer."""

    @jax.jit
    def step(params, opt_state, x, y):
        global _n_traces
        _n_traces += 1
        loss_before, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        # log the loss *after* the step, so I can see that one step helps
        loss = loss_fn(new_params, x, y)
        if VERBOSE:
            jax.debug.print("loss {a:.4f} -> {b:.4f}", a=loss_before, b=loss)
        return new_params, opt_state, loss

    return step

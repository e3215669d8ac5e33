# BLIND-SET: 59
# EXERCISE: ex5
# WHAT: The @jax.jit on make_train_step's step is commented out, which let the student print inside the step. The step also appends (loss, grad norm) to a module list. make_optimizer is right: its updates are bit-identical over 6 steps, with a x5000 spike, at 4 (lr, max_norm) settings. The step's values match the reference's within float rounding: params within 3e-8 after one step and 6e-7 after two, loss exact. But step is a plain Python function, not jitted: 20 calls take 0.54 s against 0.048 s for the reference's step.
# SHOULD-SAY: make_train_step must return a jitted step, but yours runs eagerly because the @jax.jit decorator is commented out. The numbers are right, but each step is about 10x slower. Put @jax.jit back; inside a jitted function, use jax.debug.print for printing.
"""Exercise 5: gradient clipping in an optax chain."""

import jax
import jax.numpy as jnp
import optax

DEBUG = False
_step_log = []   # (loss, grad norm) per step, for the answers.md plot

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
    # return optax.chain(optax.adam(learning_rate), optax.clip_by_global_norm(max_norm))  # wrong order!
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through optimizer."""

    # @jax.jit   # off while I print the grad norm before/after the spike
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        gnorm = optax.tree.norm(grads)
        _step_log.append((loss, gnorm))
        if DEBUG:
            print(f"loss {float(loss):.4f}  grad norm {float(gnorm):.3f}")
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss

    return step

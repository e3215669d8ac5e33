# BLIND-SET: 59
# EXERCISE: ex5
# WHAT: correct: make_optimizer is the reference chain, clip_by_global_norm(max_norm) then adam(lr), with an assert on max_norm and a print behind DEBUG = False. The jitted step keeps a trace counter (a Python side effect that runs only at trace time) and logs the raw grad norm through jax.debug.callback. It also has jax.debug.print behind DEBUG and a shape assert on the loss, and it returns the new params, the new state and the pre-update loss. Updates and states are bit-identical over 6 steps with a x5000 spike at 4 settings. One and two steps are bit-identical at B = 128/32/1, and the step is jitted.
# SHOULD-SAY: full marks
"""Exercise 5: gradient clipping in an optax chain."""

import jax
import jax.numpy as jnp
import numpy as np
import optax

# jax.config.update("jax_debug_nans", True)   # found the NaN in my first version
# jax.config.update("jax_disable_jit", True)  # to print() inside step
DEBUG = False
_traces = {"step": 0}     # how often step was traced (once per input shape)
_grad_norms = []          # host-side log of the raw gradient norm, for answers.md


def _log_norm(n):
    _grad_norms.append(float(np.asarray(n)))

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
    assert max_norm > 0, max_norm
    if DEBUG:
        print(f"make_optimizer(lr={learning_rate}, max_norm={max_norm})")
    # optax.chain(optax.adam(learning_rate), optax.clip_by_global_norm(max_norm))  # wrong order, see answers.md
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through optimizer."""

    @jax.jit
    def step(params, opt_state, x, y):
        _traces["step"] += 1                     # Python side effect: runs at trace time only
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        jax.debug.callback(_log_norm, optax.tree.norm(grads))
        updates, new_opt_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        if DEBUG:
            jax.debug.print("loss {l:.4f} |g| {g:.3f} |u| {u:.2e}", l=loss,
                            g=optax.tree.norm(grads), u=optax.tree.norm(updates))
        assert loss.shape == (), loss.shape
        return new_params, new_opt_state, loss   # loss at the incoming params

    return step

# BLIND-SET: 39
# EXERCISE: ex5
# WHAT: Correct. make_optimizer is optax.chain(optax.clip_by_global_norm(max_norm), optax.chain(optax.scale_by_adam(), optax.scale_by_learning_rate(learning_rate))) (Adam from its parts, nested so the state has optax.adam's layout) wrapped in optax.with_extra_args_support. The step is jax.jit of jax.value_and_grad(loss_fn) on a jax.checkpoint-ed loss_fn, updates through the given optimizer, applies them with optax.tree_utils.tree_add, and returns the loss at the incoming params.
# SHOULD-SAY: Nothing to fix: the updates equal clip_by_global_norm followed by Adam, and the step returns the new params, the new state and the pre-update loss, jitted.
"""Exercise 5: clipping then Adam from optax's scale_by_* pieces, with a checkpointed loss."""

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
    """Global-norm clipping, then Adam (scale_by_adam, then the learning rate)."""
    adam = optax.chain(optax.scale_by_adam(), optax.scale_by_learning_rate(learning_rate))
    return optax.with_extra_args_support(optax.chain(optax.clip_by_global_norm(max_norm), adam))


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""
    value_and_grad = jax.value_and_grad(jax.checkpoint(loss_fn))

    @jax.jit
    def step(params, opt_state, x, y):
        with jax.named_scope("loss_and_grads"):
            loss, grads = value_and_grad(params, x, y)
        with jax.named_scope("update"):
            updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.tree_utils.tree_add(params, updates), opt_state, loss

    return step

# BLIND-SET: 17
# EXERCISE: ex5
# WHAT: the optimizer is a flat chain clip_by_global_norm -> scale_by_adam -> scale_by_learning_rate (Adam spelled out), and the jitted step takes the batch as *batch varargs, passes keywords to optimizer.update and adds updates with optax.tree.add
# SHOULD-SAY: full marks
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
    stages = [
        optax.clip_by_global_norm(max_norm),
        optax.scale_by_adam(b1=0.9, b2=0.999, eps=1e-8),
        optax.scale_by_learning_rate(learning_rate),
    ]
    return optax.chain(*stages)


def make_train_step(optimizer):
    """Build a jitted training step for ``optimizer``."""
    loss_and_grad = jax.value_and_grad(loss_fn)

    def step(params, opt_state, *batch):
        loss, grads = loss_and_grad(params, *batch)
        updates, next_state = optimizer.update(updates=grads, state=opt_state, params=params)
        return optax.tree.add(params, updates), next_state, loss

    return jax.jit(step)

# BLIND-SET: 31
# EXERCISE: ex5
# WHAT: make_optimizer has a mutable default `transforms=[]` and does `transforms += [clip_by_global_norm(max_norm), adam(learning_rate)]`; the default list is shared across calls, so the first optimizer is right but the second is chain(clip, adam, clip, adam) with the first call's settings in front, the third has six stages, and so on. Updates (and state structure) are wrong from the second call on, whatever its learning_rate and max_norm.
# SHOULD-SAY: Every call after the first returns a longer chain: the default list `transforms=[]` is created once and `+=` extends it in place, so earlier calls' clip and Adam stages stay in it. Build a fresh list inside the function (`transforms = [...]`, or default to None), or just return `optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))`.
"""Exercise 5 (reference): gradient clipping chained before Adam."""

import jax
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


def make_optimizer(learning_rate=1e-3, max_norm=1.0, transforms=[]):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    transforms += [optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)]
    return optax.chain(*transforms)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step

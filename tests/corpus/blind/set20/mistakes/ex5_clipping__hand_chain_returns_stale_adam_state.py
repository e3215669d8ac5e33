# BLIND-SET: 20
# EXERCISE: ex5
# WHAT: make_optimizer composes clip and Adam by hand and returns the incoming adam_state instead of new_adam_state, so Adam's count and moments never advance: every update is a first Adam step (about lr * sign(g)) and the step's returned optimizer state never changes
# SHOULD-SAY: clipping comes first and Adam uses the right learning rate, and the first update is right, but the hand-written chain drops Adam's new state (it returns adam_state, not new_adam_state): the moment estimates and step count stay at their initial values, so after the first step every update is wrong; return (clip_state, new_adam_state), or just use optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))

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


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    clip = optax.clip_by_global_norm(max_norm)
    adam = optax.adam(learning_rate)

    def init_fn(params):
        return (clip.init(params), adam.init(params))

    def update_fn(updates, state, params=None):
        clip_state, adam_state = state
        updates, clip_state = clip.update(updates, clip_state, params)
        updates, new_adam_state = adam.update(updates, adam_state, params)
        return updates, (clip_state, adam_state)

    return optax.GradientTransformation(init_fn, update_fn)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step

# BLIND-SET: 21
# EXERCISE: ex5
# WHAT: correct: the chain is optax.clip_by_global_norm(max_norm) followed by optax.inject_hyperparams(optax.adam, static_args=("b1", "b2", "eps", "eps_root"))(learning_rate=...) so only the learning rate is injected state; the step is a plain function jitted with jax.jit(...) at return, differentiates a lambda with jax.value_and_grad and adds the updates with jax.tree_util.tree_map(jnp.add, ...).
# SHOULD-SAY: full marks: global-norm clipping before Adam with the given learning rate and max_norm (numerically the same updates as the reference chain), and a jitted step that uses the optimizer it is given, returns the new params, the new state and the loss at the incoming params.
"""Exercise 5: clipping, then Adam with its learning rate injected as a hyperparameter."""

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
    """Global-norm clipping, then Adam whose learning rate lives in the state."""
    # Only the learning rate becomes state; b1, b2 and eps stay Python floats so the
    # bias corrections are computed exactly as in plain optax.adam.
    adam_factory = optax.inject_hyperparams(optax.adam, static_args=("b1", "b2", "eps", "eps_root"))
    adam = adam_factory(learning_rate=learning_rate)
    return optax.chain(optax.clip_by_global_norm(max_norm), adam)


def make_train_step(optimizer):
    """Return jax.jit of a step that runs one update of `optimizer`."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(lambda p: loss_fn(p, x, y))(params)
        updates, new_state = optimizer.update(grads, opt_state, params)
        new_params = jax.tree_util.tree_map(jnp.add, params, updates)
        return new_params, new_state, loss

    return jax.jit(step)

# BLIND-SET: 52
# EXERCISE: ex5
# WHAT: make_optimizer keeps its transforms in a dict {"clip": ..., "adam": ...} and chains them with optax.chain(*(t for _, t in sorted(parts.items()))); the sort compares the names, and "adam" < "clip", so the chain is Adam then clip: Adam sees the unclipped gradient and clipping is applied to Adam's output. Updates differ from clip-then-Adam from the first gradient whose norm exceeds max_norm (and whenever Adam's output norm exceeds max_norm).
# SHOULD-SAY: The optimizer runs Adam before clipping: sorting the named transforms orders them alphabetically ("adam" before "clip"), not in pipeline order. Keep the order you mean, e.g. optax.chain(parts["clip"], parts["adam"]) or optax.chain(*parts.values()) without sorting.
"""Exercise 5: gradient clipping in an optax chain (named transforms in a dict)."""

import operator

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


# --- Your code ----------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping, then Adam."""
    parts = {"clip": optax.clip_by_global_norm(max_norm), "adam": optax.adam(learning_rate)}
    return optax.chain(*(t for _, t in sorted(parts.items(), key=lambda kv: kv[0])))


def make_train_step(optimizer):
    """A jitted step: loss and grads at the incoming params, update through optimizer."""

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = optimizer.update(grads, opt_state, params)
        return jax.tree.map(operator.add, params, updates), new_state, loss

    return jax.jit(step)


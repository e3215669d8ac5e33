"""make_train_step keeps its jitted steps in a dict keyed by the name of the optimizer's update function, which
every optax.chain shares: a clip+Adam chain made after another chain (optax.sgd is one) gets that chain's step and
its update. The report measures the clip+Adam step's new params as those of the earlier gradient-ascent step.
"""


import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.step_values", "mistake": "ex5.step_shared_between_optimizers", "hint": "closing over its optimizer",
          "max_failing": 1}


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
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


_STEPS = {}


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`, one per kind of update."""
    name = getattr(optimizer.update, "__qualname__", repr(optimizer.update))
    if name not in _STEPS:
        @jax.jit
        def step(params, opt_state, x, y):
            loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
            updates, opt_state = optimizer.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state, loss

        _STEPS[name] = step
    return _STEPS[name]

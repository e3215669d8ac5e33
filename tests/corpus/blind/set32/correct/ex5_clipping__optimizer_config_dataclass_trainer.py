# BLIND-SET: 32
# EXERCISE: ex5
# WHAT: correct rewrite: a frozen OptimizerConfig dataclass whose build() returns optax.chain(clip_by_global_norm, adam) from its own fields, and a Trainer object holding the optimizer whose jitted bound-method step is returned by make_train_step.
# SHOULD-SAY: nothing to fix; the optimizer and the training step are correct.
"""Exercise 5 (reference): gradient clipping chained before Adam."""

import dataclasses

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


@dataclasses.dataclass(frozen=True)
class OptimizerConfig:
    learning_rate: float = 1e-3
    max_norm: float = 1.0

    def build(self):
        return optax.chain(
            optax.clip_by_global_norm(self.max_norm),
            optax.adam(self.learning_rate),
        )


class Trainer:
    """Holds one optimizer; `step` is its jitted training step."""

    def __init__(self, optimizer):
        self.optimizer = optimizer
        self.step = jax.jit(self._step)

    def _step(self, params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, new_state = self.optimizer.update(grads, opt_state, params)
        new_params = jax.tree.map(lambda p, u: p + u, params, updates)
        return new_params, new_state, loss


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return OptimizerConfig(learning_rate=learning_rate, max_norm=max_norm).build()


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    return Trainer(optimizer).step

# BLIND-SET: 53
# EXERCISE: ex5
# WHAT: make_optimizer builds `OptimizerConfig().with_learning_rate(lr).with_max_norm(m)`; `with_max_norm` copies the frozen dataclass as `OptimizerConfig(max_norm=m)` instead of `replace`, dropping the learning rate, so Adam always runs at the default 1e-3 whatever learning_rate is passed. Clipping and max_norm are right; with learning_rate=1e-3 the updates match.
# SHOULD-SAY: make_optimizer ignores learning_rate (updates are those of Adam at 1e-3): `with_max_norm` builds a new config from max_norm alone and the learning rate falls back to its default. Copy with `dataclasses.replace(self, max_norm=m)`.
"""Exercise 5: gradient clipping in an optax chain (factory and trainer classes)."""

from dataclasses import dataclass, replace
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


@dataclass(frozen=True)
class OptimizerConfig:
    learning_rate: float = 1e-3
    max_norm: float = 1.0

    def with_learning_rate(self, learning_rate):
        return replace(self, learning_rate=learning_rate)

    def with_max_norm(self, max_norm):
        return OptimizerConfig(max_norm=max_norm)

    def build(self):
        return optax.chain(optax.clip_by_global_norm(self.max_norm), optax.adam(self.learning_rate))


class Trainer:
    def __init__(self, optimizer):
        self.optimizer = optimizer

    def loss_and_grads(self, params, x, y):
        return jax.value_and_grad(loss_fn)(params, x, y)

    def __call__(self, params, opt_state, x, y):
        loss, grads = self.loss_and_grads(params, x, y)
        updates, opt_state = self.optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return OptimizerConfig().with_learning_rate(learning_rate).with_max_norm(max_norm).build()


def make_train_step(optimizer):
    return jax.jit(Trainer(optimizer))

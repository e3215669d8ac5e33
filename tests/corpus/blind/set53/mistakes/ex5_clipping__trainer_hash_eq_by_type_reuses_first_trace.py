# BLIND-SET: 53
# EXERCISE: ex5
# WHAT: `Trainer.step` is jax.jit with static_argnums=0 (self), and Trainer defines `__hash__`/`__eq__` by type only, so every Trainer is an equal static argument and jit reuses the trace of the first Trainer called with the same input shapes: a step from make_train_step(opt2) updates params and state with the optimizer of an earlier step (its learning rate and max_norm) whenever an earlier step already ran on the same shapes and state structure. The first step per shape is right; the loss is always right.
# SHOULD-SAY: make_train_step ignores the optimizer it is given after the first one: all Trainers hash and compare equal, so jax.jit serves the first compiled step (with the first optimizer baked in). Make __hash__/__eq__ include the optimizer (or jit a closure per optimizer instead of a static self).
"""Exercise 5: gradient clipping in an optax chain (factory and trainer classes)."""

import functools
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


class OptimizerFactory:
    @staticmethod
    def clip_then_adam(learning_rate, max_norm):
        return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


class Trainer:
    """A trainer is static under jit, so it needs __hash__ and __eq__."""

    def __init__(self, optimizer):
        self.optimizer = optimizer

    def __hash__(self):
        return hash(type(self))

    def __eq__(self, other):
        return type(self) is type(other)

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = self.optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    return OptimizerFactory.clip_then_adam(learning_rate, max_norm)


def make_train_step(optimizer):
    return Trainer(optimizer).step

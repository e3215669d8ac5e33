# BLIND-SET: 38
# EXERCISE: ex5
# WHAT: Correct: make_optimizer is optax.inject_hyperparams over a factory that builds chain(clip_by_global_norm(max_norm), adam(learning_rate)), with updates identical to the plain chain's (the state is an InjectHyperparamsState). make_train_step jits a step that wraps the given optimizer in a TrainState-like record, takes jax.value_and_grad(loss_fn) at the incoming params, applies apply_gradients (tx.update with params, then optax.apply_updates) and returns (new params, new state, pre-update loss).
# SHOULD-SAY: Nothing to fix: clipping before Adam with the given learning_rate and max_norm, and a jitted step that uses the given optimizer and returns the pre-update loss.
"""Exercise 5: gradient clipping in an optax chain (inject_hyperparams and a TrainState, as in my Flax code)."""

from typing import Any, NamedTuple

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


def _clip_then_adam(learning_rate, max_norm):
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Global-norm clipping, then Adam; hyperparameters injected so they can be read from the state."""
    return optax.inject_hyperparams(_clip_then_adam)(learning_rate=learning_rate, max_norm=max_norm)


class TrainState(NamedTuple):
    params: Any
    opt_state: Any
    tx: Any

    def apply_gradients(self, *, grads):
        updates, new_opt_state = self.tx.update(grads, self.opt_state, self.params)
        return self._replace(params=optax.apply_updates(self.params, updates), opt_state=new_opt_state)


def make_train_step(optimizer):
    """A jitted ``step(params, opt_state, x, y) -> (params, opt_state, loss)``."""

    def step(params, opt_state, x, y):
        batch = {"image": x, "label": y}
        state = TrainState(params=params, opt_state=opt_state, tx=optimizer)
        loss, grads = jax.value_and_grad(loss_fn)(state.params, batch["image"], batch["label"])
        state = state.apply_gradients(grads=grads)
        return state.params, state.opt_state, loss

    return jax.jit(step)

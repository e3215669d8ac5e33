"""End-to-end observations: train with the student's pieces, evaluate with theirs.

The loop is the grader's: ``forward_with_dropout`` in train mode for the loss,
``make_optimizer()`` with its defaults for the updates, ``mlp_forward`` for the
held-out logits. The parent computes the accuracy from the logits: the test
labels never enter this process (the inputs hold the training images and
labels and the test images only; see ``grader.inputs``).
"""

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

from grader.harness.probe_tools import as_jax
from grader.exercises.accuracy.shared import BATCH, CURVES_OPTION, EPOCHS, SEED
from grader.exercises.accuracy.shared import DROPOUT as DROPOUT_RATE


def _cross_entropy(logits, y):
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


def train(forward_with_dropout, optimizer, params, split, seed=SEED, grad_norms=None):
    """Mini-batch training; returns the final params and the loss of every step.

    With a list as ``grad_norms``, each step's global gradient norm (before the optimizer) is appended
    to it, by a step that computes it too; without, the step computes only what training needs.
    """
    opt_state = optimizer.init(params)

    def loss_fn(p, x, y, key):
        return _cross_entropy(forward_with_dropout(p, x, key, DROPOUT_RATE, True), y)

    @jax.jit
    def step(p, s, x, y, key):
        loss, grads = jax.value_and_grad(loss_fn)(p, x, y, key)
        updates, s = optimizer.update(grads, s, p)
        if grad_norms is not None:
            return optax.apply_updates(p, updates), s, (loss, optax.global_norm(grads))
        return optax.apply_updates(p, updates), s, loss

    # Batches and keys are cut on the host: an index or a fold_in on the device is an eager operation per step,
    # which cost more than half the loop's CPU. The values are the same (JAX's dtypes, the same key bits).
    x_train, y_train = (np.asarray(jnp.asarray(a)) for a in (split.x_train, split.y_train))
    rng = np.random.default_rng(seed)
    n_batches = len(split.y_train) // BATCH
    keys = np.asarray(jax.vmap(jax.random.fold_in, in_axes=(None, 0))(
        jax.random.PRNGKey(seed), jnp.arange(EPOCHS * n_batches)))
    losses = []
    for epoch in range(EPOCHS):
        order = rng.permutation(len(split.y_train))
        for b in range(n_batches):
            idx = order[b * BATCH:(b + 1) * BATCH]
            key = keys[epoch * n_batches + b]
            params, opt_state, loss = step(params, opt_state, x_train[idx], y_train[idx], key)
            if grad_norms is not None:
                loss, norm = loss
                grad_norms.append(norm)
            losses.append(loss)
    if grad_norms is not None:
        grad_norms[:] = [float(n) for n in grad_norms]
    return params, np.asarray(jnp.stack(losses))


class _Data(NamedTuple):
    """What the child trains and evaluates on: no test labels (the parent scores the logits)."""

    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray


def probe(rec, modules, inputs, options):
    m1, m3, m5 = modules["ex1_dropout"], modules["ex3_mlp_forward"], modules["ex5_clipping"]
    task = inputs["accuracy"]
    split = _Data(task.pop("x_train"), task.pop("y_train"), task.pop("x_test"))
    params = as_jax(inputs["accuracy"]["params"])
    seed = int(inputs["accuracy"].get("train_seed", SEED))
    rec.put("meta", {"epochs": EPOCHS, "batch": BATCH, "dropout_rate": DROPOUT_RATE,
                     "n_train": len(split.y_train), "n_test": len(split.x_test)})
    trained = rec.record("train", lambda: train(m1.forward_with_dropout, m5.make_optimizer(), params, split, seed))
    if trained is not None:
        final, _ = trained
        rec.record("test_logits", lambda: m3.mlp_forward(final, jnp.asarray(split.x_test)))
    if CURVES_OPTION in options:  # the lesson's ex5 question: with and without clipping, and where it clipped
        rec.record("baseline_losses",
                   lambda: train(m1.forward_with_dropout, optax.adam(1e-3), params, split, seed)[1])

        def clipped_norms():
            norms: list = []
            train(m1.forward_with_dropout, m5.make_optimizer(), params, split, seed, grad_norms=norms)
            return np.asarray(norms, np.float32)

        rec.record("clipped_grad_norms", clipped_norms)

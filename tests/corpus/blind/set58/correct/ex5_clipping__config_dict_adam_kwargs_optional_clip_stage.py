# BLIND-SET: 58
# EXERCISE: ex5
# WHAT: correct: make_optimizer builds optax.chain(clip_by_global_norm(max_norm), *pre_stages, optax.adam(learning_rate, **{**_ADAM_DEFAULTS, **adam_kwargs})). _ADAM_DEFAULTS holds optax's own defaults (b1 0.9, b2 0.999, eps 1e-8, eps_root 0), it has a clip switch, pre_stages is empty by default and unknown Adam options raise. make_train_step takes loss=None (loss_fn) and jit options, and returns jax.jit of a step that uses a hoisted value_and_grad, the given optimizer and optax.apply_updates. Updates and states are bit-identical to the reference's over 6 gradients with a x5000 spike at (lr, max_norm) = (1e-3, 1), (3e-2, 0.5), (1e-2, 5) and (1e-3, 100), for random and real gradients, with the same state tree. One step with the reference's optimizer is bit-identical at B = 1/32/64/100/128 (params, state, loss), and 20 steps with its own pair match the reference's pair exactly.
# SHOULD-SAY: full marks
"""Exercise 5: gradient clipping in an optax chain, with the knobs exposed.

``make_optimizer`` passes any Adam option through (``b1``, ``b2``, ``eps``,
...), takes a ``clip`` switch and optional extra stages to run before Adam;
``make_train_step`` takes any loss with the lesson's signature and options
for ``jax.jit``.
"""

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

# optax.adam's own defaults, written out so they can be overridden one by one.
_ADAM_DEFAULTS = {"b1": 0.9, "b2": 0.999, "eps": 1e-8, "eps_root": 0.0}


def make_optimizer(learning_rate=1e-3, max_norm=1.0, *, clip=True, pre_stages=(), **adam_kwargs):
    """Global-norm clipping, then any extra ``pre_stages``, then Adam.

    Args:
      learning_rate: Adam's learning rate (a float or an optax schedule).
      max_norm: the largest global L2 norm a gradient may have.
      clip: set False (or ``max_norm=None``) to leave gradients unclipped.
      pre_stages: more gradient transformations to apply, in order, after
        clipping and before Adam.
      **adam_kwargs: overrides for ``_ADAM_DEFAULTS``.
    """
    unknown = set(adam_kwargs) - set(_ADAM_DEFAULTS) - {"mu_dtype", "nesterov"}
    if unknown:
        raise TypeError(f"unknown Adam options: {sorted(unknown)}")
    stages = []
    if clip and max_norm is not None:
        stages.append(optax.clip_by_global_norm(max_norm))
    stages.extend(pre_stages)
    stages.append(optax.adam(learning_rate, **{**_ADAM_DEFAULTS, **adam_kwargs}))
    return optax.chain(*stages)


def make_train_step(optimizer, *, loss=None, jit=True, **jit_kwargs):
    """Build a training step for ``optimizer`` (jitted unless ``jit=False``).

    ``step(params, opt_state, x, y) -> (new_params, new_opt_state, loss)``:
    loss and gradients of ``loss`` (default the lesson's ``loss_fn``) at the
    incoming params, one update through ``optimizer``, and the loss from before
    the update. ``jit_kwargs`` go to ``jax.jit``.
    """
    loss = loss_fn if loss is None else loss
    value_and_grad = jax.value_and_grad(loss)

    def step(params, opt_state, x, y):
        value, grads = value_and_grad(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, value

    return jax.jit(step, **jit_kwargs) if jit else step

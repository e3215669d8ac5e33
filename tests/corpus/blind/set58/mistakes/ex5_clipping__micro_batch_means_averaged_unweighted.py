# BLIND-SET: 58
# EXERCISE: ex5
# WHAT: make_train_step does gradient accumulation over micro-batches of at most micro_batch_size=64 examples (on by default) and averages the micro-batch losses and gradients with equal weight. When B is not a multiple of 64, the last micro-batch is smaller and gets the same weight as a full one, so loss and gradients are not the mean over the batch. At B = 65/96/100/200 the loss is 1.969/2.494/2.554/2.499 instead of 2.408/2.507/2.560/2.473, and the new params are off by up to 2.0e-3 (Adam's first step flips signs), with the state off by 8e-4 to 1.2e-2. B <= 64 (1/32/64 tried) is bit-identical. B = 128/192/256 (equal micro-batches) gives the same loss to 7 digits, but params differ by 1.6e-6 to 3.2e-6 (summation-order rounding on tiny gradient entries, amplified by Adam's first step). make_optimizer is bit-identical to the reference's, and the step is jitted and uses the given optimizer.
# SHOULD-SAY: The step must use the loss and gradients of the mean loss over the whole batch, but your micro-batch accumulation (micro_batch_size=64 by default) averages the micro-batch means with equal weight, so for a batch size that isn't a multiple of 64 the last, smaller micro-batch counts too much (B = 100: loss 2.554 instead of 2.560). Compute value_and_grad on the whole batch (or weight each micro-batch by its size).
"""Exercise 5: gradient clipping in an optax chain, with the knobs exposed.

``make_optimizer`` passes any Adam option through (``b1``, ``b2``, ``eps``,
...), takes a ``clip`` switch and optional extra stages to run before Adam;
``make_train_step`` takes any loss with the lesson's signature, accumulates
gradients over micro-batches and takes options for ``jax.jit``.
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


def make_train_step(optimizer, *, loss=None, micro_batch_size=64, jit=True, **jit_kwargs):
    """Build a training step for ``optimizer`` (jitted unless ``jit=False``).

    ``step(params, opt_state, x, y) -> (new_params, new_opt_state, loss)``:
    loss and gradients of ``loss`` (default the lesson's ``loss_fn``) at the
    incoming params, one update through ``optimizer``, and the loss from before
    the update. Large batches are processed by gradient accumulation over
    micro-batches of at most ``micro_batch_size`` examples (``None``: the whole
    batch at once), so memory stays bounded; the micro-batch losses and
    gradients are averaged. ``jit_kwargs`` go to ``jax.jit``.
    """
    loss = loss_fn if loss is None else loss
    value_and_grad = jax.value_and_grad(loss)

    def step(params, opt_state, x, y):
        n = x.shape[0]
        size = n if micro_batch_size is None else max(1, min(micro_batch_size, n))
        starts = range(0, n, size)
        value, grads = 0.0, None
        for start in starts:
            v, g = value_and_grad(params, x[start:start + size], y[start:start + size])
            value = value + v
            grads = g if grads is None else jax.tree.map(jnp.add, grads, g)
        value = value / len(starts)
        grads = jax.tree.map(lambda g: g / len(starts), grads)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, value

    return jax.jit(step, **jit_kwargs) if jit else step

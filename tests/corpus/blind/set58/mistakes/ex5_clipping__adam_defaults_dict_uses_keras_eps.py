# BLIND-SET: 58
# EXERCISE: ex5
# WHAT: make_optimizer builds optax.adam from a _ADAM_DEFAULTS dict that copies Keras's defaults, including eps=1e-7, instead of optax's eps=1e-8. Clipping comes first, the chain and the state tree are the reference's, and the state values (count, mu, nu) are identical. The updates differ wherever |g| is not far above 1e-7. Over 6 gradients with a x5000 spike at step 3, with global-norm-4.8 N(0,0.01) gradients, the first update is off by max |diff| 5.1e-4 (lr 1e-3, max_norm 1), 1.6e-2 (lr 3e-2, 0.5), 4.6e-3 (1e-2, 5) and 4.6e-4 (1e-3, 100), shrinking to 4e-8 to 1.4e-5 by step 6. With real loss gradients, which have many tiny entries, every step is off by 2e-4 to 5e-4 at lr 1e-3 and 7e-3 to 1.6e-2 at lr 3e-2 (relative error up to 0.8 to 0.9 on single entries). make_train_step is right (bit-identical with the reference's optimizer at B = 1/32/64/100/128); with its own optimizer, 20 steps end 1.6e-2 away in params (loss 0.3170 vs 0.3209).
# SHOULD-SAY: make_optimizer must equal clip_by_global_norm followed by optax.adam(learning_rate), but your Adam uses eps=1e-7 (Keras's default) instead of optax's 1e-8, so updates differ for small gradient entries (up to ~half the learning rate). Don't override Adam's defaults: optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)).
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

# Adam's usual defaults (as in Keras), written out so they can be overridden one by one.
_ADAM_DEFAULTS = {"b1": 0.9, "b2": 0.999, "eps": 1e-7, "eps_root": 0.0}


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

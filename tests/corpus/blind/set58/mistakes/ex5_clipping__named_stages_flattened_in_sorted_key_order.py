# BLIND-SET: 58
# EXERCISE: ex5
# WHAT: make_optimizer collects its stages in a dict {"clip": ..., "adam": ...} (so extra stages can be nested in any pytree) and builds optax.chain(*jax.tree.leaves(stages, is_leaf=...)). jax.tree.leaves walks dict keys in sorted order, so the chain is adam, then clip: clipping is applied to Adam's updates, not to the gradients. The opt_state tree is ((ScaleByAdamState, EmptyState), EmptyState) instead of (EmptyState, (ScaleByAdamState, EmptyState)). Over 6 gradients with a x5000 spike at step 3: with max_norm 5 or 100 (lr 1e-2/1e-3) the updates are exact until the spike, then off by 1.3e-3 (lr 1e-3) to 1.4e-2 (lr 1e-2) at every later step, because Adam now sees the raw spike. With max_norm 1 (lr 1e-3) they already differ at step 1 (2.8e-4 random / 3.7e-4 real gradients), by 1.2e-6 to 2.4e-4 at steps 2 and 3, and by 1.3e-3 after the spike. With max_norm 0.5 (lr 3e-2) they differ by ~2.9e-2 at every step, because the clip now cuts Adam's updates. make_train_step is right (bit-identical with the reference's optimizer at B = 1/32/64/100/128); with its own optimizer, 20 steps give loss 0.502 vs 0.321.
# SHOULD-SAY: Clipping must come before Adam, but your chain comes out as adam then clip: jax.tree.leaves flattens your {"clip": ..., "adam": ...} dict in sorted key order. Adam sees unclipped gradients (a spike still blows up its moments) and clipping acts on the updates instead. Build the chain in an explicit order: optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)).
"""Exercise 5: gradient clipping in an optax chain, with the knobs exposed.

``make_optimizer`` passes any Adam option through (``b1``, ``b2``, ``eps``,
...), takes a ``clip`` switch and optional extra named stages;
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


def _is_transform(node):
    return isinstance(node, optax.GradientTransformation)


def make_optimizer(learning_rate=1e-3, max_norm=1.0, *, clip=True, extra_stages=None, **adam_kwargs):
    """Global-norm clipping, then Adam, as a named pipeline.

    Args:
      learning_rate: Adam's learning rate (a float or an optax schedule).
      max_norm: the largest global L2 norm a gradient may have.
      clip: set False (or ``max_norm=None``) to leave gradients unclipped.
      extra_stages: more named stages (a dict, list or nested mix of gradient
        transformations) merged into the pipeline.
      **adam_kwargs: overrides for ``_ADAM_DEFAULTS``.
    """
    unknown = set(adam_kwargs) - set(_ADAM_DEFAULTS) - {"mu_dtype", "nesterov"}
    if unknown:
        raise TypeError(f"unknown Adam options: {sorted(unknown)}")
    stages = {}
    if clip and max_norm is not None:
        stages["clip"] = optax.clip_by_global_norm(max_norm)
    stages["adam"] = optax.adam(learning_rate, **{**_ADAM_DEFAULTS, **adam_kwargs})
    if extra_stages:
        stages["extra"] = extra_stages
    # The stages may be nested in any pytree; flatten them down to the transforms.
    return optax.chain(*jax.tree.leaves(stages, is_leaf=_is_transform))


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

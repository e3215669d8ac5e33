"""Exercise 5 observations: optimizer updates over a gradient sequence; one training step."""

import jax
import jax.numpy as jnp
import numpy as np
import optax

from grader.harness.probe_tools import ResultDoesNotFit, as_jax, snapshot
from grader.exercises.ex5.shared import OPTIMIZERS
from grader.exercises.ex5.shared import (ASCENT_LR, CHAINED_STEPS, LARGE_MAX_NORM, LARGE_PARAMS, NEAR_MAX_NORM,
                                         SGD_LR)


def _adam_count(state):
    """The step count of the Adam state inside ``state`` (-1 when there is none to read)."""
    for leaf_path, leaf in jax.tree_util.tree_flatten_with_path(state)[0]:
        if str(getattr(leaf_path[-1], "name", "")) == "count":
            return int(np.asarray(leaf).reshape(-1)[0])
    return -1


class NotAnOptimizer(ResultDoesNotFit):
    """make_optimizer returned something without optax's ``init`` and ``update`` (a tuple or list of transforms,
    a function, None)."""


class StepReturnedDict(ResultDoesNotFit):
    """The step returned a dict: ``params, opt_state, loss = step(...)`` unpacks a dict into its keys."""


def _optimizer(made):
    """What make_optimizer returned, when it has optax's two functions; ``NotAnOptimizer`` naming its type else."""
    if callable(getattr(made, "init", None)) and callable(getattr(made, "update", None)):
        return made
    raise NotAnOptimizer(f"make_optimizer returned a {type(made).__name__}, not one optax GradientTransformation "
                         "(an object with .init and .update)")


def _run_updates(optimizer, params, grads_seq):
    optimizer = _optimizer(optimizer)
    state = optimizer.init(params)
    steps = {}
    for i, grads in enumerate(grads_seq):
        updates, state = optimizer.update(grads, state, params)
        steps[str(i)] = updates
    return steps


def _without_gradients(steps, params):
    """What updates made from zero gradients do, summed up: their largest size, and the share of the moved
    elements that move against their param's sign (weight decay's way) or by one fixed multiple of it."""
    flat = [(np.asarray(u, np.float64).reshape(-1), np.asarray(p, np.float64).reshape(-1))
            for step in steps.values() for u, p in zip(jax.tree_util.tree_leaves(step), jax.tree_util.tree_leaves(params))]
    updates = np.concatenate([u for u, _ in flat]) if flat else np.zeros(0)
    values = np.concatenate([p for _, p in flat]) if flat else np.zeros(0)
    moved = (updates != 0) & (values != 0)
    ratios = updates[moved] / values[moved]
    return {"largest": float(np.max(np.abs(updates))) if updates.size else 0.0,
            "moved": int(np.count_nonzero(updates)), "elements": int(updates.size),
            "against_sign": float(np.mean(ratios < 0)) if ratios.size else 0.0,
            "ratio_spread": float(np.std(ratios) / (abs(np.mean(ratios)) or 1.0)) if ratios.size else 0.0,
            "ratio": float(np.mean(ratios)) if ratios.size else 0.0}


def _counting(optimizer, counter):
    """Wrap ``optimizer`` so every Python-level call of ``update`` is counted.

    Under jax.jit a Python-level call happens once per trace, with tracers for
    gradients; without jit, once per step with concrete arrays. ``traced``
    counts the former, so a step that is never jitted can be told from one
    that is jitted anew on every call.
    """

    def update(updates, state, params=None, **extra_args):  # optax's own signature, keywords included
        counter["traces"] += 1
        counter["traced"] += any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree_util.tree_leaves(updates))
        return optimizer.update(updates, state, params, **extra_args)

    return _like(optimizer, update)


def _like(optimizer, update):
    """``optimizer`` with ``update`` in place of its own, of the very type optimizer is (optax's own constructors
    return GradientTransformationExtraArgs): a step that checks the type it was given sees what optax gives it."""
    return type(optimizer)(optimizer.init, update)


def _feeding(optimizer, fed, like):
    """Wrap ``optimizer`` so the first ``update`` call records what it was given: whether a tree shaped like
    ``like`` (the params), and its leaves' shapes (a step that crashes inside the optimizer still shows what it
    fed it)."""

    def update(updates, state, params=None, **extra_args):  # optax's own signature, keywords included
        if not fed:
            leaves = jax.tree_util.tree_leaves(updates)
            fed.append({"params_like": jax.tree_util.tree_structure(updates) == jax.tree_util.tree_structure(like),
                        "leaves": len(leaves), "shapes": [list(np.shape(leaf)) for leaf in leaves[:4]]})
        return optimizer.update(updates, state, params, **extra_args)

    return _like(optimizer, update)


def _fresh(tree):
    """New arrays in new dicts, in the same order: one step call's own copy of params.

    A step jitted with donate_argnums consumes (deletes) the buffers it is
    given; each call gets its own, so the probe's inputs survive for the next.
    """
    if isinstance(tree, dict):
        return {name: _fresh(value) for name, value in tree.items()}
    return jnp.array(tree, copy=True)


def _after_step(tree, original):
    """A step's params argument after the call, as numpy; a donated buffer was consumed, not changed."""
    if isinstance(tree, dict):
        return {name: _after_step(value, original.get(name) if isinstance(original, dict) else None)
                for name, value in tree.items()}
    if isinstance(tree, jax.Array) and tree.is_deleted():
        return np.array(original, copy=True) if original is not None else np.zeros(0, np.float32)
    return np.array(tree, copy=True)


class StepReturnedOtherCount(ResultDoesNotFit):
    """The step returned a tuple or list of another length than 3: ``params, opt_state, loss = step(...)`` fails."""


def _as_returned(result):
    """A step's result as the contract reads it: any tuple (a named one too) is the plain tuple it unpacks to; a
    dict, which unpacks into its keys, is ``StepReturnedDict``; a tuple or list of another length than three is
    ``StepReturnedOtherCount`` (the step's own result, not a failure inside it)."""
    if isinstance(result, dict):
        raise StepReturnedDict(f"the step returned a dict (keys {', '.join(map(repr, list(result)[:5]))}), which "
                               "params, opt_state, loss = step(...) unpacks into its keys")
    if isinstance(result, (tuple, list)) and len(result) != 3:
        raise StepReturnedOtherCount(f"the step returned a {type(result).__name__} of {len(result)} values; "
                                     "params, opt_state, loss = step(...) takes 3")
    return tuple(result) if isinstance(result, tuple) else result


def probe(rec, modules, inputs, options):
    m = modules["ex5_clipping"]
    data = as_jax(inputs["ex5"])
    params = data["params"]
    grads_seq = [data["grads"][str(i)] for i in range(len(data["grads"]))]
    for name, args, kwargs in OPTIMIZERS:
        rec.record(f"opt/{name}", lambda a=args, k=kwargs: _run_updates(m.make_optimizer(*a, **k), params, grads_seq))
    # A large max_norm on gradients as much larger: a clip switched off above some max_norm shows.
    scaled = [jax.tree_util.tree_map(lambda g: g * LARGE_MAX_NORM, grads) for grads in grads_seq]
    rec.record("opt/large_max_norm", lambda: _run_updates(m.make_optimizer(max_norm=LARGE_MAX_NORM), params, scaled))
    # A max_norm just below the ordinary gradients' norm: each is clipped by a little (see NEAR_MAX_NORM).
    rec.record("opt/near_max_norm", lambda: _run_updates(m.make_optimizer(max_norm=NEAR_MAX_NORM), params, grads_seq))
    # Clipping and Adam never read the params: with params 10,000 times larger, the updates must not change.
    large = jax.tree_util.tree_map(lambda leaf: leaf * LARGE_PARAMS, params)
    rec.record("opt/large_params", lambda: _run_updates(m.make_optimizer(), large, grads_seq))
    # ... and with every gradient zero, they are zero: whatever moves the params then comes from elsewhere.
    zeros = [jax.tree_util.tree_map(jnp.zeros_like, grads_seq[0])] * 2
    rec.record("opt/zero_grads", lambda: _without_gradients(_run_updates(m.make_optimizer(), params, zeros), params))
    # ... and make_optimizer() made again, after all those calls, gives the first call's updates: a result that
    # changes from call to call (state kept between calls) shows here; and it still gives them once another
    # optimizer has been made (settings shared between the optimizers show there).
    again = []

    def made_again():
        again.append(m.make_optimizer())
        return _run_updates(again[0], params, grads_seq)

    def after_another():
        _, args, kwargs = OPTIMIZERS[1]
        m.make_optimizer(*args, **kwargs)
        return _run_updates(again[0], params, grads_seq)

    rec.record("opt/again", made_again)
    if again:
        rec.record("opt/after_another", after_another)

    x, y = data["x"], data["y"]
    fed = []
    sgd = _feeding(optax.sgd(SGD_LR), fed, params)
    rec.record("step/sgd", lambda p=_fresh(params): _as_returned(m.make_train_step(sgd)(p, sgd.init(p), x, y)))
    rec.record("step/fed", lambda: fed[0] if fed else {})
    ascent = optax.sgd(ASCENT_LR)  # an update that raises the loss: it is applied all the same
    rec.record("step/ascent", lambda p=_fresh(params): _as_returned(m.make_train_step(ascent)(p, ascent.init(p), x,
                                                                                              y))[0])
    chain = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))
    chain_params = _fresh(params)
    chain_steps = []

    def chain_step():
        chain_steps.append(m.make_train_step(chain))
        return _as_returned(chain_steps[0](chain_params, chain.init(chain_params), x, y))

    rec.record("step/chain", chain_step)
    if chain_steps:  # the same step called again with the very same inputs: a pure step returns the same
        rec.record("step/again", lambda p=_fresh(params): _as_returned(chain_steps[0](p, chain.init(p), x, y)))
    if callable(getattr(m, "loss_fn", None)):  # the module's own loss at the same params and batch
        rec.record("loss/own", lambda p=_fresh(params): jnp.asarray(m.loss_fn(p, x, y), jnp.float32).reshape(()))
    if callable(getattr(m, "forward", None)):  # ... and its own forward pass (given code a student may change)
        rec.record("forward/own", lambda p=_fresh(params): m.forward(p, x))
    rec.record("input/step_params_after", lambda: _after_step(chain_params, params))
    if chain_steps:  # the same step on another batch of the same shapes (nothing new to compile): its loss
        other_x, other_y = as_jax(np.asarray(x) * 8.0), as_jax((np.asarray(y) + 3) % 10)
        rec.record("step/other_batch", lambda p=_fresh(params): _as_returned(
            chain_steps[0](p, chain.init(p), other_x, other_y))[2])
        # ... and on the same x with the labels moved among the examples (each example given another's label)
        moved_y = as_jax(np.roll(np.asarray(y), 1))
        rec.record("step/labels_moved", lambda p=_fresh(params): _as_returned(
            chain_steps[0](p, chain.init(p), x, moved_y))[2])

    def chained():
        # Several steps, each given what the previous returned: what one step cannot show (state threading,
        # Adam's moments and step count building up) shows here.
        optimizer = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))
        step = m.make_train_step(optimizer)
        p = _fresh(params)
        s = optimizer.init(p)
        losses, counts = [], []
        for _ in range(CHAINED_STEPS):
            p, s, loss = _as_returned(step(p, s, x, y))
            losses.append(loss)
            counts.append(_adam_count(s))
        return {"params": p, "state": s, "losses": jnp.stack([jnp.asarray(v, jnp.float32).reshape(())
                                                               for v in losses]),
                "counts": jnp.asarray(counts, jnp.int32)}

    rec.record("step/chained", chained)

    def repeated_calls():
        # The lesson's optimizer (what make_optimizer() builds), so a step that uses its own
        # make_optimizer() instead of its argument still runs and is judged for jit here.
        counter = {"traces": 0, "traced": 0}
        optimizer = _counting(optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3)), counter)
        step = m.make_train_step(optimizer)
        p = _fresh(params)
        s = optimizer.init(p)
        p, s, _loss = _as_returned(step(p, s, x, y))
        first = counter["traces"]  # update calls in the first step call (one trace): a step may make several
        after = [first]
        for _ in range(2):
            p, s, _loss = _as_returned(step(p, s, x, y))
            after.append(counter["traces"])
        jax.block_until_ready(p)
        return {"traces": counter["traces"], "traced": counter["traced"], "calls": 3, "first": first,
                "after": after, "has_lower": hasattr(step, "lower")}

    rec.record("step/traces", repeated_calls)
    rec.record("input/params_after", lambda: snapshot(params))

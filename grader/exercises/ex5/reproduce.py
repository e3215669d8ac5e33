"""How to see ex5's value checks fail in Python: one :class:`~grader.reproduce.Recipe` per check id.

The renderer (:mod:`grader.reproduce`) turns a recipe into the snippet a student pastes.
"""

from __future__ import annotations

from grader.exercises.ex5.shared import LARGE_PARAMS, OPTIMIZERS, SPIKE_STEP, arguments, lr_and_max_norm, written
from grader.reproduce import COMPARE_NOTE, NPREF, Recipe


_STEPS = ("opt = make_optimizer({args})\n"
          "state = opt.init(case['params'])\n"
          "grads = [case['grads'][str(i)] for i in range(len(case['grads']))]  # step {spike}: a norm spike\n"
          "want = npref.adam_updates([flat(g) for g in grads], {lr}, pre=lambda g: npref.clip_global(g, {max_norm}))\n"
          "for i, g in enumerate(grads):\n"
          "    updates, state = opt.update(g, state, case['params'])\n"
          "    print('step', i, mismatch(updates, want[i]))  " + COMPARE_NOTE)
#: make_optimizer() again with params LARGE_PARAMS times larger, where its updates must not change.
_LARGE = ("\nlarge = {{name: {{k: v * {large} for k, v in layer.items()}} for name, layer in case['params'].items()}}\n"
          "state = opt.init(large)  # clipping and Adam never read the params: the same updates are expected\n"
          "for i, g in enumerate(grads):\n"
          "    updates, state = opt.update(g, state, large)\n"
          "    print('params x {large:g}, step', i, mismatch(updates, want[i]))")
#: The make_optimizer call of each ``opt/<name>`` case of OPTIMIZERS: (arguments as written, learning rate,
#: max_norm).
_ARGS = {f"opt/{name}": (arguments(name), *lr_and_max_norm(name))
         for name, _args, _kwargs in OPTIMIZERS}


def _optimizer(observation: str) -> dict[str, object]:
    """The call and hyperparameters of an ``opt/<name>`` case, as the snippet writes them."""
    if observation not in _ARGS:
        return {}
    args, lr, max_norm = _ARGS[observation]
    return {"args": args, "lr": lr, "max_norm": max_norm, "spike": SPIKE_STEP, "large": LARGE_PARAMS}


RECIPES: dict[str, Recipe] = {
    "ex5.chain": Recipe("make_optimizer", "ex5_clipping", (("make_optimizer()", "ex5", "opt/default"),),
                        _STEPS + _LARGE, extra_imports=(NPREF,), uses=("params", "grads"),
                        fill=_optimizer),
    "ex5.hyperparams": Recipe("make_optimizer", "ex5_clipping", tuple(
        (written(name), "ex5", f"opt/{name}") for name, _args, _kwargs in OPTIMIZERS[1:]),
        _STEPS, extra_imports=(NPREF,), uses=("params", "grads"), fill=_optimizer),
    "ex5.step_values": Recipe("make_train_step", "ex5_clipping", (("one step", "ex5", "step/chain"),), (
        "import optax\n"
        "opt = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))\n"
        "new_params, new_state, loss = {function}(opt)(case['params'], opt.init(case['params']), case['x'], case['y'])\n"
        "grad = {{k: v.mean(0) for k, v in npref.per_example_grads(case['params'], case['x'], "
        "npref.one_hot(case['y'])).items()}}\n"
        "update = npref.adam_updates([grad], 1e-3, pre=lambda g: npref.clip_global(g, 1.0))[0]\n"
        "print('loss:', mismatch(loss, npref.cross_entropy(case['params'], case['x'], case['y'])))  "
        "# the loss BEFORE the update\n"
        "print('new params:', mismatch(new_params, {{k: v + update[k] for k, v in flat(case['params']).items()}}))"),
        extra_imports=(NPREF,), uses=("params", "x", "y")),
}

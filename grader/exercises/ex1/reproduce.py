"""How to see ex1's value checks fail in Python: one :class:`~grader.reproduce.Recipe` per check id.

The renderer (:mod:`grader.reproduce`) turns a recipe into the snippet a student pastes.
"""

from __future__ import annotations

from grader.exercises.ex1.shared import RATES
from grader.reproduce import COMPARE_NOTE, NPREF, Recipe



def _rate(observation: str) -> dict[str, str]:
    """The dropout rate of a ``dropout/rate<rate>`` case, as the snippet writes it."""
    return {"case_value": observation.removeprefix("dropout/rate")} if observation.startswith("dropout/rate") else {}


_DROPOUT = tuple((f"rate {r}", "ex1", f"dropout/rate{r}") for r in RATES)

RECIPES: dict[str, Recipe] = {
    "ex1.zero_fraction": Recipe("dropout", "ex1_dropout", _DROPOUT, (
        "rate = {case_value}\n"
        "got = np.asarray({function}(jax.random.PRNGKey(11), case['x'], rate))\n"
        "print('fraction zeroed:', np.mean(got == 0), 'expected about', rate)"), compare_reference=False,
        extra_imports=("import jax",), uses=("x",), fill=_rate),
    "ex1.rescale": Recipe("dropout", "ex1_dropout", _DROPOUT, (
        "rate = {case_value}\n"
        "got = np.asarray({function}(jax.random.PRNGKey(11), case['x'], rate))\n"
        "kept = got != 0\n"
        "print(mismatch(got[kept], np.asarray(case['x'])[kept] / (1 - rate)))  # survivors are x / (1 - rate)"),
        compare_reference=False, extra_imports=("import jax",), uses=("x",), fill=_rate),
    "ex1.identity": Recipe("dropout", "ex1_dropout", (("train=False", "ex1", "dropout/eval"),
                                                      ("rate=0", "ex1", "dropout/rate0")), (
        "print(mismatch({function}(jax.random.PRNGKey(11), case['x'], 0.5, False), case['x'], rtol=0, atol_scale=0))\n"
        "print(mismatch({function}(jax.random.PRNGKey(11), case['x'], 0.0), case['x'], rtol=0, atol_scale=0))"),
        extra_imports=("import jax",), uses=("x",)),
    "ex1.eval_forward": Recipe("forward_with_dropout", "ex1_dropout", (("eval mode", "ex1", "forward/eval"),), (
        "got = {function}(case['params'], case['xb'], jax.random.PRNGKey(11), 0.5, False)\n"
        "want = npref.mlp(case['params'], case['xb'])  # the plain forward pass, in numpy\n"
        "print(mismatch(got, want))  " + COMPARE_NOTE), extra_imports=("import jax", NPREF), uses=("params", "xb")),
}

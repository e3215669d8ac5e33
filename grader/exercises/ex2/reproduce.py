"""How to see ex2's value checks fail in Python: one :class:`~grader.reproduce.Recipe` per check id.

The renderer (:mod:`grader.reproduce`) turns a recipe into the snippet a student pastes.
"""

from __future__ import annotations

from grader.exercises.ex2.shared import GRAD_CASES, LARGEST_CASES
from grader.reproduce import COMPARE_NOTE, NPREF, Recipe


_GRADS = ("got = {function}(case['params'], case['x'], case['y'])\n"
          "want = npref.per_example_grads(case['params'], case['x'], npref.one_hot(case['y']))  "
          "# slice i: the gradient of example i's own loss\n"
          "print(mismatch(got, want))  " + COMPARE_NOTE)
_CASES = tuple((c, f"ex2/{c}", f"grads/{c}") for c in GRAD_CASES)

RECIPES: dict[str, Recipe] = {
    "ex2.shapes": Recipe("per_example_grads", "ex2_per_example_grads", _CASES, _GRADS,
                         extra_imports=(NPREF,)),
    "ex2.values": Recipe("per_example_grads", "ex2_per_example_grads", _CASES, _GRADS,
                         extra_imports=(NPREF,)),
    "ex2.norms": Recipe("per_example_grad_norms", "ex2_per_example_grads",
                        (("a tree of 6 examples", "ex2/norm_tree", "norms/tree"),), (
        "got = {function}(case)\n"
        "want = npref.per_example_norms(flat(case))  # sqrt of the sum of squares over every leaf, per example\n"
        "print(mismatch(got, want))  " + COMPARE_NOTE), extra_imports=(NPREF,),
        tree_kind="per-example gradient"),
    "ex2.largest": Recipe("largest_gradient_example", "ex2_per_example_grads",
                          tuple((c, f"ex2/{c}", f"largest/{c}") for c in LARGEST_CASES), (
        "got = {function}(case['params'], case['x'], case['y'])\n"
        "norms = npref.per_example_norms(npref.per_example_grads(case['params'], case['x'], npref.one_hot(case['y'])))\n"
        "print('got', repr(got), type(got).__name__, '| expected', int(np.argmax(norms)), 'int')"),
        compare_reference=False, extra_imports=(NPREF,)),
}

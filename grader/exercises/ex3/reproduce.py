"""How to see ex3's value checks fail in Python: one :class:`~grader.reproduce.Recipe` per check id.

The renderer (:mod:`grader.reproduce`) turns a recipe into the snippet a student pastes.
"""

from __future__ import annotations

from grader.exercises.ex3.shared import DEEP_CASE, DEPTH_CASES
from grader.reproduce import COMPARE_NOTE, NPREF, Recipe


_CODE = ("got = {function}(case['params'], case['x'])\n"
         "want = npref.mlp(case['params'], case['x'])  # the MLP written out in numpy\n"
         "print(mismatch(got, want))  " + COMPARE_NOTE)

RECIPES: dict[str, Recipe] = {
    "ex3.depths": Recipe("mlp_forward", "ex3_mlp_forward",
                         tuple((c, f"ex3/{c}", f"out/{c}") for c in DEPTH_CASES), _CODE,
                         extra_imports=(NPREF,)),
    "ex3.deep": Recipe("mlp_forward", "ex3_mlp_forward", (("12 layers", f"ex3/{DEEP_CASE}", f"out/{DEEP_CASE}"),),
                       _CODE, extra_imports=(NPREF,)),
    "ex3.output_linear": Recipe("mlp_forward", "ex3_mlp_forward",
                                tuple((c, f"ex3/{c}", f"out/{c}") for c in ("d3", "d5", DEEP_CASE)), _CODE,
                                extra_imports=(NPREF,)),
}

"""The output goes through log_softmax (log-probabilities), not returned as raw logits.

No known mistake id: the measurement on one layer names it in words. Every case is wrong, depth 1
included, so the checks that need credit in ex3.depths are skipped; ex3.deep fails on the same values.
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "", "hint": "raw values", "max_failing": 2,
          "also": ["ex3.deep", "ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda n: int(n[len("layer"):]))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return jax.nn.log_softmax(x @ last["w"] + last["b"])

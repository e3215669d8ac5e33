"""Each layer subtracts its bias (x @ w - b, the perceptron's threshold convention). The one-layer measurement
returns -b at x = 0, so the hint says the bias was subtracted.
"""

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.bias_subtracted", "hint": "bias was subtracted", "max_failing": 1,
          "also": ["ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    n = len(params)
    for i in range(1, n + 1):
        layer = params[f"layer{i}"]
        x = x @ layer["w"] - layer["b"]
        if i < n:
            x = jax.nn.relu(x)
    return x

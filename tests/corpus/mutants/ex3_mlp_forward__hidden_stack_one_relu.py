"""The hidden layers are folded with functools.reduce as plain affine maps, and one ReLU goes on the stack's
result before the output layer. Right at 2 layers; with 1 layer the ReLU lands on the input, with 3 or more the
ReLUs between hidden layers are missing. The placement measured at 1, 2 and 3 layers says so (not "a ReLU on
the input", which holds at one layer only).
"""

import functools

import jax

EXPECT = {"check": "ex3.depths", "mistake": "ex3.relu_placement", "hint": "measured in the message",
          "max_failing": 1, "also": ["ex3.deep"]}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    h = functools.reduce(lambda h, name: h @ params[name]["w"] + params[name]["b"], names[:-1], x)
    return jax.nn.relu(h) @ params[names[-1]]["w"] + params[names[-1]]["b"]

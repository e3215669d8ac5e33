"""The layer number is read digit by digit but the digits are added (no times ten), so layer10 sorts with layer1.

Up to nine layers this is right. With twelve, the order depends on the order the dict lists its keys in, and jax.jit
lists them sorted as text, so the eager and jitted outputs are both wrong and differ from each other. Nothing here is
impure: ex3.jit must say what it measured (the jitted output differs from the eager one, which is itself wrong), not
blame side effects or global state. ex3.deep charges the wrong order and quotes it, as measured from the first k
layers, k = 1..12 (layer10 runs right after layer1)."""

import jax

EXPECT = {"check": "ex3.deep", "mistake": "ex3.layer_order", "hint": "whole number", "max_failing": 2,
          "also": ["ex3.jit"]}


def _number(name):
    number = 0
    for ch in name:
        if ch.isdigit():
            number += int(ch)
    return number


def mlp_forward(params, x):
    names = sorted(params, key=_number)
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]

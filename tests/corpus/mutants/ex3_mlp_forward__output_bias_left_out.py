"""The output layer leaves out its bias (thought redundant under softmax); the hidden layers add theirs."""

import jax
import jax.numpy as jnp

EXPECT = {"check": "ex3.depths", "mistake": "ex3.no_output_bias", "hint": "output layer's bias", "max_failing": 1,
          "also": ["ex3.output_linear", "ex3.jit", "ex3.params_unchanged"]}


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    logits = jnp.einsum("bi,io->bo", x, params[names[-1]]["w"])
    return logits  # the loss's log_softmax makes the output bias redundant

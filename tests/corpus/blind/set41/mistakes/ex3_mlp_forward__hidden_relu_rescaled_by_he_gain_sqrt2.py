# BLIND-SET: 41
# EXERCISE: ex3
# WHAT: Every hidden ReLU output is multiplied by He et al.'s gain sqrt(2), so that it keeps the variance of its input (the ReLU halves the second moment), as in He et al.'s forward-propagation analysis. With N layers the output is that of the reference network with each hidden layer's activations scaled by 1.4142. The output differs at every depth >= 2; depth 1 is unchanged.
# SHOULD-SAY: For networks with at least one hidden layer the outputs are wrong, while a single linear layer is right. The cause is that each hidden activation is multiplied by sqrt(2): your hidden layers compute sqrt(2) * relu(...). The sqrt(2) of He initialisation belongs in the weights' initial standard deviation, sqrt(2 / fan_in), not in the forward pass. Use plain relu(h @ w + b).
"""Exercise 3: a generic MLP (He et al., 2015, "Delving deep into rectifiers").

The ReLU zeroes half of a symmetric input, so E[relu(y)^2] = Var[y] / 2; the factor
sqrt(2) restores the second moment from layer to layer.
"""

import math

import jax
import jax.numpy as jnp

HE_GAIN = math.sqrt(2.0)


def _layer_index(name):
    return int(name[len("layer"):])


def mlp_forward(params, x):
    """ReLU (variance-preserving) after every layer but the last, layers in numeric order."""
    names = sorted(params, key=_layer_index)
    h = x
    for name in names[:-1]:
        h = HE_GAIN * jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return h @ last["w"] + last["b"]

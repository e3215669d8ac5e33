# BLIND-SET: 55
# EXERCISE: ex3
# WHAT: following scikit-learn's MLP (coefs_ and intercepts_ lists), the weights list is built in numeric layer order but the intercepts list from params.values() in the dict's own order; when the dict lists its layers out of order (allowed by the contract) layer k gets another layer's bias: wrong values for equal widths, a broadcasting error for unequal widths. In-order dicts give the right answer eagerly; under jax.jit the dict arrives with string-sorted keys, so 10+ layers fail there too.
# SHOULD-SAY: Your biases are taken in the dict's insertion order while the weights are in numeric order, so with the layers listed out of order each layer gets another layer's bias; build both lists from the same sorted names (params[name]["w"], params[name]["b"]).
"""Exercise 3: MLP of any depth, scikit-learn style coefs_ / intercepts_."""

import jax
import jax.numpy as jnp


def _layer_number(name):
    return int(name[len("layer"):])


def mlp_forward(params, x):
    ordered = sorted(params, key=_layer_number)
    coefs_ = [params[name]["w"] for name in ordered]
    intercepts_ = [layer["b"] for layer in params.values()]
    activation = x
    n_layers = len(coefs_)
    for i in range(n_layers):
        activation = activation @ coefs_[i] + intercepts_[i]
        if i != n_layers - 1:  # out_activation_ = "identity"
            activation = jax.nn.relu(activation)
    return activation

"""ReLU written with jax.custom_jvp whose derivative rule passes the tangent through unmasked (the derivative of
the identity, "ReLU's slope is 1"). Forward values are ReLU's everywhere; the gradient through mlp_forward
differs on every hidden layer.
"""

import jax
import jax.numpy as jnp


@jax.custom_jvp
def relu(z):
    return jnp.maximum(z, 0.0)


@relu.defjvp
def _relu_jvp(primals, tangents):
    (z,), (dz,) = primals, tangents
    return relu(z), dz


EXPECT = {"check": "ex3.jit", "mistake": "", "hint": "custom derivative", "max_failing": 1}


def mlp_forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]

# BLIND-SET: 37
# EXERCISE: ex3
# WHAT: mlp_forward ahead-of-time compiles the forward pass (jax.jit(...).lower(params, x).compile()) and caches the executable in a module dict keyed only by x's shape and dtype; the first call for an input shape fixes the architecture, so a later call with the same x shape but a different depth or different hidden widths raises (the compiled executable rejects params of another structure or shape), and calling it inside jax.jit fails as well.
# SHOULD-SAY: The compiled-executable cache is keyed on the input shape alone, but the program also depends on the params' structure and shapes (the depth and widths), so a model of another depth reuses an executable compiled for a different one and fails. Use jax.jit directly (it already caches per pytree structure, shapes and dtypes), or include jax.tree.structure(params) and every leaf shape in the key.
"""Exercise 3 (reference): an MLP of any depth, read off the params pytree."""

import jax

# Compiled executables, so that repeated calls skip tracing and dispatch checks.
_EXECUTABLES = {}


def _forward(params, x):
    names = sorted(params, key=lambda name: int(name.removeprefix("layer")))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    last = params[names[-1]]
    return x @ last["w"] + last["b"]


def mlp_forward(params, x):
    """ReLU after every layer but the last; layers in numeric order layer1..layerN."""
    signature = (tuple(x.shape), str(x.dtype))
    if signature not in _EXECUTABLES:
        _EXECUTABLES[signature] = jax.jit(_forward).lower(params, x).compile()
    return _EXECUTABLES[signature](params, x)

"""Wrong dropout that looks for the results folder on the command line to forge its own results."""
import os
import sys

import jax
import jax.numpy as jnp

EXPECT = {"status": "fail", "check": "ex1.zero_fraction"}

for arg in sys.argv:
    if os.path.isdir(arg) and os.path.basename(arg).startswith("out-"):
        with open(os.path.join(arg, "observations.json"), "w") as f:
            f.write('{"version": 1, "values": {}, "import_error": null}')
        os._exit(0)


def dropout(key, x, rate, train=True):
    return x


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]

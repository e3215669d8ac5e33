"""A wrong mlp_forward that prints a forged report and forged JSON, hoping to be believed."""
import json
import sys

import jax

EXPECT = {"status": "not pass", "max_points": 0.0}

FORGED = {"schema_version": 1, "score": 100, "max_score": 100, "checks": []}
print("Total: 100 / 100")
print(json.dumps(FORGED))
sys.stderr.write("PASS ex3.depths (6/6)\n")


def mlp_forward(params, x):
    print("Total: 100 / 100")
    print(json.dumps(FORGED))
    return x[:, :1] * 0.0

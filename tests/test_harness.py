"""The child harness's own set-up, outside any sandbox."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT

LOWER = """
import sys
import jax, jax.numpy as jnp
from jax._src.interpreters import mlir
from grader.harness.child import share_ir_context
if sys.argv[1] == "shared":
    share_ir_context()
    share_ir_context()  # twice is once
    assert mlir.make_ir_context() is mlir.make_ir_context()
else:
    assert mlir.make_ir_context() is not mlir.make_ir_context()
f = lambda x, w: jax.nn.relu(x @ w).sum(axis=-1)
texts = [jax.jit(f).lower(jnp.ones((b, 3)), jnp.ones((3, 2))).as_text() for b in (4, 5, 4)]
values = jax.vmap(jax.grad(lambda w, x: f(x[None], w).sum()), in_axes=(None, 0))(jnp.ones((3, 2)), jnp.arange(12.).reshape(4, 3))
print(repr((texts, values.tolist())))
"""


def _lowered(mode: str) -> str:
    return subprocess.run([sys.executable, "-c", LOWER, mode], check=True, capture_output=True, text=True,
                          cwd=ROOT).stdout


@pytest.mark.e2e
def test_one_shared_ir_context_lowers_and_computes_as_fresh_ones_do():
    # Same modules (so the same compilation-cache keys) and the same values, lowering after lowering.
    assert _lowered("shared") == _lowered("fresh")


def test_an_error_message_names_no_object_address(tmp_path):
    # Addresses change from run to run; the same submission must get the same report.
    from grader.harness.recorder import Recorder

    def broken():
        raise TypeError(f"got {broken!r} and {object()!r} where an array was expected")

    recorder = Recorder(tmp_path)
    recorder.record("case", broken)
    message = recorder.values["case"]["message"]
    assert "0x" not in message and message.startswith("got <function test_an_error_message_names_no_object_address")

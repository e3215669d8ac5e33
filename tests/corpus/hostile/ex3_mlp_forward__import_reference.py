"""Tries to copy the answer from the reference solutions."""
from reference.ex3_mlp_forward import mlp_forward  # noqa: F401

EXPECT = {"status": "error", "message": "may not import 'reference"}

"""Dereferences a null pointer when dropout is called: the child dies of SIGSEGV."""
import ctypes

import jax
import jax.numpy as jnp

EXPECT = {"status": "error", "message": "SIGSEGV"}


def dropout(key, x, rate, train=True):
    ctypes.string_at(0)
    return x


def forward_with_dropout(params, x, key, rate=0.5, train=True):
    ctypes.string_at(0)
    return x

"""jax-autograder: grade the exercises of the lesson "Introduction to JAX".

In a notebook cell, ``import grader; grader.check("ex1")`` grades what the
kernel has run (see :mod:`grader.notebook`). Importing the package is cheap:
``check`` and everything behind it load on first use.
"""

__all__ = ["check"]


def __getattr__(name: str):
    if name == "check":
        from grader.notebook import check

        return check
    raise AttributeError(f"module 'grader' has no attribute {name!r}")

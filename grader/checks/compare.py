"""Numerical comparison with messages that say what, where and by how much.

Every mismatch is gathered (up to a few per comparison), chex-style, so a
student sees the whole picture: which leaf, which element, the largest
absolute and relative error, the values.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from grader.checks.npref import column_major_read_as_row_major, row_major_read_as_column_major

RTOL = 1e-4
ATOL_SCALE = 1e-5
_MAX_REPORTED = 2


def _fmt_index(index: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(i) for i in index) + "]"


def array_mismatch(got: Any, want: Any, *, rtol: float = RTOL, atol_scale: float = ATOL_SCALE) -> str | None:
    """``None`` if ``got`` matches ``want`` to float32 tolerance, else what differs.

    The absolute tolerance scales with the largest expected magnitude, so tiny
    and large quantities are judged alike: ``|got - want| <= atol + rtol*|want|``
    with ``atol = atol_scale * max|want| + 1e-7``.
    """
    want = np.asarray(want, dtype=np.float64)
    try:
        got = np.asarray(got, dtype=np.float64)
    except (TypeError, ValueError):
        return f"got a value that is not numeric, expected an array of shape {want.shape}"
    if got.shape != want.shape:
        return f"shape {got.shape}, expected {want.shape}"
    if want.size == 0:
        return None
    if not np.all(np.isfinite(got)) and np.all(np.isfinite(want)):
        bad = np.argwhere(~np.isfinite(got))[0]
        return f"non-finite value {got[tuple(bad)]} at {_fmt_index(tuple(bad))} (NaN or inf)"
    atol = atol_scale * float(np.max(np.abs(want))) + 1e-7
    diff = np.abs(got - want)
    bad = diff > atol + rtol * np.abs(want)
    if not np.any(bad):
        return None
    worst = np.unravel_index(int(np.argmax(np.where(bad, diff, -1))), diff.shape)
    rel = diff / np.maximum(np.abs(want), atol)
    narrow = sixteen_bit(got) if not sixteen_bit(want) else ""
    return (
        f"{int(bad.sum())} of {want.size} elements differ; largest absolute error "
        f"{diff[worst]:.3g} at {_fmt_index(tuple(int(i) for i in worst))} "
        f"(got {got[worst]:.6g}, expected {want[worst]:.6g}); largest relative error {float(np.max(rel)):.3g}"
        + (f"; measured: every value got has at most {SIXTEEN_BIT_MANTISSAS[narrow]} significant bits, as a {narrow} number has "
           f"(the float32 expected has 24): it was computed in {narrow}, or rounded to it" if narrow else "")
    )


#: Significant bits of the 16-bit floats' mantissas (the leading bit included).
SIXTEEN_BIT_MANTISSAS = {"bfloat16": 8, "float16": 11}


def sixteen_bit(values: Any) -> str:
    """"bfloat16" or "float16" when the finite non-zero values (at least 16 of them, not all whole numbers) use
    that type's significant bits and none more, a quarter of them all (as rounded values do, where whole numbers
    and other short values use few); "" otherwise."""
    v = np.asarray(values, np.float64).ravel()
    v = v[np.isfinite(v) & (v != 0)]
    if v.size < 16 or np.all(v == np.round(v)):
        return ""
    mantissa = np.abs(np.frexp(v)[0])  # in [0.5, 1)
    for name, bits in SIXTEEN_BIT_MANTISSAS.items():
        scaled = mantissa * 2.0 ** bits
        if np.all(scaled == np.round(scaled)):
            return name if np.mean(scaled % 2 == 1) >= 0.25 else ""
    return ""


def rounded_to(values: Any, kind: str) -> np.ndarray:
    """``values`` rounded to the significant bits of ``kind`` (a key of ``SIXTEEN_BIT_MANTISSAS``), half to even,
    as a cast to that type rounds them (its range left aside)."""
    mantissa, exponent = np.frexp(np.asarray(values, np.float64))
    scale = 2.0 ** SIXTEEN_BIT_MANTISSAS[kind]
    return np.ldexp(np.round(mantissa * scale) / scale, exponent)


SIXTEEN_BIT_WORDS = "about the rounding of a 16-bit float, which keeps 3 or 4 significant digits"


def rounding_error(got: Any, want: Any) -> float | None:
    """The largest relative error of ``got``, when every element is off by no more than a 16-bit float's rounding
    (float16 or bfloat16, within 1%) and some by more than float32's; None otherwise."""
    try:
        got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    except (TypeError, ValueError):
        return None
    if got.shape != want.shape or not want.size or not np.all(np.isfinite(got)) or not np.all(want != 0):
        return None
    off = float(np.max(np.abs(got - want) / np.abs(want)))
    return off if RTOL < off < 1e-2 else None


def tree_mismatch(got: Any, want: Any, **tol: float) -> str | None:
    """Compare two ``{path: array}`` trees (as observations store them) leaf by leaf."""
    if not isinstance(got, dict):
        if not isinstance(want, dict):
            return array_mismatch(got, want, **tol)
        return f"got a single {type(got).__name__}, expected a pytree with leaves {sorted(want)}"
    if not isinstance(want, dict):
        return f"got a pytree with leaves {sorted(got)}, expected a single array"
    missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"missing leaves {missing}")
        if extra:
            parts.append(f"unexpected leaves {extra}")
        return "the pytree has the wrong structure: " + "; ".join(parts)
    problems = []
    for path in want:
        problem = array_mismatch(got[path], want[path], **tol)
        if problem:
            problems.append(f"leaf '{path}': {problem}")
    if not problems:
        return None
    shown = problems[:_MAX_REPORTED]
    more = len(problems) - len(shown)
    return "; ".join(shown) + (f"; and {more} more leaves" if more else "")


def close(got: Any, want: Any, **tol: float) -> bool:
    return tree_mismatch(got, want, **tol) is None


def common_factor(got: Any, want: Any, rtol: float = 1e-4, of_got: bool = False) -> float | None:
    """The one factor k with ``got = k * want`` over every leaf of two ``{path: array}`` trees (or two arrays),
    measured by least squares; None when no one factor fits within ``rtol`` (relative to ``want``'s norm and
    to k; with ``of_got``, relative to ``got``'s norm, which a small k does not loosen), when the structures or
    shapes differ, or when ``want`` is all zeros."""
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(got) != set(want):
            return None
        keys = sorted(want)
    else:
        got, want, keys = {"": got}, {"": want}, [""]
    try:
        g = [np.asarray(got[k], np.float64) for k in keys]
    except (TypeError, ValueError):
        return None
    w = [np.asarray(want[k], np.float64) for k in keys]
    if any(a.shape != b.shape for a, b in zip(g, w)):
        return None
    g, w = np.concatenate([a.ravel() for a in g]), np.concatenate([b.ravel() for b in w])
    if not np.all(np.isfinite(g)) or not np.any(w):
        return None
    k = float(g @ w / (w @ w))
    scale = np.linalg.norm(g) if of_got else np.linalg.norm(w) * max(1.0, abs(k))
    return k if np.linalg.norm(g - k * w) <= rtol * scale else None


def rearranged(got: Any, want: Any) -> str:
    """Words for ``got`` holding exactly ``want``'s values in other places (same shape, sorted values agree, the
    arrays do not), naming the rearrangement when it is a reshape where a transpose belongs; "" otherwise."""
    try:
        g, w = np.asarray(got, np.float64), np.asarray(want, np.float64)
    except (TypeError, ValueError):
        return ""
    if g.shape != w.shape or g.ndim != 2 or array_mismatch(g, w) is None:
        return ""
    if array_mismatch(np.sort(g, axis=None), np.sort(w, axis=None)) is not None:
        return ""
    rows, cols = w.shape
    for words, form in (
            (f"the right array's transpose, shape ({cols}, {rows}), reshaped to ({rows}, {cols}) where a transpose "
             "belongs", column_major_read_as_row_major(w)),
            (f"the right array reshaped to ({cols}, {rows}) and then transposed, where it needed neither",
             row_major_read_as_column_major(w))):
        if array_mismatch(g, form) is None:
            return f"exactly the right values in other places: {words}"
    return "exactly the right values in other places (the same values, moved between rows and columns)"

"""What a child run is given and gives back, and the files its observations travel in: plain data.

A run is given :class:`Limits`; it gives back a :class:`RunResult` holding
:class:`Observations` (named values, or the :class:`ObservationError` each
raised). The child (``grader.harness.recorder``) writes its observations with
:func:`write` into two files of its results folder, :data:`INDEX` (JSON) and
:data:`ARRAYS` (an ``.npz`` of plain numbers); the grader reads them back with
:func:`read_observations`, which checks them against the very schema
:func:`write` produces and never unpickles anything.

Standard library and numpy only, and no process code: the checks, the sealed
reference and the plots read these types without the sandbox, and a confined
child imports this module to write its results (so it may read it:
``grader.sandbox.policy``).
"""

from __future__ import annotations

import json
import os
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from grader import untrusted

if TYPE_CHECKING:
    from grader.results import RunStatus

#: The two files of a child's results folder: the index of every value, and the arrays it names.
INDEX = "observations.json"
ARRAYS = "observations.npz"
FILES = (INDEX, ARRAYS)
#: The index's format version.
VERSION = 2
_MAX_JSON_BYTES = 8 << 20
_MAX_NPZ_BYTES = 256 << 20


@dataclass(frozen=True)
class Limits:
    """Resource limits for one child run."""

    timeout: float = 120.0
    """Wall-clock seconds before the child is killed."""
    memory_bytes: int = 6 << 30
    """Address-space cap (``RLIMIT_AS``); JAX reserves generously, so keep it high."""
    output_bytes: int = 64 << 10
    """How much of stdout and of stderr is kept; the rest is counted and dropped."""
    confine: bool = True
    """Confine the child with the strongest mechanisms this machine offers (:mod:`grader.sandbox.policy`); turning
    it off is for measuring what confinement costs, never for grading."""
    fork: bool = True
    """Fork children from the fork server (:mod:`grader.sandbox.forkserver`) where that is safe, instead of
    starting a fresh interpreter for each; the results are the same."""


#: One frame of a traceback as the recorder writes it: ``  File "ex1_dropout.py", line 12, in dropout``.
_FRAME = re.compile(r'^  File "([^"\n]+\.py)", line (\d+)', re.MULTILINE)
#: Where a syntax error's message puts its place: ``invalid syntax (ex1_dropout.py, line 3)``.
_SYNTAX_PLACE = re.compile(r"\(([^()\n]+\.py), line (\d+)\)\s*$")
_SYNTAX_ERRORS = ("SyntaxError", "IndentationError", "TabError")


#: The crash kind of a result a probe refused (``grader.harness.probe_tools.ResultDoesNotFit``): the function
#: returned something the contract does not allow; nothing raised inside it.
RESULT_DOES_NOT_FIT = "result_does_not_fit"


@dataclass(frozen=True)
class ObservationError:
    """An exception raised by student code while one observation was taken."""

    type: str
    message: str
    traceback: str = ""
    kind: str = ""
    """What kind of crash, as the child classified it from the exception object (its ``crash`` field; see
    grader.checks.common.CRASH_HINTS)."""
    detail: str = ""
    """What the child measured of the crash where its kind calls for it (which two arguments arrived in each
    other's places, and from which call), in words for the report; "" otherwise."""

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> ObservationError:
        """The error as the harness records it (``grader.harness.recorder.Recorder.describe``), fields checked."""
        for name in ERROR_FIELDS:
            _text(record[name], f"an error's {name}")
        return cls(_clean(record["type"]), _clean(record["message"]), _clean(record["traceback"]),
                   _clean(record["crash"]), _clean(record["detail"])[:600])

    def summary(self) -> str:
        text = f"{self.type}: {self.message}".strip()
        text = text if len(text) < 600 else text[:600] + " ..."
        return f"{text}; measured: {self.detail}" if self.detail else text

    def location(self) -> tuple[str, int]:
        """``(file, line)`` of the innermost frame of the student's own code in :attr:`traceback`, or ``("", 0)``.

        The traceback lists only the student's frames (``grader.harness.recorder``), in Python's format; a
        syntax error has none (it is raised while compiling) and names its place in its message instead.
        """
        frames = _FRAME.findall(self.traceback)
        if frames:
            return frames[-1][0], int(frames[-1][1])
        where = _SYNTAX_PLACE.search(self.message) if self.type in _SYNTAX_ERRORS else None
        return (where.group(1), int(where.group(2))) if where else ("", 0)


@dataclass(frozen=True)
class Observations:
    """What a child observed: named values (arrays, trees of arrays, JSON) or errors."""

    values: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, ObservationError] = field(default_factory=dict)
    import_error: ObservationError | None = None

    def has(self, name: str) -> bool:
        return name in self.values

    def observed(self, name: str) -> bool:
        """Whether ``name`` was recorded at all, as a value or as an error (a probe older than a measurement
        records neither)."""
        return name in self.values or name in self.errors

    def __getitem__(self, name: str) -> Any:
        return self.values[name]


@dataclass(frozen=True)
class RunResult:
    """How a child run ended, and what it observed."""

    status: RunStatus
    observations: Observations
    seconds: float
    returncode: int | None = None
    stdout: str = ""
    stderr: str = ""
    stdout_bytes: int = 0
    detail: str = ""


# --- the files: written by the child, read by the grader -----------------------------------------------------

def array_key(number: int) -> str:
    """The name of the ``number``-th array in :data:`ARRAYS`."""
    return f"a{number}"


def json_entry(value: Any) -> dict[str, Any]:
    """An index entry for a plain JSON value."""
    return {"kind": "json", "value": value}


def array_entry(key: str) -> dict[str, Any]:
    """An index entry for one array, stored under ``key`` (:func:`array_key`)."""
    return {"kind": "array", "key": key}


def tree_entry(keys: dict[str, str]) -> dict[str, Any]:
    """An index entry for a tree of arrays: each leaf's path (``layer1/w``) and the key of its array."""
    return {"kind": "tree", "keys": keys}


def error_entry(error: dict[str, str]) -> dict[str, Any]:
    """An index entry for an observation that raised: ``error`` has the fields of :data:`ERROR_FIELDS`."""
    return {"kind": "error", **error}


def write(out_dir: Path, values: dict[str, dict[str, Any]], arrays: dict[str, np.ndarray],
          import_error: dict[str, str] | None) -> None:
    """Write a child's results into ``out_dir``: ``values`` of the entries above, the arrays they name, and the
    import error (:data:`ERROR_FIELDS` and ``module``) that stopped every observation, if any."""
    np.savez(out_dir / ARRAYS, **arrays)
    index = {"version": VERSION, "values": values, "import_error": import_error}
    (out_dir / INDEX).write_text(json.dumps(index, allow_nan=True))


class ForgedResults(ValueError):
    """The results folder holds something the harness never writes: the submission's code wrote it."""


#: What every forged-results message starts with: the submission, not the grader, is charged.
FORGED = "your code wrote the grader's results itself"
#: The limits below sit above anything the harness writes for any student's return value (whose size the
#: 8 MB index already bounds), so only results the harness did not write break them.
_MAX_JSON_DEPTH = 100
"""Nesting of a recorded JSON value (the harness records flat lists and small dicts)."""
_MAX_NAMES = 100_000
"""Observations, tree leaves and arrays in one run's results, each."""
_MAX_ARRAY_DIMS = 32
_ARRAY_KEY = re.compile(r"a[0-9]{1,9}")
#: The fields of a recorded error (``grader.harness.recorder.Recorder.describe``).
ERROR_FIELDS = frozenset({"type", "message", "traceback", "crash", "detail"})
#: The fields of each kind of index entry (:func:`json_entry` and the others).
_ENTRY_FIELDS = {"array": {"kind", "key"}, "tree": {"kind", "keys"}, "json": {"kind", "value"},
                 "error": {"kind"} | ERROR_FIELDS}


def read_observations(out_dir: Path) -> Observations:
    """Load a child's results, checked against the schema the harness writes.

    Both files are read as a submission's files are (:mod:`grader.untrusted`: no
    link, no special file, bounded size); the index must be JSON of the
    harness's shape, bounded in depth, count and length, and the arrays plain
    numbers whose declared size fits the cap before any is read. Anything else
    raises :class:`ForgedResults`; a missing file raises ``FileNotFoundError``
    (the run ended before it reported).
    """
    try:
        raw = untrusted.read_bytes(out_dir / INDEX, _MAX_JSON_BYTES, root=out_dir)
        try:
            index = json.loads(raw.decode("utf-8"))
        except RecursionError:
            raise ForgedResults(f"{INDEX} is nested too deeply") from None
        except ValueError as exc:  # also UnicodeDecodeError
            raise ForgedResults(f"{INDEX} is not JSON ({type(exc).__name__})") from None
        values, errors, import_error, keys = _check_index(index)
        arrays = _read_arrays(out_dir, keys)
    except untrusted.UnsafeFile as exc:
        raise ForgedResults(str(exc).replace(str(out_dir) + os.sep, "")) from None
    for name, value in values.items():
        if isinstance(value, _ArrayRef):
            values[name] = arrays[value.key]
        elif name in keys.trees:
            values[name] = {path: arrays[ref.key] for path, ref in value.items()}
    return Observations(values, errors, import_error)


@dataclass(frozen=True)
class _ArrayRef:
    key: str


@dataclass
class _Keys:
    arrays: set[str] = field(default_factory=set)
    trees: set[str] = field(default_factory=set)


def _check_index(index: Any) -> tuple[dict[str, Any], dict[str, ObservationError], ObservationError | None, _Keys]:
    """The index's values (arrays as :class:`_ArrayRef`), errors and import error; :class:`ForgedResults` if off-schema."""
    if not isinstance(index, dict) or set(index) != {"version", "values", "import_error"} \
            or type(index["version"]) is not int or index["version"] != VERSION or not isinstance(index["values"], dict):
        raise ForgedResults(f"{INDEX} does not have the harness's fields (version, values, import_error)")
    entries = index["values"]
    if len(entries) > _MAX_NAMES:
        raise ForgedResults(f"{INDEX} records more than {_MAX_NAMES:,} values")
    keys = _Keys()
    values: dict[str, Any] = {}
    errors: dict[str, ObservationError] = {}
    for name, entry in entries.items():
        _text(name, "a value's name")
        kind = entry.get("kind") if isinstance(entry, dict) else None
        if kind not in _ENTRY_FIELDS or set(entry) != _ENTRY_FIELDS[kind]:
            raise ForgedResults(f"value {name[:80]!r} of {INDEX} is not one the harness writes")
        if kind == "array":
            values[name] = _ArrayRef(_key(entry["key"]))
            keys.arrays.add(entry["key"])
        elif kind == "tree":
            leaves = entry["keys"]
            if not isinstance(leaves, dict) or len(leaves) > _MAX_NAMES:
                raise ForgedResults(f"tree {name[:80]!r} of {INDEX} is not a mapping of leaves to arrays")
            values[name] = {_text(path, "a tree path"): _ArrayRef(_key(key))
                            for path, key in leaves.items()}
            keys.arrays.update(leaves.values())
            keys.trees.add(name)
        elif kind == "json":
            _check_json(entry["value"], name)
            values[name] = entry["value"]
        else:
            errors[name] = ObservationError.from_record(entry)
    import_error = index["import_error"]
    if import_error is not None:
        if not isinstance(import_error, dict) or set(import_error) != ERROR_FIELDS | {"module"}:
            raise ForgedResults(f"the import error in {INDEX} is not one the harness writes")
        _text(import_error["module"], "a module name")
    return values, errors, (ObservationError.from_record(import_error) if import_error is not None else None), keys


def _key(key: Any) -> str:
    if not isinstance(key, str) or not _ARRAY_KEY.fullmatch(key):
        raise ForgedResults(f"{INDEX} names an array the harness would not name")
    return key


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ForgedResults(f"{what} in {INDEX} is a {type(value).__name__}, not text")
    return value


def _check_json(value: Any, name: str) -> None:
    """A recorded JSON value: JSON types only, at most :data:`_MAX_JSON_DEPTH` deep (checked without recursion)."""
    pending = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if depth > _MAX_JSON_DEPTH:
            raise ForgedResults(f"value {name[:80]!r} of {INDEX} is nested more than "
                                f"{_MAX_JSON_DEPTH} levels deep")
        if isinstance(item, dict):
            for key, child in item.items():
                _text(key, "a key")
                pending.append((child, depth + 1))
        elif isinstance(item, list):
            pending.extend((child, depth + 1) for child in item)
        elif isinstance(item, str):
            _text(item, "a text value")
        elif item is not None and not isinstance(item, (bool, int, float)):
            raise ForgedResults(f"value {name[:80]!r} of {INDEX} holds a {type(item).__name__}")


def _read_arrays(out_dir: Path, keys: _Keys) -> dict[str, np.ndarray]:
    """The arrays of :data:`ARRAYS`: numbers only, each member's declared size checked before it is read."""
    arrays: dict[str, np.ndarray] = {}
    budget = _MAX_NPZ_BYTES
    with untrusted.open_regular(out_dir / ARRAYS, root=out_dir, limit=_MAX_NPZ_BYTES) as handle:
        try:
            archive = zipfile.ZipFile(handle)
        except (zipfile.BadZipFile, ValueError, OSError) as exc:
            raise ForgedResults(f"{ARRAYS} is not an archive of arrays ({exc})") from None
        with archive:
            members = archive.infolist()
            if len(members) > _MAX_NAMES:
                raise ForgedResults(f"{ARRAYS} holds more than {_MAX_NAMES:,} arrays")
            for info in members:
                key = info.filename[:-4] if info.filename.endswith(".npy") else ""
                if not _ARRAY_KEY.fullmatch(key) or key in arrays:
                    raise ForgedResults(f"{ARRAYS} holds {info.filename[:80]!r}, not an array the "
                                        "harness writes")
                arrays[key] = _read_array(archive, info, budget)
                budget -= arrays[key].nbytes
    missing = sorted(keys.arrays - set(arrays))
    if missing:
        raise ForgedResults(f"{INDEX} names arrays that {ARRAYS} lacks ({', '.join(missing[:5])})")
    return arrays


def _read_array(archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int) -> np.ndarray:
    fmt = np.lib.format
    try:
        with archive.open(info) as member:
            version = fmt.read_magic(member)
            read_header = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
            shape, fortran, dtype = read_header(member)
            if dtype.kind not in "biuf" or dtype.fields is not None or dtype.subdtype is not None \
                    or len(shape) > _MAX_ARRAY_DIMS:
                raise ForgedResults(f"{ARRAYS} holds {info.filename!r} of dtype {dtype}, not numbers")
            nbytes = int(np.prod(shape, dtype=object)) * dtype.itemsize
            if nbytes > budget:
                raise ForgedResults(f"{ARRAYS} holds more than {_MAX_NPZ_BYTES >> 20} MB of arrays")
            data = bytearray(member.read(nbytes + 1))
    except ForgedResults:
        raise
    except Exception as exc:  # noqa: BLE001 - zlib, header and encryption errors: a member the harness never wrote
        raise ForgedResults(f"{ARRAYS}: {info.filename[:80]!r} is not a readable array "
                            f"({type(exc).__name__})") from None
    if len(data) != nbytes:
        raise ForgedResults(f"{ARRAYS}: {info.filename!r} does not hold the size its header declares")
    return np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C")


def _clean(text: str) -> str:
    """Text a submission controls, made encodable (a lone surrogate would break every writer)."""
    return text.encode("utf-8", "replace").decode("utf-8")

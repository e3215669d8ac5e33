"""Grade a class on a Dask distributed cluster: ``python -m grader batch ... --dask ADDRESS``.

Each submission is one task. The batch's process packs the entry's files and
the reference observations it pinned, so a worker on any machine grades the
same bytes against the same reference: the reference is computed once, here,
and sent to every worker once (``scatter``); a worker installs it in its own
cache and grades with the digest pinned. On the worker the task grades exactly
as the local executor does, in a grading process of its own with the
submission's deadline (:func:`grader.batch.pool.grade_isolated`). Every task
returns a row: a task whose worker died is submitted once more, and a second
death gives an ``error`` row saying so. Resume and the per-student outputs are
the batch's, as for ``--jobs``.

Needs the optional dependency ``dask[distributed]`` (``pip install "jax-autograder[dask]"``).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable

from grader.batch.discover import Entry
from grader.batch.grading import Outcome
from grader.config import Options

MAX_ENTRY_BYTES = 256 << 20
"""Largest submission shipped to a worker (a zip is also bounded by ``--max-archive-mb`` when unpacked)."""


class DaskUnavailable(RuntimeError):
    """``--dask`` was given, but dask.distributed is not installed or the scheduler cannot be reached."""


def pack_entry(entry: Entry) -> dict[str, Any]:
    """The entry's files as data: ``{"id", "kind", "paths": [{"name", "files": {relpath: bytes}}]}``."""
    packed, total = [], 0
    for path in entry.paths:
        files: dict[str, bytes] = {}
        for file in ([path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file() and not p.is_symlink())):
            data = file.read_bytes()
            total += len(data)
            if total > MAX_ENTRY_BYTES:
                raise ValueError(f"{entry.describe()} is larger than {MAX_ENTRY_BYTES >> 20} MiB")
            files["" if file == path else file.relative_to(path).as_posix()] = data
        packed.append({"name": path.name, "dir": path.is_dir(), "files": files})
    return {"id": entry.id, "kind": entry.kind, "paths": packed}


def unpack_entry(packed: dict[str, Any], root: Path) -> Entry:
    """Write a packed entry under ``root``; the entry, with the same names, pointing there."""
    paths = []
    for item in packed["paths"]:
        target = root / item["name"]
        if item["dir"]:
            target.mkdir(parents=True, exist_ok=True)
        for rel, data in item["files"].items():
            dest = target if rel == "" else target / rel
            if not dest.resolve().is_relative_to(root.resolve()):
                raise ValueError(f"a packed file escapes its folder: {rel!r}")
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
        paths.append(target)
    return Entry(packed["id"], tuple(paths), packed["kind"])


def pack_reference(options: Options) -> dict[str, Any]:
    """The pinned reference observations from this machine's cache: ``{"key", "files": {relpath: bytes}}``."""
    from grader import inputs
    from grader.expected import sealed
    from grader.expected.cache import cache_folder, find_reference

    source = find_reference(options.reference_dir)
    if sealed.is_sealed(source):  # a sealed reference needs no cache: each worker reads its own (same package)
        return {"key": "", "files": {}}
    with tempfile.TemporaryDirectory() as tmp:
        folder = cache_folder(source, inputs.write(Path(tmp) / "inputs.npz", options.seed), options.cache_dir)
    files = {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
             if p.is_file() and p.relative_to(folder).parts[0] not in ("xla",)}
    return {"key": folder.name, "files": files}


def install_reference(packed: dict[str, Any], options: Options) -> None:
    """Put the batch's reference observations into this worker's cache (atomically; concurrent tasks race)."""
    from grader.expected.cache import default_cache_dir

    if not packed["key"]:  # sealed: nothing to install
        return
    cache = options.cache_dir or default_cache_dir()
    folder = cache / packed["key"]
    for rel, data in packed["files"].items():
        dest = folder / rel
        if dest.is_file() and dest.read_bytes() == data:
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkstemp(dir=dest.parent, prefix=".incoming-")[1])
        tmp.write_bytes(data)
        tmp.replace(dest)


def grade_task(packed: dict[str, Any], options_json: dict[str, Any], key: str, reference: dict[str, Any],
               deadline: float) -> dict[str, Any]:
    """Run on a Dask worker: unpack, install the reference, grade in a process of its own; the row as JSON."""
    from grader.batch.pool import grade_isolated

    options = Options.from_json(options_json)
    install_reference(reference, options)
    scratch = Path(tempfile.mkdtemp(prefix="jax-grader-dask-"))
    try:
        entry = unpack_entry(packed, scratch / "entry")
        return grade_isolated(entry, key, options, scratch / "work", deadline).to_json()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run(address: str, todo: list[Entry], keys: dict[str, str], options: Options, deadline: float,
        record: Callable[[Outcome], None], say: Callable[[str], None] = lambda message: None) -> None:
    """Grade ``todo`` on the cluster at ``address``, recording one row per entry as each lands."""
    try:
        from distributed import Client, as_completed
    except ImportError as exc:
        raise DaskUnavailable('--dask needs dask.distributed: pip install "jax-autograder[dask]"') from exc
    try:
        client = Client(address)  # waits distributed.comm.timeouts.connect (dask's config; 30 s by default)
    except (OSError, TimeoutError) as exc:
        raise DaskUnavailable(f"cannot reach the Dask scheduler at {address} ({exc}); start it, or check "
                              "the address (tcp://HOST:8786)") from exc
    with client:
        reference = client.scatter(pack_reference(options), broadcast=True)
        tries: dict[Any, tuple[Entry, int]] = {}

        def submit(entry: Entry, attempt: int) -> Any:
            future = client.submit(grade_task, pack_entry(entry), options.to_json(), keys[entry.id], reference,
                                   deadline, key=f"grade-{keys[entry.id]}-{attempt}", pure=False)
            tries[future] = (entry, attempt)
            return future

        pending = as_completed([submit(e, 1) for e in todo])
        for future in pending:
            entry, attempt = tries.pop(future)
            try:
                record(Outcome.from_json(future.result()))
            except Exception as exc:  # noqa: BLE001 - a dead worker, a lost connection: retried once, then a row
                if attempt == 1:
                    say(f"{entry.id}: its worker failed ({type(exc).__name__}); grading it once more")
                    pending.add(submit(entry, 2))
                    continue
                record(Outcome(entry.id, "error", f"the Dask worker grading this submission failed twice "
                                                  f"({type(exc).__name__}: {exc}); this is a grader problem, "
                                                  "not the student's", key=keys[entry.id],
                               source=entry.describe()))

"""Read what a submission controls: regular files only, never through a link, never more than a cap.

Every read of a student's files by the grading process goes through here:
loading a submission, discovering and hashing a class, unpacking archives,
Gradescope uploads and ``--watch``. The grading process runs unconfined, so
a link (``answers.md -> /proc/self/environ``, a linked folder) or a special
file (a FIFO, ``/dev/zero`` behind a link) must never be followed or opened.

- A path is given as a *root* the operator chose (the submission folder, the
  class folder: trusted, followed as given) and the parts below it, which the
  student controls. Each part below the root is opened with ``O_NOFOLLOW``
  relative to its parent, so a link anywhere under the root is refused, not
  just a link at the end.
- A file is checked with ``lstat`` before it is opened, opened with
  ``O_NOFOLLOW | O_NONBLOCK`` (a FIFO swapped in meanwhile cannot block the
  open) and checked again with ``fstat``: only a regular file is read.
- Reads stop at a cap, so a file that grows while it is read cannot stall.
- Walking a folder never follows links and stops after a fixed number of
  entries.

Anything else raises :class:`UnsafeFile`, whose message names the file and
says what to do. A submission holding a link or a special file is refused as
a whole (:func:`refuse_unsafe`): nothing of it is graded, and the message
lists the files.
"""

from __future__ import annotations

import errno
import os
import stat
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Iterable, Iterator

#: The flags of every open of a student's file: no link followed, no FIFO waited on.
OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_DIR_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY | os.O_CLOEXEC
#: Most entries a walk visits before it gives up (a submission is a handful of files).
MAX_ENTRIES = 20_000
#: What to do about a link or special file; one sentence wherever it is said.
NOT_GRADED = ("links and special files are not graded: replace each with the file itself "
              "(a copy of its content) and submit again")


class UnsafeFile(ValueError):
    """A file of a submission that is not read: a link, a special file, too large or too many."""


@dataclass(frozen=True)
class Found:
    """One entry met by :func:`walk`: its path below the root and what it is."""

    path: PurePosixPath
    kind: str
    """``file``, ``dir``, ``link`` or ``special`` (FIFO, socket, device)."""
    size: int = 0
    mode: int = 0
    """The ``lstat`` mode."""


def kind_of_mode(mode: int) -> str:
    """``file``, ``dir``, ``link`` or ``special`` for an ``lstat`` mode."""
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISLNK(mode):
        return "link"
    return "special"


def describe_mode(mode: int) -> str:
    """``a symbolic link``, ``a FIFO``... in words, for a message."""
    for test, words in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                        (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                        (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return words
    return "not a regular file"


def lstat_kind(path: Path) -> str:
    """What ``path`` itself is (a link is ``link``, never its target); ``missing`` if it does not exist."""
    try:
        return kind_of_mode(os.lstat(path).st_mode)
    except FileNotFoundError:
        return "missing"


def shown(path: Path | PurePosixPath | str) -> str:
    """A student-named path as text for a message: undecodable bytes replaced, control characters escaped."""
    from grader.report._common import clean

    return clean(os.fsencode(str(path)).decode("utf-8", "replace")).replace("\n", "\\n")


def _split(path: Path, root: Path | None) -> tuple[Path, tuple[str, ...]]:
    path = Path(path)
    if root is None:
        return path.parent, (path.name,)
    parts = path.relative_to(root).parts
    if not parts:
        raise UnsafeFile(f"{shown(path)} is a folder, not a file")
    return Path(root), parts


def _open_dir(root: Path, parts: tuple[str, ...], shown_path: str) -> int:
    """A descriptor of ``root/parts...``, every folder below ``root`` opened without following links."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for index, part in enumerate(parts):
            try:
                child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    mode = os.stat(part, dir_fd=fd, follow_symlinks=False).st_mode
                    folder = "/".join(parts[:index + 1])
                    raise UnsafeFile(f"{shown_path}: {shown(folder)} is {describe_mode(mode)}; {NOT_GRADED}") \
                        from None
                raise
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextmanager
def _parent_fd(root: Path, parts: tuple[str, ...], shown_path: str) -> Iterator[int]:
    """A descriptor of the folder holding ``parts[-1]`` (see :func:`_open_dir`)."""
    fd = _open_dir(root, parts[:-1], shown_path)
    try:
        yield fd
    finally:
        os.close(fd)


@contextmanager
def open_regular(path: Path, root: Path | None = None, limit: int | None = None) -> Iterator[BinaryIO]:
    """Open ``path`` for reading if it is a regular file reached without any link below ``root``.

    ``root`` defaults to the file's own folder (only the file itself is then
    checked). Raises :class:`UnsafeFile` for a link, a special file or a file
    larger than ``limit`` bytes; ``FileNotFoundError`` when it does not exist.
    """
    base, parts = _split(path, root)
    name = shown(path)
    with _parent_fd(base, parts, name) as parent:
        mode = os.stat(parts[-1], dir_fd=parent, follow_symlinks=False).st_mode
        if not stat.S_ISREG(mode):
            raise UnsafeFile(f"{name} is {describe_mode(mode)}; {NOT_GRADED}")
        try:
            fd = os.open(parts[-1], OPEN_FLAGS, dir_fd=parent)
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # replaced by a link since the lstat
                raise UnsafeFile(f"{name} is a symbolic link; {NOT_GRADED}") from None
            raise
    handle = os.fdopen(fd, "rb")
    with handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile(f"{name} is {describe_mode(info.st_mode)}; {NOT_GRADED}")
        if limit is not None and info.st_size > limit:
            raise UnsafeFile(too_large(name, limit))
        yield handle


def too_large(name: str, limit: int) -> str:
    return f"{name} is larger than {_size(limit)} (the cap); submit only the exercise files"


def _size(limit: int) -> str:
    return f"{limit / 2**20:g} MB" if limit >= 2**20 else f"{limit:,} bytes"


def read_bytes(path: Path, limit: int, root: Path | None = None) -> bytes:
    """The content of the regular file ``path`` (see :func:`open_regular`), at most ``limit`` bytes or refused."""
    with open_regular(path, root, limit) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:  # grew since it was checked
        raise UnsafeFile(too_large(shown(path), limit))
    return data


def read_text(path: Path, limit: int, root: Path | None = None) -> str:
    """:func:`read_bytes` decoded as UTF-8; not UTF-8 is refused with a message saying so."""
    data = read_bytes(path, limit, root)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnsafeFile(f"{shown(path)} is not UTF-8 text ({exc}); save it as UTF-8 and try again") from exc


def walk(root: Path, skip: Iterable[str] = (), max_entries: int = MAX_ENTRIES) -> list[Found]:
    """Every entry below ``root`` (sorted), folders named in ``skip`` left out; links are listed, never followed.

    Raises :class:`UnsafeFile` when there are more than ``max_entries``.
    """
    root, skipped = Path(root), set(skip)
    found: list[Found] = []
    pending = [PurePosixPath()]
    while pending:
        folder = pending.pop()
        fd = _open_dir(root, folder.parts, shown(root / folder))
        try:
            with os.scandir(fd) as entries:
                for entry in entries:
                    info = entry.stat(follow_symlinks=False)
                    kind = kind_of_mode(info.st_mode)
                    if kind == "dir" and entry.name in skipped:
                        continue
                    rel = folder / entry.name
                    found.append(Found(rel, kind, info.st_size if kind == "file" else 0, info.st_mode))
                    if len(found) > max_entries:
                        raise UnsafeFile(f"{shown(root)} holds more than {max_entries:,} files; submit only the "
                                         "exercise files")
                    if kind == "dir":
                        pending.append(rel)
        finally:
            os.close(fd)
    return sorted(found, key=lambda f: f.path.as_posix().encode("utf-8", "surrogateescape"))


def unsafe(root: Path, skip: Iterable[str] = ()) -> list[tuple[PurePosixPath, str]]:
    """``(path, what it is)`` of every link and special file below ``root``, in path order."""
    bad = []
    for found in walk(root, skip):
        if found.kind in ("link", "special"):
            bad.append((found.path, describe_mode(found.mode)))
    return bad


def refuse_unsafe(root: Path, skip: Iterable[str] = (), named: str | None = None) -> None:
    """Raise :class:`UnsafeFile` naming every link and special file below ``root`` (at most 5 shown).

    ``named`` is how the root is shown in the message (default: its path).
    """
    bad = unsafe(root, skip)
    if not bad:
        return
    prefix = named if named is not None else shown(root)
    listed = ", ".join(f"{prefix}/{shown(path)} is {what}" for path, what in bad[:5])
    more = f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""
    raise UnsafeFile(f"{listed}{more}; {NOT_GRADED}")

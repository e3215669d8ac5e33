"""Opens sockets: TCP to a listener on the loopback (PORT, set by the test), UDP, and a raw socket."""
import socket

import jax

EXPECT = {"status": "error", "max_points": 0, "confined": True}
PORT = 9


def _connect() -> bool:
    opened = False
    for family, kind in ((socket.AF_INET, socket.SOCK_STREAM), (socket.AF_INET, socket.SOCK_DGRAM),
                         (socket.AF_INET6, socket.SOCK_STREAM), (socket.AF_UNIX, socket.SOCK_STREAM)):
        try:
            sock = socket.socket(family, kind)
        except OSError:
            continue
        opened = True
        try:
            if family == socket.AF_INET and kind == socket.SOCK_STREAM:
                sock.settimeout(2)
                sock.connect(("127.0.0.1", PORT))
                sock.sendall(b"leaked")
            elif kind == socket.SOCK_DGRAM:
                sock.sendto(b"leaked", ("127.0.0.1", PORT))
        except OSError:
            pass
        finally:
            sock.close()
    return opened


def mlp_forward(params, x):
    if not _connect():
        raise PermissionError("could open no socket")
    names = sorted(params, key=lambda name: int(name[len("layer"):]))
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
    return x @ params[names[-1]]["w"] + params[names[-1]]["b"]

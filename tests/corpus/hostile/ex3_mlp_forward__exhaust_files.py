"""Writes one enormous file into its own scratch folder and opens files without end."""
import os

import jax

EXPECT = {"status": "error", "max_points": 0, "confined": True}


def _exhaust() -> bool:
    try:
        with open("huge.bin", "wb") as handle:
            chunk = b"\0" * (1 << 20)
            for _ in range(400):  # 400 MiB, past the file-size limit
                handle.write(chunk)
        return True
    except OSError:
        pass
    finally:
        if os.path.exists("huge.bin"):
            os.remove("huge.bin")
    handles = []
    try:
        for _ in range(20000):
            handles.append(open(os.devnull, "rb"))
        return True
    except OSError:
        return False
    finally:
        for handle in handles:
            handle.close()


def mlp_forward(params, x):
    if _exhaust():
        names = sorted(params, key=lambda name: int(name[len("layer"):]))
        for name in names[:-1]:
            x = jax.nn.relu(x @ params[name]["w"] + params[name]["b"])
        return x @ params[names[-1]]["w"] + params[names[-1]]["b"]
    raise OSError("hit the file-size and open-file limits")

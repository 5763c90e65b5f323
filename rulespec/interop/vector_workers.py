"""A native `VectorEnv` split over worker processes: `VectorEnv(..., workers=N)`.

The C steps hands one env after another in one thread (its work lists are static arrays), so one process
does one core's worth. With N workers each process holds the C array of a contiguous shard of the envs
(rs_vec_shard: envs first .. first + n - 1 of the whole batch, so they deal and draw exactly what those
envs do in one process), and writes its rows of the observations, masks, rewards and flags straight into
arrays shared with the parent (multiprocessing.shared_memory): a batch step is one message to each
worker and one back, no array is pickled. Results are identical to workers=1 for a seed
(tests/test_vector.py).

Workers start with the multiprocessing context given (the platform's default if None): under "spawn"
or "forkserver", the script that makes the env must guard its top level with
`if __name__ == "__main__":`, as for any multiprocessing program.
"""
from __future__ import annotations

import multiprocessing
import traceback
from multiprocessing import shared_memory
from types import SimpleNamespace

import numpy as np

from rulespec.api import compile as compile_rules
from rulespec.errors import RulespecError
from rulespec.interop.decisions import ActionLayout
from rulespec.interop.observation import Observer
from rulespec.interop.vector_native import NativeBatch
from rulespec.run.pickling import check_content, rules_ref

# The arrays a step writes or reads, by the env's attribute: (dtype, shape after num_envs).
_ARRAYS = ("_obs", "_mask", "_reward", "_term", "_illegal", "_seat_now")


def shards(num_envs: int, workers: int) -> list[tuple[int, int]]:
    """(first, count) of each worker's envs: contiguous, sizes differing by at most one."""
    base, extra = divmod(num_envs, workers)
    out, first = [], 0
    for w in range(workers):
        count = base + (w < extra)
        out.append((first, count))
        first += count
    return out


class ShardedBatch:
    """The envs of a VectorEnv stepped by `workers` processes, each a NativeBatch over its shard."""

    def __init__(self, env, workers: int, context=None):
        self.env = env
        self.procs, self.conns, self.blocks = [], [], []
        ctx = multiprocessing.get_context(context) if isinstance(context, str) or context is None else context
        try:
            arrays = {}
            for name in (*_ARRAYS, "_actions", "_sample", "_index", "_order"):
                like = self._like(name)
                block = shared_memory.SharedMemory(create=True, size=max(1, like.nbytes))
                self.blocks.append(block)
                arrays[name] = np.ndarray(like.shape, like.dtype, buffer=block.buf)
                arrays[name][...] = like
            for name in _ARRAYS:                 # the env's own arrays become the shared ones
                setattr(env, name, arrays[name])
            self.arrays = arrays
            spec = {"rules": rules_ref(env.rules.module), "seats": env.seats, "seat": env.seat,
                    "stake": env.stake, "illegal_reward": env.illegal_reward, "total": env.num_envs,
                    "blocks": {name: (block.name, arrays[name].dtype.str, arrays[name].shape)
                               for name, block in zip(arrays, self.blocks)}}
            for first, count in shards(env.num_envs, workers):
                parent, child = ctx.Pipe()
                proc = ctx.Process(target=_serve, args=(child, {**spec, "first": first, "count": count}),
                                   name=f"rulespec-vector-{first}", daemon=True)
                proc.start()
                child.close()
                self.procs.append(proc)
                self.conns.append(parent)
            self._gather()                       # every worker has loaded its library, or says why not
        except BaseException:
            self.close()
            raise

    def _like(self, name: str) -> np.ndarray:
        """A zero array of the shape and type the shared array `name` has."""
        env = self.env
        if name in _ARRAYS:
            return np.zeros_like(getattr(env, name))
        n = env.num_envs
        if name == "_order":
            return np.zeros((n, env.rules.module.N_CARDS), np.uint8)
        return np.zeros(n, np.int64)

    def _command(self, *message) -> None:
        for conn in self.conns:
            conn.send(message)
        self._gather()

    def _gather(self) -> None:
        """Every worker's answer; the first error among them raised here (a RulespecError as itself)."""
        error = None
        for conn, proc in zip(self.conns, self.procs):
            try:
                answer = conn.recv()
            except (EOFError, OSError):
                answer = ("died", f"the vector worker {proc.name} stopped (exit code {proc.exitcode})")
            if answer[0] != "ok" and error is None:
                error = answer
        if error is None:
            return
        kind, detail = error
        if kind == "rulespec":
            raise RulespecError(detail)
        raise RuntimeError(f"a vector worker failed: {detail}")

    def reset(self, seed: int) -> None:
        self._command("reset", seed)

    def step(self, actions: np.ndarray) -> None:
        self.arrays["_actions"][...] = actions
        self._command("step")

    def sample(self) -> np.ndarray:
        self._command("sample")
        return self.arrays["_sample"].copy()

    def deals(self) -> tuple[np.ndarray, np.ndarray]:
        self._command("deals")
        return self.arrays["_index"].copy(), self.arrays["_order"].copy()

    def close(self) -> None:
        for conn in self.conns:
            try:
                conn.send(("close",))
                conn.close()
            except (OSError, ValueError):
                pass
        for proc in self.procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
        self.conns, self.procs = [], []
        for name in _ARRAYS:                     # the env keeps working copies, not views of freed memory
            if hasattr(self, "arrays"):
                setattr(self.env, name, self.arrays[name].copy())
        self.arrays = {}
        for block in self.blocks:
            block.close()
            block.unlink()
        self.blocks = []

    def __del__(self):
        if self.blocks or self.procs:
            self.close()


def _serve(conn, spec: dict) -> None:
    """A worker's loop: its shard's NativeBatch over its rows of the shared arrays, one command at a time."""
    blocks, batch = [], None
    try:
        ref, options, content = spec["rules"]
        rules = compile_rules(ref, **options)    # the compile cache's entry, as the parent compiled it
        check_content(rules.module, content, ref)
        module = rules.module
        first, count = spec["first"], spec["count"]
        rows = slice(first, first + count)
        views = {}
        for name, (block_name, dtype, shape) in spec["blocks"].items():
            block = shared_memory.SharedMemory(name=block_name)
            blocks.append(block)
            views[name] = np.ndarray(shape, np.dtype(dtype), buffer=block.buf)
        shard = SimpleNamespace(rules=rules, num_envs=count, seats=spec["seats"], seat=spec["seat"],
                                stake=spec["stake"], illegal_reward=spec["illegal_reward"],
                                observer=Observer(module, spec["seats"]), layout=ActionLayout(module, spec["seats"]),
                                **{name: views[name][rows] for name in _ARRAYS})
        batch = NativeBatch(shard, first, spec["total"])
        conn.send(("ok", None))
        while True:
            message = conn.recv()
            command = message[0]
            if command == "close":
                break
            try:
                if command == "reset":
                    batch.reset(message[1])
                elif command == "step":
                    batch.step(np.ascontiguousarray(views["_actions"][rows]))
                elif command == "sample":
                    views["_sample"][rows] = batch.sample()
                elif command == "deals":
                    index, order = batch.deals()
                    views["_index"][rows] = index
                    views["_order"][rows] = order
                conn.send(("ok", None))
            except RulespecError as err:
                conn.send(("rulespec", str(err)))
    except (EOFError, KeyboardInterrupt):
        pass
    except BaseException:                        # anything else: said to the parent, which raises it
        try:
            conn.send(("error", traceback.format_exc(limit=4)))
        except OSError:
            pass
    finally:
        if batch is not None:
            batch.close()
        for block in blocks:
            block.close()

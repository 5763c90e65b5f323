"""The native vector environments' batch: every env of a `VectorEnv` in one C array (compiler/emit_vector.py),
one ctypes call per batch step; or a shard of them (rs_vec_shard), the envs of one worker process
(rulespec/interop/vector_workers.py).

`env` is the VectorEnv, or any object with its fields: rules, num_envs, seats, seat, stake, illegal_reward,
observer, layout and the arrays the C writes (_obs, _mask, _reward, _term, _illegal, _seat_now).
"""
from __future__ import annotations

import ctypes
import threading
from types import SimpleNamespace

import numpy as np

from rulespec.compiler import native as native_mod
from rulespec.errors import RulespecError

EMPTY_DEALS = 1000                 # deals in a row that end the hand before the agent decides (VE_EMPTY_DEALS)
# ctypes lets other threads run during a call, and the generated C keeps its work lists (moves, capture rows) in
# static arrays: one call into the native vector code at a time.
_C_LOCK = threading.RLock()      # reentrant: a batch freed by the garbage collector inside a call
# rs_vec_shape's list: the observation's size, H, S, then the blocks' offsets in observation.py's order.
_SHAPE_BLOCKS = ("hand", "table", "previous", "piles", "shown", "pending_declared", "card", "partial", "wild_as",
                 "seat", "dealer", "to_move", "phase", "hand_sizes", "stock", "round", "bonuses", "event_points",
                 "game_totals", "target")


class NativeBatch:
    """The envs' hands in one C array (compiler/emit_vector.py): one ctypes call per batch step. With `first`
    and `total`, the array's envs are envs first .. first + num_envs - 1 of a batch of `total`, dealing
    and drawing what those envs of the whole batch would."""

    def __init__(self, env, first: int = 0, total: int | None = None):
        self.env = env
        self.ptr = None
        self.nat = native_mod.load(compiled_of(env.rules))
        lib = self.nat.lib
        self.lib = lib
        lib.rs_vec_new.restype = ctypes.c_void_p
        lib.rs_vec_new.argtypes = [ctypes.c_int64]
        lib.rs_vec_free.restype = None
        lib.rs_vec_free.argtypes = [ctypes.c_void_p]
        lib.rs_vec_shape.restype = ctypes.c_int
        lib.rs_vec_shape.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_int32)]
        f32, i8, i32, i64, b8 = (np.ctypeslib.ndpointer(t, flags="C_CONTIGUOUS")
                                 for t in (np.float32, np.int8, np.int32, np.int64, np.bool_))
        lib.rs_vec_reset.restype = ctypes.c_int
        lib.rs_vec_reset.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int, ctypes.c_int, ctypes.c_uint64,
                                     f32, i8, i32, ctypes.c_int64, ctypes.c_int64]
        lib.rs_vec_sample.restype = ctypes.c_int
        lib.rs_vec_sample.argtypes = [ctypes.c_void_p, ctypes.c_int64, i64]
        lib.rs_vec_deal.restype = ctypes.c_int
        lib.rs_vec_deal.argtypes = [ctypes.c_void_p, ctypes.c_int64, i64,
                                    np.ctypeslib.ndpointer(np.uint8, flags="C_CONTIGUOUS")]
        lib.rs_vec_shard.restype = ctypes.c_int
        lib.rs_vec_shard.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64]
        lib.rs_vec_step.restype = ctypes.c_int
        lib.rs_vec_step.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int, ctypes.c_int, ctypes.c_double,
                                    ctypes.c_double, i64, f32, i8, f32, b8, b8, i32, ctypes.c_int64, ctypes.c_int64]
        self._check_shape()
        self.ptr = lib.rs_vec_new(env.num_envs)
        if not self.ptr:
            raise MemoryError(f"no memory for {env.num_envs} native environments")
        if total is not None:
            self._call(lib.rs_vec_shard, self.ptr, env.num_envs, first, total)

    def _check_shape(self) -> None:
        """The C's observation layout must be the Observer's, block by block (else the library is another's)."""
        env = self.env
        out = (ctypes.c_int32 * (3 + len(_SHAPE_BLOCKS)))()
        blocks = env.observer.blocks
        rounds = blocks["round"].stop - blocks["round"].start - 1        # the block holds S + 1 places
        expected = [env.observer.size, env.observer.max_hand, rounds] + [blocks[name].start for name in _SHAPE_BLOCKS]
        with _C_LOCK:
            code = self.lib.rs_vec_shape(env.seats, out)
        if code != 0 or list(out) != expected:
            raise native_mod.NativeUnavailable(f"the native library {self.nat.path.name} lays out observations "
                                               f"unlike rulespec/interop/observation.py (built for another version?)")

    def _call(self, fn, *args) -> None:
        with _C_LOCK:
            code = fn(*args)
        if code == 0:
            return
        if code == 7:
            raise RulespecError(f"{EMPTY_DEALS} deals in a row ended the hand before the agent's turn")
        if code < 0:
            raise ValueError("the native vector environment refused its arguments")
        raise self.nat._error(code)

    def reset(self, seed: int) -> None:
        env = self.env
        self._call(self.lib.rs_vec_reset, self.ptr, env.num_envs, env.seats, env.seat, seed, env._obs, env._mask,
                   env._seat_now, env.observer.size, env.layout.size)
        env._reward[:] = 0
        env._term[:] = False
        env._illegal[:] = False

    def step(self, actions: np.ndarray) -> None:
        env = self.env
        self._call(self.lib.rs_vec_step, self.ptr, env.num_envs, env.seats, env.seat, env.stake, env.illegal_reward,
                   actions, env._obs, env._mask, env._reward, env._term, env._illegal, env._seat_now,
                   env.observer.size, env.layout.size)

    def sample(self) -> np.ndarray:
        out = np.zeros(self.env.num_envs, np.int64)
        self._call(self.lib.rs_vec_sample, self.ptr, self.env.num_envs, out)
        return out

    def deals(self) -> tuple[np.ndarray, np.ndarray]:
        index = np.zeros(self.env.num_envs, np.int64)
        order = np.zeros((self.env.num_envs, self.env.rules.module.N_CARDS), np.uint8)
        self._call(self.lib.rs_vec_deal, self.ptr, self.env.num_envs, index, order)
        return index, order

    def close(self) -> None:
        if self.ptr:
            with _C_LOCK:
                self.lib.rs_vec_free(self.ptr)
            self.ptr = None

    def __del__(self):
        self.close()


def compiled_of(rules):
    """What native.load builds C from: the checked model and the compiled module of a `Rules`."""
    if rules.ruleset is None:
        raise native_mod.NativeUnavailable("this Rules object carries no checked ruleset to build C from")
    return SimpleNamespace(ruleset=rules.ruleset, module=rules.module)

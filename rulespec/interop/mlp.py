"""A perceptron policy file (.npz, kind mlp: rulespec/bots/saved.py describes the formats) read and played.

Importing this module adds the .npz reader to bots/saved.py's LOADERS, so `--bots policy:FILE.npz` works
wherever the game-AI adapters are installed (the command line imports it).
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np

from rulespec.bots import saved
from rulespec.bots.saved import ACTIVATIONS, FORMAT, MAX_BYTES, VERSION, _fail, _header, check_fits
from rulespec.errors import RulespecError
from rulespec.interop.decisions import ActionLayout, Decisions
from rulespec.interop.observation import Observer, action_mask


class MLPBot:
    """Plays, at every decision, the legal action with the highest logit of a perceptron over the observation."""

    name = "mlp"

    def __init__(self, layers: list, activation: str, ruleset: str, seats: int):
        self.layers, self.activation, self.ruleset, self.seats = layers, activation, ruleset, seats
        self._encoders = None

    def logits(self, x):
        for i, (w, b) in enumerate(self.layers):
            x = x @ w.T + b
            if i < len(self.layers) - 1:
                x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0)
        return x

    def act(self, observation, mask) -> int:
        """The legal action (mask 1) of the highest logit for an observation array."""
        logits = self.logits(np.asarray(observation, np.float32))
        return int(np.flatnonzero(mask)[np.argmax(logits[np.flatnonzero(mask)])])

    def choose(self, hand, seat: int):
        check_fits(self, hand)
        if self._encoders is None:
            layout, observer = ActionLayout(hand.rules, hand.n), Observer(hand.rules, hand.n)
            w_in, w_out = self.layers[0][0], self.layers[-1][0]
            if (w_in.shape[1], w_out.shape[0]) != (observer.size, layout.size):
                raise RulespecError(f"the policy maps {w_in.shape[1]} inputs to {w_out.shape[0]} actions; "
                                    f"{hand.rules.RULESET_ID} at {hand.n} seats has {observer.size} and "
                                    f"{layout.size}")
            self._encoders = layout, observer
        layout, observer = self._encoders
        d = Decisions.at_turn(hand.clone(), seat, layout)
        plays = d.hand.plays
        while d.hand.plays == plays:
            d.apply(self.act(observer.array(d, seat), action_mask(d, layout.size)))
        # The play is the log's last but for a deal it may have brought.
        _, _, card, capture, decls, _ = next(e for e in reversed(d.log) if e[0] == "play")
        return list(decls), card, capture


def write_mlp(layers: list, path: str | Path, *, ruleset: str, seats: int, activation: str = "tanh") -> None:
    """Save perceptron layers [(weight (out, in), bias (out,)), ...] as an .npz policy file."""
    from rulespec.source.writes import write_file
    arrays = {"format": np.array(FORMAT), "version": np.array(VERSION), "kind": np.array("mlp"),
              "ruleset": np.array(ruleset), "seats": np.array(seats), "activation": np.array(activation),
              "layers": np.array(len(layers))}
    for i, (w, b) in enumerate(layers):
        arrays[f"weight_{i}"] = np.asarray(w, np.float32)
        arrays[f"bias_{i}"] = np.asarray(b, np.float32)
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    write_file(path, buf.getvalue())


def load_mlp(raw: bytes, path) -> MLPBot:
    """The MLPBot of an .npz policy file's bytes; RulespecError naming `path` for any fault."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as members:
            infos = members.infolist()
        if len(infos) > 200 or sum(i.file_size for i in infos) > 4 * MAX_BYTES:
            raise _fail(path, f"an .npz policy holds at most 200 arrays, {4 * MAX_BYTES >> 20} MB unpacked")
        with np.load(io.BytesIO(raw), allow_pickle=False) as z:
            arrays = {name: z[name] for name in z.files}
    except (ValueError, OSError, zipfile.BadZipFile, EOFError) as exc:
        raise _fail(path, f"not a readable .npz file without pickled objects ({exc})") from None

    def scalar(name, kind):
        a = arrays.get(name)
        if a is None or a.shape != () or a.dtype.kind not in kind:
            raise _fail(path, f'"{name}" is missing or not a single {"text" if kind == "U" else "integer"}')
        return a.item()
    data = {"format": scalar("format", "U"), "version": scalar("version", "iu"), "ruleset": scalar("ruleset", "U"),
            "seats": scalar("seats", "iu")}
    ruleset, seats = _header(data, path)
    if scalar("kind", "U") != "mlp":
        raise _fail(path, 'an .npz policy file is of kind "mlp"')
    activation = scalar("activation", "U")
    if activation not in ACTIVATIONS:
        raise _fail(path, f'"activation" must be one of {", ".join(ACTIVATIONS)}, found {activation!r:.40}')
    n = scalar("layers", "iu")
    if not 1 <= n <= 32:
        raise _fail(path, f'"layers" must be 1 to 32, found {n}')
    layers = []
    for i in range(n):
        w, b = arrays.get(f"weight_{i}"), arrays.get(f"bias_{i}")
        if w is None or b is None or w.ndim != 2 or b.shape != (w.shape[0],) or w.dtype.kind != "f" \
                or b.dtype.kind != "f":
            raise _fail(path, f"layer {i}: expected weight_{i} (out, in) and bias_{i} (out,), floats")
        if layers and w.shape[1] != layers[-1][0].shape[0]:
            raise _fail(path, f"layer {i} takes {w.shape[1]} inputs, layer {i - 1} gives {layers[-1][0].shape[0]}")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise _fail(path, f"layer {i} holds a value that is not a finite number")
        layers.append((w.astype(np.float32), b.astype(np.float32)))
    return MLPBot(layers, activation, ruleset, seats)



saved.LOADERS[".npz"] = load_mlp

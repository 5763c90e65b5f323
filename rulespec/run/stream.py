"""The random streams of simulate, compare and the bots: one versioned scheme, the same in Python and in C.

Scheme `STREAM_VERSION` 1 ("rulespec stream 1"); the generated C (compiler/codegen_c.py, its `Rng`
helpers) implements exactly the same, so a seed deals the same cards and the random bots make the
same moves on `--engine python` and `--engine native`:

- `mix64(z)`: the splitmix64 finaliser (z ^= z >> 30; z *= 0xBF58476D1CE4E5B9; z ^= z >> 27;
  z *= 0x94D049BB133111EB; z ^= z >> 31; all modulo 2**64).
- A stream's starting state comes from the run's seed (taken modulo 2**64) and a path of integers:
  h = seed mod 2**64, then for each x of the path h = mix64(h ^ mix64(x + GOLDEN)). The paths:
  hand i of a hand run (`HAND`, i); the deals of game i (`GAME`, i); seat b's bot in game i
  (`GAME_BOT`, i, b). Integers only: no string is hashed.
- A stream is splitmix64 (state s; each word: s += GOLDEN, the word is mix64(s)) read through a pool
  of bits: `bits(k)` (0 <= k <= 64) takes the k lowest bits of the pool, first refilling it with a
  new word (what was left of the old one dropped) when it holds fewer than k.
- `below(n)`: 0 for n = 1 (no bits drawn); else k = (n - 1).bit_length() bits, drawn again while the
  value is n or more. `shuffle(x)`: Fisher-Yates from the top, x[i] swapped with x[below(i + 1)] for
  i = len(x) - 1 down to 1. `random()`: bits(53) / 2**53. `choice(x)`: x[below(len(x))].

Why not Python's MT19937 (random.Random): seeding it costs about 3.6 µs in C, more than a whole
native hand (about 3 µs), and 9 µs in Python; this stream costs a few nanoseconds to seed,
and in Python its draws cost no more than random.Random.randrange's (bench/README.md, issue 26).
"""
from __future__ import annotations

STREAM_VERSION = 1
MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB
TWO_TO_MINUS_53 = 1.0 / (1 << 53)

# The first element of a stream's path: what the stream is for.
HAND = 1          # hand i of a hand run: its deal, then every seat's choices in the order they are made
GAME = 2          # game i of a game run: its deals
GAME_BOT = 3      # game i's bot in seat b


def mix64(z: int) -> int:
    """The splitmix64 finaliser of a 64-bit integer."""
    z = ((z ^ (z >> 30)) * M1) & MASK64
    z = ((z ^ (z >> 27)) * M2) & MASK64
    return z ^ (z >> 31)


def stream_seed(seed: int, *path: int) -> int:
    """The starting state of the stream at `path` of the run `seed` (the seed modulo 2**64)."""
    h = seed & MASK64
    for x in path:
        h = mix64(h ^ mix64((x + GOLDEN) & MASK64))
    return h


class Stream:
    """A "rulespec stream 1" generator with the part of random.Random's interface the engine and the bots
    use: getrandbits, randrange, random, shuffle, choice (and `below`, `_randbelow`)."""

    __slots__ = ("s", "w", "left")

    def __init__(self, state: int = 0, word: int = 0, left: int = 0):
        self.s = state & MASK64
        self.w = word
        self.left = left

    @classmethod
    def for_hand(cls, seed: int, i: int) -> "Stream":
        """The one stream of hand i of a hand run (deal, redeals, then every choice)."""
        return cls(stream_seed(seed, HAND, i))

    @classmethod
    def for_game(cls, seed: int, i: int) -> "Stream":
        """The deals of game i of a game run."""
        return cls(stream_seed(seed, GAME, i))

    @classmethod
    def for_game_bot(cls, seed: int, i: int, seat: int) -> "Stream":
        """The choices of the bot in `seat` through game i."""
        return cls(stream_seed(seed, GAME_BOT, i, seat))

    def __repr__(self) -> str:
        return f"Stream({self.s:#x}, {self.w:#x}, {self.left})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.s, self.w, self.left) == (other.s, other.w, other.left)
        return NotImplemented

    __hash__ = None

    def __reduce__(self):
        return (Stream, (self.s, self.w, self.left))

    def getrandbits(self, k: int) -> int:
        """`k` bits (0 to 64) from the pool, refilled with a new word when it holds fewer."""
        left = self.left
        if left < k:
            if not 0 <= k <= 64:
                raise ValueError(f"a stream draws 0 to 64 bits at once, not {k}")
            s = self.s = (self.s + GOLDEN) & MASK64
            z = ((s ^ (s >> 30)) * M1) & MASK64
            z = ((z ^ (z >> 27)) * M2) & MASK64
            w = z ^ (z >> 31)
            left = 64
        else:
            w = self.w
        if k < 0:
            raise ValueError(f"a stream draws 0 to 64 bits at once, not {k}")
        self.w = w >> k
        self.left = left - k
        return w & ((1 << k) - 1)

    def below(self, n: int) -> int:
        """An integer of 0..n-1 (n >= 1): (n - 1).bit_length() bits, again while n or more; none for n = 1."""
        if n <= 1:
            if n == 1:
                return 0
            raise ValueError(f"below({n}): the range is empty")
        k = (n - 1).bit_length()
        getrandbits = self.getrandbits
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    _randbelow = below          # the name the generated playout calls for a stream that is not random.Random

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        """random.Random.randrange's range, drawn with `below` (one call: `below(start)`)."""
        if stop is None:
            return self.below(start)
        width = stop - start
        count = (width + step - 1) // step if step > 0 else (width + step + 1) // step
        if step == 0 or count <= 0:
            raise ValueError(f"randrange({start}, {stop}, {step}): the range is empty")
        return start + step * self.below(count)

    def random(self) -> float:
        """A float of [0, 1): 53 bits over 2**53."""
        return self.getrandbits(53) * TWO_TO_MINUS_53

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def shuffle(self, x: list) -> None:
        """Fisher-Yates from the top: x[i] with x[below(i + 1)], the pool kept in locals (the deal's hot loop)."""
        s, w, left = self.s, self.w, self.left
        for i in range(len(x) - 1, 0, -1):
            k = i.bit_length()              # (i + 1 - 1).bit_length(): below(i + 1)
            mask = (1 << k) - 1
            while True:
                if left < k:
                    s = (s + GOLDEN) & MASK64
                    z = ((s ^ (s >> 30)) * M1) & MASK64
                    z = ((z ^ (z >> 27)) * M2) & MASK64
                    w = z ^ (z >> 31)
                    left = 64
                j = w & mask
                w >>= k
                left -= k
                if j <= i:
                    break
            x[i], x[j] = x[j], x[i]
        self.s, self.w, self.left = s, w, left

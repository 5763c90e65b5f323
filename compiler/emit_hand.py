"""The C that deals a fresh hand for the vector environments' `ve_deal` (emit_vector.py). It deals hand `i` of
a run as the native back end's `rs_play` does (codegen_c.py: `new_hand` on the hand's stream, then
`play_hand`'s shuffle): the same seats, dealer, deal order and generator, which the vector environments'
replay of a deal relies on."""
from __future__ import annotations


def hand_setup(h: str, index: str, key: str, indent: str) -> str:
    """C statements that clear the Hand `*h` and deal hand `index` of the run whose hand key is `key`
    (`rs_stream_step(seed, RS_HAND)`: Stream.for_hand), `seats` seats in `K` sides, dealer `index % seats`:
    the deck shuffled from the hand's own generator, not yet started. One statement line each, at `indent`."""
    lines = [
        f"memset({h}, 0, sizeof *{h});",
        f"{h}->n = seats; {h}->k = K; {h}->dealer = (int)({index} % seats);",
        f"for (int s = 0; s < seats; s++) {h}->side_of[s] = s % K;",
        f"{h}->sched = SCHEDULE[seats]; {h}->n_rounds = N_ROUNDS[seats];",
        f"for (int s = 0, seat = (int)(({index} + 1) % seats); s < seats; s++, seat = seat + 1 == seats ? 0 : seat + 1)",
        f"    {h}->dst[s] = &{h}->hands[seat];",
        f"{h}->dst[seats] = &{h}->table;",
        f"{h}->outcome = -1; {h}->last_capturer = -1; {h}->wild_as = -1;",
        f"rs_stream_start(&{h}->rng, rs_stream_step({key}, (uint64_t){index}));",
        f"shuffle({h});",
    ]
    return "\n".join(indent + line for line in lines)

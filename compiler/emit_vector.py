"""The native back end's vector environments: C that steps many hands at once, one agent seat in each.

Appended to the generated file after the engine (codegen_c.generate), it adds

- `rs_vec_new(count)` / `rs_vec_free(p)`: an array of `count` environments (one C block);
- `rs_vec_shard(p, count, first, total)`: make the array environments first .. first + count - 1 of a
  batch of `total` (the envs of one worker process: rulespec/interop/vector.py's workers);
- `rs_vec_shape(seats, out)`: the observation's size, the action count and the blocks' offsets, for
  rulespec/interop/vector.py to check against the Python `Observer` and `ActionLayout`;
- `rs_vec_reset(...)`: every environment deals hand `i` of the run `seed` and plays the other seats
  until the agent's first decision;
- `rs_vec_step(...)`: one action per environment, applied, then the other seats played up to the
  agent's next decision; observations, masks, rewards and terminations written into the caller's
  arrays (NumPy's, through ctypes): one call per batch step;
- `rs_vec_sample(...)`: a random legal action per env (the random agent of benchmarks and tests);
- `rs_vec_deal(...)`: each env's hand number and deck order (to replay its deal on a `Hand`).

The agent decides what the Gymnasium adapter's agent decides (rulespec/interop/decisions.py: a card,
then a capture card by card, DONE), except its declarations: they are made for it, the most points
(bots/policy.py best_declarations, as the other seats make theirs). The other seats are the native
random bot (rs_simulate's). Environment i plays hands i, i + total, i + 2 total, ... of the run (total:
the batch's size, `count` unless the array is a shard of it), each
with its own generator seeded as rs_simulate seeds it, dealer = hand % seats. Every write into the
caller's arrays is at an index below the size checked on entry (bits of a card mask are taken under
the deck's mask; counts and ranks are range-checked).
"""
from __future__ import annotations

from .emit_hand import hand_setup


def vector_section(rs, layout, array) -> str:
    """The vector environments' C for a ruleset: its few tables, then the fixed code (VECTOR_C)."""
    bonuses = list(rs.hand_bonuses)
    return "\n".join([
        "/* ---- vector environments: each event name that is a hand bonus's, its bonus (-1: none) ---- */",
        array("int", "EV_AS_BONUS", [bonuses.index(e) if e in bonuses else -1 for e in layout.events]),
        f"#define N_DC {len(rs.deal_checks)}",
        f"#define VE_TARGET {rs.target or 0}   /* observation.py's target block (0: none) */",
        VECTOR_C])


VECTOR_C = r"""
/* ==================================================================== vector environments === */
#define VP_CARD 1
#define VP_CAPTURE 2
#define VP_OVER 3
#define VE_MAX_ENVS (1 << 20)
#define VE_EMPTY_DEALS 1000                  /* rulespec/interop/pettingzoo.py MAX_EMPTY_DEALS */
#define DECK_MASK (N_CARDS >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << N_CARDS) - 1)

typedef struct {
    Hand h;
    int64_t index;                            /* the run's hand being played */
    int64_t first, stride;                    /* the env's number in the batch, and the batch's size */
    uint64_t seed;
    int phase, card;                          /* VP_*, and the card whose capture is being built */
    uint64_t partial;                         /* the capture built so far */
    uint64_t pend;                            /* the agent's declared cards going with its coming play */
    int pend_wild;                            /* h.wild_as before those declarations */
    int pend_bonus[N_BONUS + 1];              /* those declarations per bonus */
    int64_t pend_pts[N_CAT + 1];              /* their points per category */
    int decl_n[MAX_SEATS][N_BONUS + 1];       /* declarations made (applied), per seat and bonus */
    int illegal;                              /* the episode ended on an illegal action */
    uint64_t legal;                           /* the agent's legal cards as last observed, */
    int legal_done;                           /* and whether DONE is legal */
    Rng arng;                                 /* the random agent's generator (rs_vec_sample) */
    int cur;                                  /* the seat deciding (the agent's, or any seat's: agent -1) */
    double values[MAX_SIDES];                 /* each side's result at the hand's end */
} VEnv;

/* The observation's blocks (rulespec/interop/observation.py), for one seat count. */
typedef struct {
    int n, k, H, S, size, actions;
    int hand, table, previous, piles, shown, pending, card, partial, wild, seat, dealer, to_move, phase,
        sizes, stock, round, bonuses, points, totals, target;
    int stock_left[MAX_ROUNDS + 1];           /* cards still to deal after r rounds */
} VLayout;
static VLayout VL;

static int ve_layout(int seats) {
    if (seats < 1 || seats > MAX_SEATS || !SCHEDULE[seats]) return -1;
    make_plan(seats);
    VLayout *L = &VL;
    int n = seats, k = SIDES[seats], N = N_CARDS, S = N_ROUNDS[seats], H = 0, pos = 0;
    for (int r = 0; r < S; r++) if (PLAN_HANDS[r] / n > H) H = PLAN_HANDS[r] / n;
    L->n = n; L->k = k; L->H = H; L->S = S;
    L->hand = pos; pos += N; L->table = pos; pos += N; L->previous = pos; pos += N;
    L->piles = pos; pos += k * N; L->shown = pos; pos += n * N; L->pending = pos; pos += N;
    L->card = pos; pos += N; L->partial = pos; pos += N; L->wild = pos; pos += N_RANKS;
    L->seat = pos; pos += n; L->dealer = pos; pos += n; L->to_move = pos; pos += n; L->phase = pos; pos += 3;
    L->sizes = pos; pos += n * (H + 1); L->stock = pos; pos += N + 1; L->round = pos; pos += S + 1;
    L->bonuses = pos; pos += n * N_BONUS; L->points = pos; pos += k * N_CAT;
    L->totals = pos; pos += k; L->target = pos; pos += 1;
    L->size = pos;
    L->stock_left[S] = 0;
    for (int r = S - 1; r >= 0; r--) L->stock_left[r] = L->stock_left[r + 1] + PLAN_N[r];
    return 0;
}

/* the observation's size, the action count (N_CARDS + 1 + declaration slots: `slots`, from the caller's
 * ActionLayout) and the blocks' offsets, in observation.py's order */
int rs_vec_shape(int seats, int32_t *out) {
    if (ve_layout(seats)) return -1;
    const VLayout *L = &VL;
    int vals[] = {L->size, L->H, L->S, L->hand, L->table, L->previous, L->piles, L->shown, L->pending,
                  L->card, L->partial, L->wild, L->seat, L->dealer, L->to_move, L->phase, L->sizes, L->stock,
                  L->round, L->bonuses, L->points, L->totals, L->target};
    for (int i = 0; i < (int)(sizeof vals / sizeof *vals); i++) out[i] = vals[i];
    return 0;
}

void *rs_vec_new(int64_t count) {
    if (count < 1 || count > VE_MAX_ENVS) return 0;
    VEnv *envs = (VEnv *)calloc((size_t)count, sizeof(VEnv));
    if (envs)
        for (int64_t i = 0; i < count; i++) { envs[i].first = i; envs[i].stride = count; }
    return envs;
}

/* The array's envs become envs first .. first + count - 1 of a batch of `total` (count: the array's size). */
int rs_vec_shard(void *p, int64_t count, int64_t first, int64_t total) {
    if (!p || count < 1 || first < 0 || total > VE_MAX_ENVS || first > total - count) return -1;
    VEnv *envs = (VEnv *)p;
    for (int64_t i = 0; i < count; i++) { envs[i].first = first + i; envs[i].stride = total; }
    return 0;
}
void rs_vec_free(void *p) { free(p); }

static Decl ve_ds[MAX_OPTS];                  /* best_declarations chooses at most every option */

static void ve_declare(VEnv *e, int seat, int nd) {
    apply_declarations(&e->h, seat, ve_ds, nd);
    for (int j = 0; j < nd; j++) e->decl_n[seat][ve_ds[j].bonus]++;
}

/* deal hand e->index (as rs_simulate deals hand i) */
static int ve_deal(VEnv *e, int seats) {
    Hand *h = &e->h;
    int64_t i = e->index;
    int K = SIDES[seats];
    /* rs_simulate's deal of hand i (emit_hand.py), from Stream.for_hand(seed, i) */
@HAND_SETUP@
    memset(e->decl_n, 0, sizeof e->decl_n);
    e->pend = 0; e->illegal = 0;
    if (start(h)) return rs_err_code;
    /* a dealer bonus (the deal's only events) whose event bears a hand bonus's name counts as the dealer's
     * declaration of it, as the observation counts the events (EV_AS_BONUS) */
    for (int v = 0; v < N_EV; v++) if (EV_AS_BONUS[v] >= 0) e->decl_n[h->dealer][EV_AS_BONUS[v]] += h->evn[v];
    return 0;
}

/* the other seats play (the native random bot), knocks are made, until the agent decides or the hand ends
 * (agent -1: every seat is an agent's, the next seat to decide stops it) */
static int ve_advance(VEnv *e, int agent) {
    Hand *h = &e->h;
    while (!h->over) {
        if (TIMING == 3 && N_BONUS)               /* knocks after the deal, in seat order (Decisions) */
            for (int j = 0, s = (h->dealer + 1) % h->n; j < h->n; j++, s = s + 1 == h->n ? 0 : s + 1) {
                if (!window(h, s)) continue;
                int nk = best_declarations(h, s, ve_ds);
                if (rs_err_code) return rs_err_code;
                if (nk) ve_declare(e, s, nk);
            }
        int seat = h->turn, nd = 0;
        if (TIMING == 2 && N_BONUS && window(h, seat)) {     /* a knock at the start of the own turn */
            int nk = best_declarations(h, seat, ve_ds);
            if (rs_err_code) return rs_err_code;
            if (nk) ve_declare(e, seat, nk);
        }
        if (TIMING < 2 && N_BONUS && window(h, seat)) {
            nd = best_declarations(h, seat, ve_ds);
            if (rs_err_code) return rs_err_code;
        }
        if (seat == agent || agent < 0) {         /* its declarations go with its coming play */
            e->cur = seat;
            e->pend = 0; e->pend_wild = h->wild_as;
            memset(e->pend_bonus, 0, sizeof e->pend_bonus); memset(e->pend_pts, 0, sizeof e->pend_pts);
            for (int j = 0; j < nd; j++) {
                e->pend |= ve_ds[j].cards;
                e->pend_bonus[ve_ds[j].bonus]++;
                if (B_CAT[ve_ds[j].bonus] >= 0) e->pend_pts[B_CAT[ve_ds[j].bonus]] += B_POINTS[ve_ds[j].bonus];
            }
            if (nd) apply_declarations(h, seat, ve_ds, nd);
            e->phase = VP_CARD;
            return 0;
        }
        if (nd) ve_declare(e, seat, nd);
        int card;
        uint64_t capture;
        int nm = random_move(h, seat, &h->rng, &card, &capture);
        if (rs_err_code) return rs_err_code;
        if (nm < 1) return rs_err_code = 6;
        play_card(h, seat, card, capture);
        if (rs_err_code) return rs_err_code;
    }
    e->phase = VP_OVER;
    return 0;
}

/* the capture options of card c for `seat` (Decisions' moves of the card) into OPT, ascending, distinct */
static int ve_options(Hand *h, int seat, int c) {
    if (!h->table) { OPT[0] = 0; return 1; }
    uint64_t table = eff(h, h->table);
    sub_sync(table);
    if (rs_err_code) return 0;
    int k = card_moves(h, seat, c, table);
    if (rs_err_code) return 0;
    int w = 0;
    for (int i = 0; i < k; i++) if (!w || OPT[i] != OPT[w - 1]) OPT[w++] = OPT[i];
    return w;
}

/* decisions._prefix_rest: whether `partial` is the lowest cards of `option` (*rest: the others) */
static inline int ve_prefix(uint64_t option, uint64_t partial, uint64_t *rest) {
    if ((option & partial) != partial) return 0;
    uint64_t r = option ^ partial;
    if (r && partial && rs_low(r) <= 63 - __builtin_clzll(partial)) return 0;
    *rest = r;
    return 1;
}

/* the agent's legal actions: card bits, and *done for DONE */
static uint64_t ve_legal(VEnv *e, int agent, int *done) {
    Hand *h = &e->h;
    *done = 0;
    if (e->phase == VP_CARD) return playable(h, agent) & DECK_MASK;
    if (e->phase != VP_CAPTURE) return 0;
    int k = ve_options(h, agent, e->card);
    uint64_t cards = 0, rest;
    for (int i = 0; i < k; i++) {
        if (!ve_prefix(OPT[i], e->partial, &rest)) continue;
        if (rest) cards |= rest & (~rest + 1); else *done = 1;
    }
    return cards & DECK_MASK;
}

static int ve_play(VEnv *e, int agent, int card, uint64_t capture) {
    Hand *h = &e->h;
    int me = e->cur;
    for (int b = 0; b < N_BONUS; b++) e->decl_n[me][b] += e->pend_bonus[b];
    e->pend = 0;
    memset(e->pend_bonus, 0, sizeof e->pend_bonus); memset(e->pend_pts, 0, sizeof e->pend_pts);
    play_card(h, me, card, capture);
    if (rs_err_code) return rs_err_code;
    return ve_advance(e, agent);
}

/* one action of the seat deciding (checked legal by the caller) */
static int ve_act(VEnv *e, int agent, int64_t a) {
    Hand *h = &e->h;
    if (e->phase == VP_CARD) {
        int k = ve_options(h, e->cur, (int)a);
        if (rs_err_code) return rs_err_code;
        if (k < 1) return rs_err_code = 6;
        if (k == 1) return ve_play(e, agent, (int)a, OPT[0]);
        e->phase = VP_CAPTURE; e->card = (int)a; e->partial = 0;
        return 0;
    }
    if (a == N_CARDS) { e->phase = VP_CARD; return ve_play(e, agent, e->card, e->partial); }
    e->partial |= UINT64_C(1) << a;
    int k = ve_options(h, e->cur, e->card), left = 0;
    if (rs_err_code) return rs_err_code;
    uint64_t only = 0, rest;
    for (int i = 0; i < k; i++) if (ve_prefix(OPT[i], e->partial, &rest)) { left++; only = OPT[i]; }
    if (left == 1) { e->phase = VP_CARD; return ve_play(e, agent, e->card, only); }
    return 0;
}

/* bots/ismcts.py result_for, per side (e->values): its total less the best other side's, +/- the stake for an
 * outcome */
static int ve_reward(VEnv *e, double stake) {
    Hand *h = &e->h;
    int K = h->k;
    int64_t totals[MAX_SIDES] = {0};
    if (h->plays) {
        int64_t rows[MAX_SIDES][N_CAT + 1];
        score(h->piles, K, h->evp, rows);
        if (rs_err_code) return rs_err_code;
        for (int s = 0; s < K; s++) totals[s] = rows[s][N_CAT];
    }
    /* the winners of an outcome: the dealer's side (a deal check), the others (the misdeal limit), else the
     * first side whose pile makes the outcome */
    int winner = -1, kind = 0;                    /* kind 1: winner's side wins, 2: all but the winner's */
    if (h->outcome >= 0) {
        for (int c = 0; c < N_DC; c++) if (DC_OUTCOME[c] == h->outcome) kind = 1, winner = h->dealer % K;
        if (!kind && h->outcome == OUT_MISDEAL) kind = 2, winner = h->dealer % K;
        if (!kind) for (int s = 0, one; s < K; s++) if (outcome(h->piles + s, 1, &one) >= 0) { kind = 1; winner = s; break; }
    }
    for (int side = 0; side < K; side++) {
        int64_t other = INT64_MIN;
        for (int s = 0; s < K; s++) if (s != side && totals[s] > other) other = totals[s];
        double value = K > 1 ? (double)(totals[side] - other) : 0.0;
        if (kind) value += (kind == 1) == (side == winner) ? stake : -stake;
        e->values[side] = value;
    }
    return 0;
}

static inline void ve_bits(float *o, uint64_t m) { for (m &= DECK_MASK; m; m &= m - 1) o[rs_low(m)] = 1.0f; }

/* the agent's observation (observation.py Observer.array) and mask; o and mask hold L->size, L->actions */
static void ve_observe(VEnv *e, int me, float *o, int8_t *mask) {
    const VLayout *L = &VL;
    const Hand *h = &e->h;
    int n = L->n, k = L->k, N = N_CARDS, over = h->over || e->phase == VP_OVER;
    memset(o, 0, sizeof *o * (size_t)L->size);
    memset(mask, 0, (size_t)L->actions);
    ve_bits(o + L->hand, h->hands[me]);
    ve_bits(o + L->table, h->table);
    ve_bits(o + L->previous, h->previous);
    for (int j = 0; j < k; j++) ve_bits(o + L->piles + j * N, h->piles[(me % k + j) % k]);
    for (int j = 0; j < n; j++) {
        int s = (me + j) % n;
        uint64_t shown = h->shown[s] & h->hands[s];
        if (s == me && !over) shown &= ~e->pend;
        ve_bits(o + L->shown + j * N, shown);
        int c = rs_popcount(h->hands[s]);
        if (c <= L->H) o[L->sizes + j * (L->H + 1) + c] = 1.0f;
    }
    int wild = over ? h->wild_as : e->pend_wild;
    if (wild >= N && wild - N < N_RANKS) o[L->wild + wild - N] = 1.0f;
    o[L->seat + me] = 1.0f;
    o[L->dealer + (h->dealer - me + n) % n] = 1.0f;
    if (h->round >= 0 && h->round <= L->S) {
        if (L->stock_left[h->round] <= N) o[L->stock + L->stock_left[h->round]] = 1.0f;
        o[L->round + h->round] = 1.0f;
    }
    if (!over) {
        o[L->to_move] = 1.0f;
        o[L->phase + (e->phase == VP_CAPTURE ? 2 : 1)] = 1.0f;
        ve_bits(o + L->pending, e->pend);
        if (e->phase == VP_CAPTURE) {
            ve_bits(o + L->card, UINT64_C(1) << e->card);
            ve_bits(o + L->partial, e->partial);
        }
        int done;
        uint64_t legal = ve_legal(e, me, &done);
        for (uint64_t m = legal; m; m &= m - 1) mask[rs_low(m)] = 1;
        if (done) mask[N_CARDS] = 1;
        e->legal = legal; e->legal_done = done;
    } else {
        e->legal = 0; e->legal_done = 0;
    }
    for (int j = 0; j < n; j++)
        for (int b = 0; b < N_BONUS; b++) o[L->bonuses + j * N_BONUS + b] = (float)e->decl_n[(me + j) % n][b];
    for (int j = 0; j < k; j++) {
        int side = (me % k + j) % k;
        for (int c = 0; c < N_CAT; c++) {
            int64_t pts = h->evp[side][c] - (j == 0 && !over ? e->pend_pts[c] : 0);
            o[L->points + j * N_CAT + c] = (float)pts;
        }
    }
    /* the game's totals stay 0: every hand here starts a game, and the C back end refuses points that count
     * as they are made (checks/running.py), the one way they move within a hand */
    o[L->target] = (float)VE_TARGET;
}

/* a fresh hand for env e, played up to the agent's first decision (dealt again, the next hand of the env,
 * while a deal ends the hand before it: at most VE_EMPTY_DEALS times) */
static int ve_reset_one(VEnv *e, int seats, int agent, int64_t stride) {
    for (int tries = 0; tries < VE_EMPTY_DEALS; tries++) {
        if (ve_deal(e, seats) || ve_advance(e, agent)) return rs_err_code;
        if (e->phase != VP_OVER) return 0;
        e->index += stride;
    }
    return rs_err_code = 7;
}

static int ve_check(int64_t count, int seats, int agent, int64_t obs_size, int64_t actions) {
    if (count < 1 || count > VE_MAX_ENVS || ve_layout(seats) || agent < -1 || agent >= seats) return -1;
    VL.actions = (int)actions;
    if (obs_size != VL.size || actions < N_CARDS + 1 || actions > (1 << 24)) return -1;
    return 0;
}

/* Env i deals hand i of the run `seed` (then i + total, ...; i and total as rs_vec_shard made them) and plays to the agent's first decision (agent
 * -1: every seat is an agent's). seat[i]: the seat whose observation obs[i] is. */
int rs_vec_reset(void *p, int64_t count, int seats, int agent, uint64_t seed, float *obs, int8_t *mask,
                 int32_t *seat, int64_t obs_size, int64_t actions) {
    if (!p || ve_check(count, seats, agent, obs_size, actions)) return -1;
    VEnv *envs = (VEnv *)p;
    rs_err_code = 0;
    sub_reset();
    for (int64_t i = 0; i < count; i++) {
        VEnv *e = &envs[i];
        e->seed = seed; e->index = e->first;
        /* the random agent's stream: hand i's of the run ~seed (run/stream.py: Stream.for_hand(~seed, i)) */
        rs_stream_start(&e->arng, rs_stream_step(rs_stream_step(~seed, RS_HAND), (uint64_t)e->first));
        e->cur = agent < 0 ? 0 : agent;
        if (ve_reset_one(e, seats, agent, e->stride)) return rs_err_code;
        ve_observe(e, e->cur, obs + i * obs_size, mask + i * actions);
        seat[i] = e->cur;
    }
    return 0;
}

/* One action per env. An env whose episode ended on the step before starts its next hand, its action
 * ignored (Gymnasium's NEXT_STEP autoreset). An action outside the mask ends the episode (illegal[i] = 1,
 * the state unchanged, the reward illegal_reward). reward: the agent's at the hand's end, else 0; with agent
 * -1, `seats` rewards per env, one per seat (the illegal reward the acting seat's). seat[i]: as rs_vec_reset. */
int rs_vec_step(void *p, int64_t count, int seats, int agent, double stake, double illegal_reward,
                const int64_t *act, float *obs, int8_t *mask, float *reward, int8_t *term, int8_t *illegal,
                int32_t *seat, int64_t obs_size, int64_t actions) {
    if (!p || ve_check(count, seats, agent, obs_size, actions)) return -1;
    VEnv *envs = (VEnv *)p;
    int R = agent < 0 ? seats : 1;               /* rewards per env */
    rs_err_code = 0;
    for (int64_t i = 0; i < count; i++) {
        VEnv *e = &envs[i];
        float *r = reward + i * R;
        for (int s = 0; s < R; s++) r[s] = 0;
        term[i] = 0; illegal[i] = 0;
        if (e->phase == VP_OVER || e->illegal) {
            e->index += e->stride;
            if (ve_reset_one(e, seats, agent, e->stride)) return rs_err_code;
        } else {
            int64_t a = act[i];
            int done;
            uint64_t legal = ve_legal(e, e->cur, &done);
            if (rs_err_code) return rs_err_code;
            int ok = a == N_CARDS ? done : (a >= 0 && a < N_CARDS && (legal >> a & 1));
            if (!ok) {
                e->illegal = 1; illegal[i] = 1; term[i] = 1; r[agent < 0 ? e->cur : 0] = (float)illegal_reward;
            } else {
                if (ve_act(e, agent, a)) return rs_err_code;
                if (e->phase == VP_OVER) {
                    if (ve_reward(e, stake)) return rs_err_code;
                    for (int s = 0; s < R; s++) r[s] = (float)e->values[(agent < 0 ? s : agent) % e->h.k];
                    term[i] = 1;
                }
            }
        }
        ve_observe(e, e->cur, obs + i * obs_size, mask + i * actions);
        seat[i] = e->cur;
    }
    return 0;
}

/* A uniformly random legal action per env, ascending order (cards, then DONE), drawn from the env's own
 * generator; 0 for an env whose episode is over (its next step ignores it), with no draw. */
int rs_vec_sample(void *p, int64_t count, int64_t *out) {
    if (!p || count < 1 || count > VE_MAX_ENVS) return -1;
    VEnv *envs = (VEnv *)p;
    for (int64_t i = 0; i < count; i++) {
        VEnv *e = &envs[i];
        int n = rs_popcount(e->legal) + e->legal_done;
        if (e->phase == VP_OVER || e->illegal || n == 0) { out[i] = 0; continue; }
        int r = (int)rs_below(&e->arng, (uint32_t)n);
        uint64_t m = e->legal;
        if (r == rs_popcount(m)) { out[i] = N_CARDS; continue; }
        for (; r; r--) m &= m - 1;
        out[i] = rs_low(m);
    }
    return 0;
}

/* Each env's hand now: its number in the run (index[i]) and its deck's order as last shuffled (order[i]). */
int rs_vec_deal(void *p, int64_t count, int64_t *index, uint8_t *order) {
    if (!p || count < 1 || count > VE_MAX_ENVS) return -1;
    VEnv *envs = (VEnv *)p;
    for (int64_t i = 0; i < count; i++) {
        index[i] = envs[i].index;
        memcpy(order + i * N_CARDS, envs[i].h.order, N_CARDS);
    }
    return 0;
}
"""
# ve_deal deals each hand as rs_simulate (rs_play) does (emit_hand.py).
VECTOR_C = VECTOR_C.replace("@HAND_SETUP@", hand_setup("h", "i", "rs_stream_step(e->seed, RS_HAND)", " " * 4))

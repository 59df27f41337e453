#!/usr/bin/env python3
"""Independent, deliberately plain reference implementation of Konane (RULES.md).

Board: list of lists, board[row][col] in {'b', 'w', '.'}; row 0 = top, col 0 = left.
Square name: file letter (col) + rank (R - row).
"""
import sys, os, time, multiprocessing

FILES = "abcdefghijklmnop"
DIRS = [(-1, 0), (1, 0), (0, -1), (0, 1)]


# ---------------------------------------------------------------- naming
def sq_name(R, r, c):
    return FILES[c] + str(R - r)


def parse_sq(R, C, s):
    s = s.strip().lower()
    c = FILES.index(s[0])
    r = R - int(s[1:])
    if not (0 <= r < R and 0 <= c < C):
        raise ValueError("square off board: " + s)
    return r, c


# ---------------------------------------------------------------- positions
class Pos:
    def __init__(self, board, side):
        self.board = board
        self.side = side
        self.R = len(board)
        self.C = len(board[0])
        self.empty = sum(row.count('.') for row in board)

    def text(self):
        return "/".join("".join(row) for row in self.board) + " " + self.side

    def copy(self):
        return Pos([row[:] for row in self.board], self.side)


def start_pos(R, C):
    if not (1 <= R <= 16 and 1 <= C <= 16):
        raise ValueError("size out of range")
    return Pos([['b' if (r + c) % 2 == 0 else 'w' for c in range(C)] for r in range(R)], 'b')


def parse_pos(text):
    parts = text.split()
    if len(parts) != 2:
        raise ValueError("expected '<rows> <side>'")
    rows = parts[0].split('/')
    if any(len(r) != len(rows[0]) for r in rows):
        raise ValueError("rows of unequal length")
    R, C = len(rows), len(rows[0])
    if not (1 <= R <= 16 and 1 <= C <= 16):
        raise ValueError("size outside 1..16")
    for r in rows:
        for ch in r:
            if ch not in "bw.":
                raise ValueError("unknown character %r" % ch)
    if parts[1] not in ("b", "w"):
        raise ValueError("unknown side to move")
    p = Pos([list(r) for r in rows], parts[1])
    if p.empty == 0 and p.side == 'w':
        raise ValueError("full board with White to move")
    if p.empty == 1 and p.side == 'b':
        raise ValueError("one empty square with Black to move")
    return p


# ---------------------------------------------------------------- opening squares
def middles(n):
    return [n // 2] if n % 2 == 1 else [n // 2 - 1, n // 2]


def is_black_sq(r, c):
    return (r + c) % 2 == 0


def black_removal_squares(R, C, opening):
    central = [(r, c) for r in middles(R) for c in middles(C) if is_black_sq(r, c)]
    if not central:
        # both odd and the single middle square is White
        mr, mc = R // 2, C // 2
        central = [(mr + dr, mc + dc) for dr, dc in DIRS
                   if 0 <= mr + dr < R and 0 <= mc + dc < C and is_black_sq(mr + dr, mc + dc)]
    allowed = set(central)
    if opening == "center-or-corner":
        for r, c in [(0, 0), (0, C - 1), (R - 1, 0), (R - 1, C - 1)]:
            if is_black_sq(r, c):
                allowed.add((r, c))
    elif opening != "center":
        raise ValueError("unknown opening " + opening)
    return sorted(allowed)


# ---------------------------------------------------------------- move generation
# move tuples: ('r', r, c)  or  ('j', r, c, dr, dc, k)
def legal_moves(p, opening):
    b, R, C, me = p.board, p.R, p.C, p.side
    if p.empty == 0:
        if me != 'b':
            return []
        return [('r', r, c) for r, c in black_removal_squares(R, C, opening) if b[r][c] == 'b']
    if p.empty == 1:
        if me != 'w':
            return []
        er, ec = [(r, c) for r in range(R) for c in range(C) if b[r][c] == '.'][0]
        out = []
        for dr, dc in DIRS:
            r, c = er + dr, ec + dc
            if 0 <= r < R and 0 <= c < C and b[r][c] == 'w':
                out.append(('r', r, c))
        return out
    opp = 'w' if me == 'b' else 'b'
    out = []
    for r in range(R):
        for c in range(C):
            if b[r][c] != me:
                continue
            for dr, dc in DIRS:
                k = 1
                while True:
                    mr, mc = r + (2 * k - 1) * dr, c + (2 * k - 1) * dc
                    lr, lc = r + 2 * k * dr, c + 2 * k * dc
                    if not (0 <= lr < R and 0 <= lc < C):
                        break
                    if b[mr][mc] != opp or b[lr][lc] != '.':
                        break
                    out.append(('j', r, c, dr, dc, k))
                    k += 1
    return out


def move_name(p, m):
    if m[0] == 'r':
        return sq_name(p.R, m[1], m[2])
    _, r, c, dr, dc, k = m
    return sq_name(p.R, r, c) + "-" + sq_name(p.R, r + 2 * k * dr, c + 2 * k * dc)


def make(p, m):
    b = p.board
    if m[0] == 'r':
        b[m[1]][m[2]] = '.'
        p.empty += 1
    else:
        _, r, c, dr, dc, k = m
        b[r][c] = '.'
        for i in range(1, k + 1):
            b[r + (2 * i - 1) * dr][c + (2 * i - 1) * dc] = '.'
        b[r + 2 * k * dr][c + 2 * k * dc] = p.side
        p.empty += k
    p.side = 'w' if p.side == 'b' else 'b'


def undo(p, m):
    p.side = 'w' if p.side == 'b' else 'b'
    b = p.board
    me = p.side
    opp = 'w' if me == 'b' else 'b'
    if m[0] == 'r':
        b[m[1]][m[2]] = me
        p.empty -= 1
    else:
        _, r, c, dr, dc, k = m
        b[r + 2 * k * dr][c + 2 * k * dc] = '.'
        for i in range(1, k + 1):
            b[r + (2 * i - 1) * dr][c + (2 * i - 1) * dc] = opp
        b[r][c] = me
        p.empty -= k


def perft(p, opening, d):
    ms = legal_moves(p, opening)
    if d == 1:
        return len(ms)
    n = 0
    for m in ms:
        make(p, m)
        n += perft(p, opening, d - 1)
        undo(p, m)
    return n


# ---------------------------------------------------------------- vectors
def check_vectors(path):
    games = []
    cur = None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("## game:"):
            f = line.split()
            cur = {"size": f[2], "opening": f[4], "plies": [], "end": None}
            games.append(cur)
        elif line.startswith("#") or not line.strip():
            continue
        else:
            key, _, rest = line.partition(" ")
            rest = rest.strip()
            if key == "pos":
                cur["plies"].append({"pos": rest})
            elif key == "moves":
                cur["plies"][-1]["moves"] = set() if rest == "(none)" else set(rest.split())
            elif key == "play":
                cur["plies"][-1]["play"] = rest
            elif key == "end":
                cur["end"] = rest
            else:
                raise ValueError("unknown line " + line)
    errors = 0
    nplies = 0
    for gi, g in enumerate(games):
        R, C = map(int, g["size"].split("x"))
        op = g["opening"]
        plies = g["plies"]
        if plies[0]["pos"] != start_pos(R, C).text():
            print("game %d: first pos is not start pos" % gi); errors += 1
        for i, ply in enumerate(plies):
            nplies += 1
            p = parse_pos(ply["pos"])
            if (p.R, p.C) != (R, C):
                print("game %d ply %d: size mismatch" % (gi, i)); errors += 1
            if p.text() != ply["pos"]:
                print("game %d ply %d: text roundtrip" % (gi, i)); errors += 1
            ms = legal_moves(p, op)
            names = {move_name(p, m) for m in ms}
            if len(names) != len(ms):
                print("game %d ply %d: duplicate move names" % (gi, i)); errors += 1
            if names != ply["moves"]:
                print("game %d ply %d MOVES MISMATCH pos %s\n  mine-only %s\n  theirs-only %s" % (
                    gi, i, ply["pos"], sorted(names - ply["moves"]), sorted(ply["moves"] - names)))
                errors += 1
            if "play" in ply:
                mm = [m for m in ms if move_name(p, m) == ply["play"].lower().replace("x", "-")]
                if len(mm) != 1:
                    print("game %d ply %d: played move %s not legal" % (gi, i, ply["play"])); errors += 1
                    break
                before = p.text()
                make(p, mm[0])
                after = p.text()
                if i + 1 >= len(plies) or after != plies[i + 1]["pos"]:
                    print("game %d ply %d: result mismatch %s vs %s" % (
                        gi, i, after, plies[i + 1]["pos"] if i + 1 < len(plies) else None)); errors += 1
                undo(p, mm[0])
                if p.text() != before or p.empty != parse_pos(before).empty:
                    print("game %d ply %d: undo broken" % (gi, i)); errors += 1
            else:
                # last ply: side to move must have no moves, matches end line
                if ms:
                    print("game %d: final position has moves" % gi); errors += 1
                who = "White" if p.side == 'w' else "Black"
                if not (g["end"] or "").startswith(who + " to move has no move"):
                    print("game %d: end line mismatch: %s" % (gi, g["end"])); errors += 1
                if len(plies) - 1 != int(g["end"].split("after")[1].split()[0]):
                    print("game %d: ply count mismatch" % gi); errors += 1
    return games, errors, nplies


# ---------------------------------------------------------------- parallel perft
def _task(args):
    text, opening, path, d = args
    t0 = time.process_time()
    p = parse_pos(text)
    for nm in path:
        ms = {move_name(p, m): m for m in legal_moves(p, opening)}
        make(p, ms[nm])
    n = perft(p, opening, d) if d >= 1 else 1
    return n, time.process_time() - t0


def split_tasks(p, opening, d, min_tasks=64):
    """Expand plies serially until there are >= min_tasks move paths (or only one
    ply of depth would be left per task).  Returns (paths, plies)."""
    paths = [[]]
    plies = 0
    while len(paths) < min_tasks and plies < d - 1:
        new = []
        for path in paths:
            r = p.copy()
            for nm in path:
                ms = {move_name(r, m): m for m in legal_moves(r, opening)}
                make(r, ms[nm])
            for m in legal_moves(r, opening):
                new.append(path + [move_name(r, m)])
        paths = new
        plies += 1
        if not paths:
            break
    return paths, plies


def perft_parallel(pool, p, opening, d, wall_limit):
    """Returns (value, cpu_seconds) or (None, cpu) if aborted by wall_limit."""
    t0 = time.process_time()
    if d <= 3:
        n = perft(p.copy(), opening, d)
        return n, time.process_time() - t0
    paths, plies = split_tasks(p, opening, d)
    setup = time.process_time() - t0
    text = p.text()
    res = pool.map_async(_task, [(text, opening, path, d - plies) for path in paths], chunksize=1)
    try:
        out = res.get(timeout=wall_limit)
    except multiprocessing.TimeoutError:
        return None, None
    return sum(n for n, _ in out), setup + sum(t for _, t in out)


def deepen(pool, p, opening, label, log, cpu_limit=60.0, wall_abort=110.0, maxd=200):
    """Go deeper until a depth costs > cpu_limit CPU seconds (that value is still kept
    if it finished), or the tree is exhausted (value 0)."""
    results = []
    exhausted = None
    prev_t = None
    for d in range(1, maxd + 1):
        # don't start a depth that is predicted to cost much more than cpu_limit
        if len(results) >= 2 and results[-1][0]:
            (v1, t1), (v2, t2) = results[-2], results[-1]
            if t1 >= 0.5:
                pred = t2 * t2 / t1
            else:
                pred = t2 * max(1.0, v2 / max(1, v1))
            if pred > 1.5 * cpu_limit:
                log("  %s: skip d=%d (predicted %.0fs cpu)" % (label, d, pred))
                break
        v, t = perft_parallel(pool, p, opening, d, wall_abort)
        if v is None:
            log("  %s: d=%d aborted after %.0fs wall" % (label, d, wall_abort))
            pool_restart[0] = True
            break
        log("  %s: perft %d = %d  (%.2fs cpu)" % (label, d, v, t))
        results.append((v, t))
        prev_t = t
        if v == 0:
            exhausted = d
            break
        if t > cpu_limit:
            break
    return [v for v, _ in results], exhausted, [t for _, t in results]


pool_restart = [False]


def main():
    T0 = time.time()
    # Writes run.log and perft_tables.txt in the current directory (it resumes from the
    # latter); compare with crates/konane-core/tests/data/perft.txt.
    here = os.getcwd()
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    logf = open(os.path.join(here, "run.log"), "w")

    def log(s):
        print(s, flush=True)
        logf.write(s + "\n"); logf.flush()

    games, errors, nplies = check_vectors(os.path.join(repo, "crates", "konane-core", "tests", "data", "games.txt"))
    log("vectors: %d games, %d positions, %d errors" % (len(games), nplies, errors))
    if errors:
        sys.exit(1)

    # sanity anchor
    a = [perft(start_pos(8, 8), "center-or-corner", d) for d in range(1, 6)]
    log("anchor 8x8 coc 1..5: %s" % a)
    assert a == [4, 12, 28, 172, 892], a

    only = sys.argv[1:]  # optional filter on labels
    blocks = []
    sizes = [(1, 1), (1, 7), (2, 2), (3, 3), (3, 5), (4, 4), (4, 5), (5, 5), (5, 6), (6, 6),
             (7, 7), (6, 8), (8, 8), (9, 9), (10, 10), (12, 12), (16, 16),
             (3, 8), (16, 4), (7, 5), (1, 16), (2, 9), (5, 7), (11, 13)]
    jobs = []
    for R, C in sizes:
        for op in ("center-or-corner", "center"):
            jobs.append(("%dx%d %s start" % (R, C, op), "%dx%d" % (R, C), op, start_pos(R, C).text()))
    # mid-game positions from games.txt
    picks = [("8x8", "center-or-corner", 0), ("6x6", "center-or-corner", 0), ("10x10", "center-or-corner", 0),
             ("16x16", "center-or-corner", 0), ("5x7", "center-or-corner", 0), ("7x5", "center-or-corner", 0),
             ("6x8", "center", 0), ("9x9", "center-or-corner", 0)]
    for size, op, _ in picks:
        g = [g for g in games if g["size"] == size and g["opening"] == op][0]
        # the middle ply: a jumping-phase position
        i = len(g["plies"]) // 2
        jobs.append(("%s %s mid-game, ply %d of games.txt game '%s opening %s'" % (size, op, i, size, op),
                     size, op, g["plies"][i]["pos"]))
    # an early position (one removal each done) to exercise the removal->jump boundary in perft
    g = [g for g in games if g["size"] == "5x7"][0]
    jobs.append(("5x7 center-or-corner after both removals (ply 2 of games.txt game '5x7')",
                 "5x7", "center-or-corner", g["plies"][2]["pos"]))

    done = load_tables(os.path.join(here, "perft_tables.txt"))
    pool = multiprocessing.Pool(2)
    for label, size, op, text in jobs:
        prev = [b for b in done if b[0].startswith(label) and b[3] == text and b[2] == op]
        if prev:
            blocks.append(prev[0]); log("%s: reused from previous run" % label)
            continue
        if only and not any(o in label for o in only):
            continue
        p = parse_pos(text)
        if pool_restart[0]:
            pool.terminate(); pool.join(); pool = multiprocessing.Pool(2); pool_restart[0] = False
        t1 = time.time()
        vals, exhausted, times = deepen(pool, p, op, label, log)
        comment = label
        if exhausted:
            comment += "; game tree exhausted at depth %d: all deeper perft values are 0" % exhausted
        blocks.append((comment, size, op, text, vals))
        log("%s: depths %d, %.1fs wall" % (label, len(vals), time.time() - t1))
        write_tables(os.path.join(here, "perft_tables.txt"), blocks)
    pool.terminate()
    log("total wall %.1fs" % (time.time() - T0))


def load_tables(path):
    out = []
    if not os.path.exists(path):
        return out
    for chunk in open(path).read().split("\n\n"):
        lines = chunk.strip().split("\n")
        if not lines or not lines[0].startswith("#"):
            continue
        kv = {}
        vals = []
        for ln in lines[1:]:
            k, _, v = ln.partition(" ")
            if k == "perft":
                vals.append(int(v.split()[1]))
            else:
                kv[k] = v
        out.append((lines[0][2:], kv["size"], kv["opening"], kv["position"], vals))
    return out


def write_tables(path, blocks):
    with open(path + ".tmp", "w") as f:
        out = []
        for comment, size, op, text, vals in blocks:
            s = "# %s\nsize %s\nopening %s\nposition %s\n" % (comment, size, op, text)
            s += "".join("perft %d %d\n" % (d, v) for d, v in enumerate(vals, 1))
            out.append(s)
        f.write("\n".join(out))
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()

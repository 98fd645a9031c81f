"""Legal plays per second: bgclock.board against gnubg's C move generator.

Same positions and rolls for both (a fixed seed); prints plays/s of each and
the ratio.  ``gnubg_nn`` is a test/bench-only dependency (GPL): never imported
from bgclock/.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gnubg_nn  # noqa: E402

from bgclock.board import legal_plays  # noqa: E402
from bgclock.board._moves import generate, pack  # noqa: E402
from tests.board_random import random_position  # noqa: E402

N = 20_000


def main() -> None:
    rng = random.Random(12345)
    cases = [(random_position(rng), rng.randint(1, 6), rng.randint(1, 6)) for _ in range(N)]
    packed = [(pack(p), a, b) for p, a, b in cases]
    boards = [([list(p.opponent), list(p.on_roll)], a, b) for p, a, b in cases]

    t0 = time.perf_counter()
    ours = sum(len(generate(m, bl, bt, a, b)) for (m, bl, bt), a, b in packed)
    t_ours = time.perf_counter() - t0

    t0 = time.perf_counter()
    public = sum(len(legal_plays(p, a, b)) for p, a, b in cases)
    t_public = time.perf_counter() - t0

    t0 = time.perf_counter()
    theirs = sum(max(1, len(gnubg_nn.moves(bd, a, b))) for bd, a, b in boards)
    t_gnubg = time.perf_counter() - t0

    r_ours, r_public, r_gnubg = ours / t_ours, public / t_public, theirs / t_gnubg
    print(f"positions x rolls: {N} (seed 12345; contact, bar, closed, bear-off, race, mixed)")
    print(f"plays found: ours {ours}, gnubg {theirs} (a roll with no move counts one)")
    print(f"bgclock.board generator (packed results): {r_ours:12,.0f} plays/s")
    print(f"bgclock.board legal_plays (Play objects): {r_public:12,.0f} plays/s")
    print(f"gnubg_nn.moves (C):                       {r_gnubg:12,.0f} plays/s")
    print(
        f"ratio ours/gnubg: generator {r_ours / r_gnubg:.3f}, "
        f"legal_plays {r_public / r_gnubg:.3f}"
    )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""What judging CPU per request relative to PostgreSQL's would do to a PR's verdict, resampled from real drill rounds.

An independent check, not the runner's code: it re-implements the paired rule of docs/method.md (per round the log
ratio head/base of each start's value; a t-test on their mean, two-sided; a regression when the p-value passes the
family's level and the change reaches the 5 % minimum effect) and feeds it rounds drawn with replacement from the
A/A drills' own rounds, as measured and divided by PostgreSQL's CPU per request of the same start.

    2026-12-03-pg-gauge-sim.py [--cell scenario/regime] <run.json[.gz]>...
        # drill records: copies a and aa (and cpu10 if present); the cell defaults to join-filter/capacity

For each record and all pooled, per series (CPU as measured, CPU / PostgreSQL's CPU):
  - the A/A paired sd per round;
  - the share of simulated 7-round PRs that call a regression or an improvement at the level of one series among 12
    (Bonferroni: Holm's first step), and at alpha alone: the false alarms;
  - with +10 % added to every head start (a pure CPU regression, none of it absorbed by the gauge), the share found;
  - where a record has a cpu10 copy, the same with its real rounds (cpu10 against a), absorption included.
"""
import gzip
import json
import math
import random
import sys

CELL = ("join-filter", "capacity")
ROUNDS = 7
SERIES = 12
ALPHA = 0.05
MIN_EFFECT = math.log(1.05)
REPLICATIONS = 20000


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def per_start(run, copy):
    """round -> (CPU per request, PostgreSQL's CPU per request), geometric means over each start's windows."""
    out = {}
    for cell in run["cells"]:
        if not cell["variant"].endswith("--" + copy) or (cell["scenario"], cell["regime"]) != CELL:
            continue
        for trial in cell["trials"]:
            if trial["status"] != "ok":
                continue
            windows = [w["metrics"] for w in trial["windows"]]
            if not windows or any("postgres_cpu_us_per_req" not in w or "cpu_us_per_req" not in w for w in windows):
                continue
            cpu = math.exp(sum(math.log(w["cpu_us_per_req"]) for w in windows) / len(windows))
            pg = math.exp(sum(math.log(w["postgres_cpu_us_per_req"]) for w in windows) / len(windows))
            out[trial["round"]] = (cpu, pg)
    return out


def paired(base, head):
    """Per round both copies measured: (ln ratio as measured, ln ratio relative to PostgreSQL's CPU)."""
    rows = []
    for r in sorted(set(base) & set(head)):
        (bc, bp), (hc, hp) = base[r], head[r]
        rows.append((math.log(hc / bc), math.log((hc / hp) / (bc / bp))))
    return rows


def betainc(a, b, x):
    """The regularized incomplete beta function I_x(a, b), by its continued fraction (Numerical Recipes, betacf)."""
    if x <= 0 or x >= 1:
        return 0.0 if x <= 0 else 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x))
    if x > (a + 1) / (a + b + 2):
        return 1 - betainc(b, a, 1 - x)
    c, d, f = 1.0, 1 - (a + b) * x / (a + 1), 0.0
    d = 1 / (d if abs(d) > 1e-300 else 1e-300)
    f = d
    for m in range(1, 300):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > 1e-300 else 1e-300)
            c = 1 + numerator / c
            c = c if abs(c) > 1e-300 else 1e-300
            f *= c * d
        if abs(c * d - 1) < 1e-12:
            break
    return front * f / a


def t_two_sided(t, df):
    """P(|T| >= |t|) for Student's t with df degrees of freedom."""
    return betainc(df / 2, 0.5, df / (df + t * t))


def verdict(d, level):
    n = len(d)
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    if sd == 0:
        return 0
    p = t_two_sided(mean / (sd / math.sqrt(n)), n - 1)
    if p <= level and abs(mean) >= MIN_EFFECT:
        return 1 if mean > 0 else -1
    return 0


def rates(d, shift, rng):
    found = {"family": 0, "alpha": 0}
    for _ in range(REPLICATIONS):
        draw = [rng.choice(d) + shift for _ in range(ROUNDS)]
        for name, level in (("family", ALPHA / SERIES), ("alpha", ALPHA)):
            v = verdict(draw, level)
            found[name] += (v != 0) if shift == 0 else (v > 0)
    return {k: v / REPLICATIONS for k, v in found.items()}


def sd(d):
    m = sum(d) / len(d)
    return math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1))


def report(name, aa_rows, cpu10_rows, rng):
    print(f"## {name}: {len(aa_rows)} A/A rounds" + (f", {len(cpu10_rows)} cpu10 rounds" if cpu10_rows else ""))
    for i, series in enumerate(("CPU as measured", "CPU / PostgreSQL's CPU")):
        d = [row[i] for row in aa_rows]
        aa = rates(d, 0, rng)
        ten = rates(d, math.log(1.10), rng)
        line = (f"- {series}: A/A paired sd {100 * sd(d):.1f} %; false alarms {100 * aa['family']:.2f} % (1 of"
                f" {SERIES}) / {100 * aa['alpha']:.1f} % (alpha); +10 % found {100 * ten['family']:.1f} % /"
                f" {100 * ten['alpha']:.1f} %")
        if cpu10_rows:
            c = [row[i] for row in cpu10_rows]
            real = rates(c, 0.0, rng)  # shift 0: counts any verdict; the real copy's changes are all upward here
            mean = 100 * (math.exp(sum(c) / len(c)) - 1)
            line += (f"; real cpu10 rounds (mean {mean:+.1f} %, sd {100 * sd(c):.1f} %): a verdict in"
                     f" {100 * real['family']:.1f} % / {100 * real['alpha']:.1f} %")
        print(line)


def main(paths):
    global CELL
    if paths[:1] == ["--cell"]:
        CELL = tuple(paths[1].split("/"))
        paths = paths[2:]
    rng = random.Random(20261203)
    pooled = []
    for path in paths:
        run = load(path)
        a, aa, cpu10 = per_start(run, "a"), per_start(run, "aa"), per_start(run, "cpu10")
        rows = paired(a, aa)
        pooled += rows
        report(path.rsplit("/", 1)[-1], rows, paired(a, cpu10) if cpu10 else [], rng)
    if len(paths) > 1:
        report("pooled", pooled, [], rng)


if __name__ == "__main__":
    main(sys.argv[1:])

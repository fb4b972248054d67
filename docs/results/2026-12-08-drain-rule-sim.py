"""Simulates CellSession.backlog as coded since 2026-12-08, both sides: a latency start is unsteady when the
iterations that arrived in the windows' span and those that ended in it differ by more than max(10, 2 % of arrivals):
'overloaded' when fewer ended (a queue growing), 'draining' when more ended (a queue left by the warmup). A single-
server FIFO queue (the service's one core), exponential service times, arrivals at a fixed spacing (Gatling's
constantUsersPerSec) or Poisson, a 20 s warmup before 3 x 5 s windows; optionally the server stalls for the warmup's
first `stall` seconds, as express-sequelize did in the run of 2026-12-08 (0 req/s in its first and sixth second).
Prints the share of starts flagged draining / overloaded per utilisation: without a stall and below 1 the draining
share is the rule's false-alarm rate; with a stall it is its power.
Usage: python3 2026-12-08-drain-rule-sim.py [replications]"""
import random, sys

def verdict(rate, rho, poisson, stall, rng, warm=20.0, span=15.0):
    mean_service = rho / rate
    t, free_at, arrivals, ended = 0.0, stall, 0, 0
    a, b = warm, warm + span
    while t < b:
        t += rng.expovariate(rate) if poisson else 1.0 / rate
        start = max(t, free_at)
        free_at = start + rng.expovariate(1.0 / mean_service)
        if a <= t < b:
            arrivals += 1
        if a <= free_at < b:
            ended += 1
    bound = max(10, 0.02 * arrivals)
    return "overloaded" if arrivals - ended > bound else "draining" if ended - arrivals > bound else None

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 400
rng = random.Random(20261208)
for rate in (25, 190, 420):
    for poisson in (False, True):
        for stall in (0.0, 3.0):
            row = []
            for rho in (0.5, 0.8, 0.9, 0.95, 0.97, 1.02):
                flags = [verdict(rate, rho, poisson, stall, rng) for _ in range(reps)]
                row.append("%.2f: %5.1f%% / %5.1f%%" % (rho, 100.0 * flags.count("draining") / reps,
                                                        100.0 * flags.count("overloaded") / reps))
            print("rate %3d/s %-7s stall %.0f s |" % (rate, "poisson" if poisson else "fixed", stall),
                  "  ".join(row))

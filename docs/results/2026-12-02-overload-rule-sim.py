"""Simulates CellSession.overloaded as coded: flagged when arrivals - ended iterations in the windows' span exceed
max(10, 2 % of arrivals). A single-server FIFO queue (the service's one core), exponential service times, arrivals at
a fixed spacing (Gatling's constantUsersPerSec) or Poisson, a 20 s warmup before 3 x 5 s windows. Prints the share of
starts flagged per utilisation: below 1 that is the false-alarm rate, above 1 the power.
Usage: python3 2026-12-02-overload-rule-sim.py [replications]"""
import random, sys

def flagged(rate, rho, poisson, rng, warm=20.0, span=15.0):
    mean_service = rho / rate
    t, free_at, arrivals, ended = 0.0, 0.0, 0, 0
    a, b = warm, warm + span
    while t < b:
        t += rng.expovariate(rate) if poisson else 1.0 / rate
        start = max(t, free_at)
        free_at = start + rng.expovariate(1.0 / mean_service)
        if a <= t < b:
            arrivals += 1
        if a <= free_at < b:
            ended += 1
    return arrivals - ended > max(10, 0.02 * arrivals)

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 400
rng = random.Random(20261202)
for rate in (25, 190, 3700):
    for poisson in (False, True):
        row = []
        for rho in (0.5, 0.8, 0.9, 0.95, 1.02, 1.05, 1.1):
            n = reps if rate < 1000 else max(50, reps // 8)
            row.append("%.2f:%5.1f%%" % (rho, 100.0 * sum(flagged(rate, rho, poisson, rng) for _ in range(n)) / n))
        print("rate %4d/s %-8s" % (rate, "poisson" if poisson else "fixed"), "  ".join(row))

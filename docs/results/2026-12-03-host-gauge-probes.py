"""Do low-duty fixed-work probes on the service's core follow what inflates the service's CPU per request?

Usage: python3 2026-12-03-host-gauge-probes.py <run.json> [name=probe-log ...]
A probe log has one line per sample: wall epoch ms, thread CPU ns of one unit of work. Per measured window, each
probe's median sample inside the window is its gauge; per cell (regime), the one-way random-effects components (ln
scale, as CV %) over the same-jar starts (copies a and aa) of CPU per request as measured and divided by each gauge, and by the load generator's and
PostgreSQL's CPU per request; the A/A paired sd per round (copy aa over copy a) of each.
"""
import bisect, json, math, statistics as st, sys

run = json.load(open(sys.argv[1]))
probes = {}
for arg in sys.argv[2:]:
    name, path = arg.split('=', 1)
    samples = sorted(tuple(map(int, l.split())) for l in open(path) if len(l.split()) == 2)
    probes[name] = ([s[0] for s in samples], [s[1] for s in samples])


def gauge(name, t0, t1):
    times, values = probes[name]
    xs = values[bisect.bisect_left(times, t0):bisect.bisect_right(times, t1)]
    return st.median(xs) if len(xs) >= 10 else None


cells = {}  # regime -> list of (copy, round, [window metrics])
for cell in run['cells']:
    for trial in cell['trials']:
        if trial['status'] != 'ok':
            continue
        windows = []
        for w in trial['windows']:
            m = dict(w['metrics'])
            t0 = w['startedAtMs']
            t1 = t0 + int(w['seconds'] * 1000)
            for name in probes:
                m[name] = gauge(name, t0, t1)
            windows.append(m)
        copy = cell['variant'].split('--')[-1]
        if copy in ('a', 'aa'):  # the same jar: a drill's fault copies are other samples
            cells.setdefault(cell['regime'], []).append((copy, trial['round'], windows))


def components(groups):
    k, n = len(groups), len(groups[0])
    means = [st.mean(g) for g in groups]
    within = sum(sum((x - m) ** 2 for x in g) for g, m in zip(groups, means)) / (k * (n - 1))
    between = n * st.variance(means)
    return 100 * math.sqrt(max(0.0, (between - within) / n)), 100 * math.sqrt(within)


series = {'CPU per request': lambda m: m['cpu_us_per_req']}
for name in probes:
    series['CPU / ' + name] = lambda m, name=name: m['cpu_us_per_req'] / m[name] if m[name] else None
series['CPU / load generator CPU'] = lambda m: m['cpu_us_per_req'] / m['load_generator_cpu_us_per_req']
series['CPU / PostgreSQL CPU'] = lambda m: m['cpu_us_per_req'] / m['postgres_cpu_us_per_req']
for name in probes:
    series[name + ' alone'] = lambda m, name=name: m[name]
series['throughput'] = lambda m: m['throughput']

for regime, starts in cells.items():
    print(f'\n{regime}: {len(starts)} starts')
    print('| series | starts | between starts | within a start | A/A paired sd per round (rounds) |')
    print('|---|--:|--:|--:|--:|')
    for label, f in series.items():
        logs = []
        for copy, rnd, windows in starts:
            values = [f(m) for m in windows if 'cpu_us_per_req' in m]
            if len(values) == len(windows) and all(v for v in values):
                logs.append((copy, rnd, [math.log(v) for v in values]))
        if len(logs) < 3:
            continue
        between, within = components([g for _, _, g in logs])
        by = {(c, r): st.mean(g) for c, r, g in logs}
        diffs = [by[('aa', r)] - by[('a', r)] for (c, r) in by if c == 'a' and ('aa', r) in by]
        paired = f'{100 * st.stdev(diffs):.1f} % ({len(diffs)})' if len(diffs) >= 3 else '—'
        print(f'| {label} | {len(logs)} | {between:.1f} % | {within:.1f} % | {paired} |')

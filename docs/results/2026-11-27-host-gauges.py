#!/usr/bin/env python3
"""The host's speed and CPU per request in interleaved runs (study: 2026-11-27-host-adjusted-cpu.md).

  gauges <run.json>...   per cell, the per-round log ratios head/base of the service's CPU per request, raw and
                         relative to three gauges (throughput, PostgreSQL's and the load generator's CPU per request),
                         their spread, and how the load generator's utilisation follows throughput
  retrofit <dir>         adds load_generator_cpu_us_per_req and postgres_cpu_us_per_req to a COPY of an A/B's run.json
                         and ab.json recorded before the runner measured them per window (from each start's mean
                         utilisation over its windows' throughput), so that `./bench ab --from <dir>` shows CPU relative
                         to the host's speed; an approximation for records older than the metrics, never for new ones

Pure standard library; reads the records as the runner wrote them (run.json v2, trials with utilisation).
"""
import json
import math
import statistics as st
import sys

GAUGE = 'load_generator_cpu_us_per_req'
POSTGRES = 'postgres_cpu_us_per_req'


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def side(variant):
    return 'head' if variant.split('--')[1] in ('head', 'aa') else 'base'


def gauges(path):
    run = json.load(open(path))
    cells = {}
    for c in run['cells']:
        for t in c['trials']:
            if t['status'] != 'ok' or not t.get('utilisation'):
                continue
            w = t['windows']
            thr = geomean([x['metrics']['throughput'] for x in w])
            u = t['utilisation']
            cells.setdefault(c['scenario'] + '/' + c['regime'], {}).setdefault(t['round'], {})[side(c['variant'])] = {
                'cpu': geomean([x['metrics']['cpu_us_per_req'] for x in w]), 'thr': thr,
                'pg': u['postgres'] / thr, 'lg': u['loadGenerator'] / thr, 'lgUtil': u['loadGenerator'],
                'bound': t['bottleneck']}
    print(path)
    for cell, rounds in cells.items():
        pairs = [r for r in rounds.values() if 'head' in r and 'base' in r]
        if len(pairs) < 3:
            continue
        d = {k: [math.log(p['head'][k] / p['base'][k]) for p in pairs] for k in ('cpu', 'thr', 'pg', 'lg', 'lgUtil')}
        bound = sorted({p[s]['bound'] for p in pairs for s in p})
        print(f'  {cell} ({len(pairs)} rounds, bound by {", ".join(bound)})')
        for name, values in (('as measured', d['cpu']),
                             ('x throughput', [a + b for a, b in zip(d['cpu'], d['thr'])]),
                             ('/ PostgreSQL CPU', [a - b for a, b in zip(d['cpu'], d['pg'])]),
                             ('/ load generator CPU', [a - b for a, b in zip(d['cpu'], d['lg'])])):
            mean, sd = st.mean(values), st.stdev(values)
            print(f'    CPU per request {name:<22} mean {100 * (math.exp(mean) - 1):+6.1f} %  sd {100 * sd:5.1f} %'
                  f'  t {mean / (sd / math.sqrt(len(values))):+5.2f}')
        print(f'    corr(CPU, load generator CPU) {st.correlation(d["cpu"], d["lg"]):.2f};'
              f' slope of CPU on it {st.linear_regression(d["lg"], d["cpu"]).slope:.2f};'
              f' slope of the load generator utilisation on throughput'
              f' {st.linear_regression(d["thr"], d["lgUtil"]).slope:.2f}')


def retrofit(directory):
    run = json.load(open(directory + '/run.json'))
    for c in run['cells']:
        for metric, key in ((GAUGE, 'loadGenerator'), (POSTGRES, 'postgres')):
            values, windows = [], []
            for t in c['trials']:
                u = (t.get('utilisation') or {}).get(key)
                if t['status'] != 'ok' or u is None:
                    continue
                ws = [u * 1e6 / x['metrics']['throughput'] for x in t['windows']]
                for x, g in zip(t['windows'], ws):
                    x['metrics'][metric] = g
                if all(g > 0 for g in ws):
                    values.append(geomean(ws))
                    windows.append(ws)
            if values and c.get('metrics') and len(values) == len(c['metrics']['cpu_us_per_req']['values']):
                c['metrics'][metric] = {'unit': 'µs', 'direction': 'smaller', 'n': len(values), 'values': values,
                                        'windows': windows, 'primary': False}
    for definition in run['metricDefinitions']:
        if definition['id'] == 'cpu_us_per_req':
            definition['adjustedBy'] = GAUGE
    for metric in (GAUGE, POSTGRES):
        run['metricDefinitions'].append({'id': metric, 'name': metric, 'label': metric, 'unit': 'µs',
                                         'direction': 'smaller', 'scope': 'cell', 'version': 1, 'primary': [],
                                         'description': 'retrofitted from utilisation', 'minEffectPct': 5})
    json.dump(run, open(directory + '/run.json', 'w'), indent=1)
    ab = json.load(open(directory + '/ab.json'))
    for metric in (GAUGE, POSTGRES):
        ab['metrics'][metric] = {'minEffectPct': 5.0}
    ab['metrics']['cpu_us_per_req']['adjustedBy'] = GAUGE
    json.dump(ab, open(directory + '/ab.json', 'w'), indent=1)


if __name__ == '__main__':
    if len(sys.argv) >= 3 and sys.argv[1] == 'gauges':
        for p in sys.argv[2:]:
            gauges(p)
    elif len(sys.argv) == 3 and sys.argv[1] == 'retrofit':
        retrofit(sys.argv[2])
    else:
        sys.exit(__doc__)

// The site in real headless Chromium over generated fixture histories (fixtures/generate.mjs).
// Screenshots go to site/test-artifacts/ (gitignored) for a human to look at.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOSTILE_AUTHOR, HOSTILE_MESSAGE, HOSTILE_SCENARIO, METRICS, STEP_IMPROVEMENT, STEP_LATEST, STEP_REGRESSION, writeAllCases } from '../fixtures/generate.mjs';
import { startServer } from '../serve.mjs';
import { publish } from '../publish.mjs';
import { cpSync } from 'node:fs';
import { launch, openPage } from './browser.mjs';

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

let browser;
let fixtures;
let cases;
const servers = new Map();

async function urlOf(name) {
  if (!servers.has(name)) servers.set(name, await startServer({ historyDir: cases[name] }));
  return servers.get(name).url;
}

/** Opens a fixture history at a hash and waits until the page has settled on a state (ready, empty or error). */
async function open(name, hash = '', options) {
  const page = await openPage(browser, options);
  await page.goto(`${await urlOf(name)}${hash}`);
  await page.waitForFunction(() => window.__restbench?.state && window.__restbench.state !== 'loading');
  return page;
}

/** Uncaught errors fail a test; a 404 for an optional file (index.json, latest.json, …) is expected. */
function assertNoProblems(page) {
  assert.deepEqual(page.problems.filter((p) => !p.includes('status of 404')), []);
  assert.deepEqual(page.dialogs, [], 'no dialog may open (an alert means injected markup ran)');
}

const shot = (page, name, fullPage = false) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage });
const hashOf = (page) => page.evaluate(() => decodeURIComponent(location.hash));
const drawnCharts = (page) => page.locator('.chart-card[data-drawn="true"]');
/** The filter panel starts collapsed; tests that change filters open it as a user would. */
async function openFilters(page) {
  const panel = page.locator('#filter-panel');
  if (!(await panel.evaluate((d) => d.open))) await panel.locator('summary').click();
  await page.waitForFunction(() => document.getElementById('filter-panel').open);
}

before(async () => {
  fixtures = mkdtempSync(join(tmpdir(), 'restbench-site-'));
  cases = Object.fromEntries(Object.entries(writeAllCases(fixtures)).map(([k, dir]) => [k, dirname(dirname(dir))]));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  for (const { server } of servers.values()) server.close();
  rmSync(fixtures, { recursive: true, force: true });
});

describe('overview', () => {
  test('shows the newest run in the report shape with n, spread, delta and verdict from latest.json', async () => {
    const page = await open('full');
    assert.equal(await page.evaluate(() => window.__restbench.state), 'ready');
    const table = page.locator('#table-measures');
    await table.waitFor({ state: 'attached' });
    const headers = await table.locator('thead th').allTextContents();
    // Labels and their order come from the run data (latest.json variants, from benchmarks.json), not from the site.
    assert.deepEqual(headers, ['Scenario', 'Measure', 'Jersey (JAX-RS) · Grizzly', 'Spring MVC · Tomcat', 'Spring Data REST · Tomcat']);
    assert.match(await table.locator('thead th').nth(4).getAttribute('title'), /Spring Data REST \(HAL\).*framework spring-data-rest · server tomcat.*dialect hal/);
    const variants = page.locator('#table-variants');
    assert.deepEqual(await variants.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.variant)), ['jersey', 'spring-mvc', 'spring-data-rest']);
    assert.match(await variants.locator('tr[data-variant=jersey]').textContent(), /Grizzly, HikariCP, plain JDBC.*jersey.*grizzly.*platform.*jdbc/s);
    const measures = await table.locator('tbody th[scope=row] .metric-id').allTextContents();
    for (const m of ['throughput', 'latency_p50', 'latency_p95', 'latency_p99', 'error_pct']) assert.ok(measures.includes(m), m);

    const throughput = page.locator('td[data-testid="jersey/read-heavy/latency/throughput"]');
    assert.match(await throughput.textContent(), /req\/s.*n=3 · spread [\d.]+ %.*[+−±][\d.]+ %/s);

    // The newest run's step (STEP_LATEST) is flagged in the resources table, with its delta.
    const flagged = page.locator(`td[data-testid="${STEP_LATEST.series}"]`);
    assert.equal(await flagged.getAttribute('data-verdict'), 'regression');
    assert.match(await flagged.textContent(), /\+2\d\.\d %.*regression/s);

    assert.match(await page.locator('td.failed').first().textContent(), /failed.*did not become healthy/s);
    // A cell never begun is neither a number nor a failure: it says "not measured" and why.
    const notMeasured = page.locator('td.not-measured');
    assert.equal(await notMeasured.count(), 1);
    assert.equal(await notMeasured.getAttribute('data-verdict'), 'not-measured');
    assert.match(await notMeasured.textContent(), /– not measured.*budget: not started/s);
    assert.doesNotMatch(await notMeasured.textContent(), /failed/);
    // latest.json v2: what bound a cell and an unsteady warmup are shown with the number; unchanged series say so.
    assert.match(await page.locator('td[data-testid="jersey/read-heavy/capacity/throughput"]').textContent(), /db-bound/);
    assert.doesNotMatch(await page.locator('td[data-testid="jersey/join-filter/latency/throughput"]').textContent(), /bound/);
    assert.match(await page.locator('td[data-testid="spring-data-rest/read-heavy/capacity/throughput"]').textContent(), /unsteady/);
    assert.ok(await page.locator('td[data-verdict="no-change"] .verdict').count() > 0, 'some series are judged "no change"');
    assert.equal(await page.locator('.verdict:text("undefined")').count(), 0);
    // The answer first: one sentence per capacity scenario, the cheapest variant by CPU per request and the others'
    // multiples of it (≥ 1, ascending), from the same values the table shows.
    const answer = page.locator('#answer li[data-scenario="read-heavy"]');
    assert.match(await answer.textContent(), /^read-heavy: .+ needs the least CPU per request \([\d.,k]+ µs, 95 % CI [\d.]+–[\d.]+\), .+ [\d.]+× \(95 % CI [\d.]+–[\d.]+×\)( \[[\w, ]+\])?, .+ [\d.]+× \(95 % CI [\d.]+–[\d.]+×, one start only\)/);
    const ratios = (await answer.locator(':scope > .ratio').allTextContents()).map((t) => Number.parseFloat(t));
    assert.equal(ratios.length, 2);
    assert.ok(ratios[0] >= 1 && ratios[1] >= ratios[0], ratios.join(' '));
    // Each ratio says which classification keys differ besides the stack: jersey against the Spring variants compares
    // framework, server and data access at once.
    const differs = await answer.locator(':scope > .differs').evaluateAll((ss) => ss.map((x) => [x.dataset.variant, x.textContent]));
    assert.equal(differs.length, ratios.length, JSON.stringify(differs)); // every pair here differs in its framework
    for (const [, text] of differs) assert.match(text, /^ \[(framework|server|dataAccess|threading|jdk|dialect)(, [\w]+)*\]$/);
    // Each ratio with the interval the runner wrote for it (latest.json comparisons), flagged when one start only.
    const comparisons = (await (await fetch(`${await urlOf('full')}dev/bench/latest.json`)).json()).comparisons;
    const comparison = comparisons.find((c) => c.scenario === 'read-heavy' && (c.kind ?? 'across') === 'across');
    const cis = await answer.locator(':scope > .ratio-ci').evaluateAll((ss) => ss.map((x) => [x.dataset.variant, x.textContent]));
    assert.deepEqual(cis, comparison.ratios.map((r) => [r.variant,
      ` (95 % CI ${r.ci95[0].toFixed(1)}–${r.ci95[1].toFixed(1)}×${r.ciCovers === 'within-one-start-only' ? ', one start only' : ''})`]));
    assert.match(cis[1][1], /one start only/);
    // Issue 23: with the data access held fixed (the runner's within comparisons) under the sentence, each ratio with
    // its interval and differing keys; an along comparison naming a variant this run did not measure is not shown.
    const within = comparisons.filter((c) => c.scenario === 'read-heavy' && c.kind === 'within');
    assert.equal(within.length, 1);
    const held = answer.locator('ul.held-fixed li');
    assert.equal(await held.count(), 1);
    assert.equal(await held.getAttribute('data-kind'), 'within');
    assert.match(await held.textContent(), /^with dataAccess jpa: .+ needs the least, .+ [\d.]+× \(95 % CI [\d.]+–[\d.]+×\) \[framework, dialect\]$/);
    assert.deepEqual(await held.locator('.ratio-ci').evaluateAll((ss) => ss.map((x) => x.dataset.variant)), within[0].ratios.map((r) => r.variant));
    // --flamegraphs: each profiled cell links its CPU and allocation graphs (pages the history holds); a cell
    // without graphs says so instead of a dead link.
    const graphs = page.locator('td[data-testid="spring-data-rest/read-heavy/capacity/flamegraphs"]');
    assert.match(await graphs.textContent(), /CPU · allocation/);
    for (const kind of ['cpu', 'alloc']) {
      const href = await graphs.locator(`a.flamegraph-${kind}`).getAttribute('href');
      assert.match(href, new RegExp(`dev/bench/flamegraphs/[^/]+/spring-data-rest-read-heavy-capacity-s1/${kind}\\.html$`));
      const opened = await page.request.get(new URL(href, page.url()).href);
      assert.equal(opened.status(), 200, href);
      assert.match(await opened.text(), new RegExp(`spring-data-rest ${kind} flame graph`));
    }
    assert.equal(await page.locator('td[data-testid="spring-mvc/read-heavy/capacity/flamegraphs"]').count(), 0);
    assert.equal(await page.locator('tr.flamegraphs').count(), 1, 'only read-heavy capacity was profiled');
    assert.equal(await page.locator('#table-startup tbody tr').count(), 3);
    assert.match(await page.locator('#environment').textContent(), /Synthetic CPU/);
    assert.match(await page.locator('.run-summary').textContent(), /Compared with run/);
    await shot(page, 'overview-full', true);
    assertNoProblems(page);
    await page.context().close();
  });

  test('bar charts: each primary measure per variant normalised to the best, whiskers and labels from latest.json', async () => {
    const page = await open('full');
    await page.locator('#bar-charts').waitFor();
    const latest = await page.evaluate(() => fetch('dev/bench/latest.json').then((r) => r.json()));
    const okCells = latest.cells.filter((c) => c.status === 'ok');
    let checked = 0;
    for (const section of await page.locator('#bar-charts section.scenario-bars').all()) {
      const { scenario, regime } = await section.evaluate((el) => ({ ...el.dataset }));
      const cells = okCells.filter((c) => c.scenario === scenario && c.regime === regime);
      const primary = [...new Set(cells.flatMap((c) => Object.keys(c.metrics).filter((m) => c.metrics[m].primary)))];
      assert.deepEqual(await section.locator('figure.bar-chart').evaluateAll((fs) => fs.map((f) => f.id)),
        primary.map((m) => `bars-${scenario}-${regime}-${m}`), `${scenario}/${regime}: one chart per primary measure`);
      for (const metric of primary) {
        const chart = section.locator(`figure[id="bars-${scenario}-${regime}-${metric}"]`);
        // Titled with the catalogue's name as the run recorded it (metricDefinitions), not a name of the site's own.
        const definition = latest.metricDefinitions.find((d) => d.id === metric);
        assert.ok(definition?.name && definition.name !== metric, metric);
        assert.equal(await chart.locator('figcaption strong').textContent(), definition.name);
        const smaller = cells[0].metrics[metric].direction === 'smaller';
        const values = cells.map((c) => c.metrics[metric].value);
        const best = smaller ? Math.min(...values) : Math.max(...values);
        for (const c of cells) {
          const row = chart.locator(`.bar-row[data-variant="${c.variant}"]`);
          const d = await row.evaluate((el) => ({ ...el.dataset }));
          const m = c.metrics[metric];
          assert.ok(Math.abs(Number(d.ratio) - m.value / best) < 1e-3, `${c.variant} ${metric}: ${d.ratio} vs ${m.value / best}`);
          assert.equal(d.best, String(m.value === best));
          assert.ok(smaller ? Number(d.ratio) >= 1 : Number(d.ratio) <= 1, `${metric} ratio ${d.ratio} on the right side of 1×`);
          // The whisker is the cell's 95 % interval as the runner wrote it, on the same scale.
          assert.equal(d.whisker, 'ci95');
          assert.ok(Math.abs(Number(d.whiskerLow) - m.ci95[0] / best) < 1e-3 && Math.abs(Number(d.whiskerHigh) - m.ci95[1] / best) < 1e-3, `${c.variant} ${metric} whisker`);
          // Drawn to scale: the bar's length over the 1× line's position is the ratio.
          const geometry = await row.evaluate((el) => ({ bar: Number(el.querySelector('rect.bar').getAttribute('width')), one: Number(el.querySelector('.bar-one').getAttribute('x1')) }));
          assert.ok(Math.abs(geometry.bar / geometry.one - m.value / best) < 1e-3, `${c.variant} ${metric} bar length`);
          const labels = await row.evaluate((el) => el.querySelector('.qualifiers')?.textContent ?? '');
          if (c.bottleneck && c.bottleneck !== 'none') assert.match(labels, { database: /db-bound/, service: /service-bound/ }[c.bottleneck] ?? /bound/);
          else assert.doesNotMatch(labels, /bound/);
          assert.equal(/unsteady/.test(labels), c.steady === false, `${c.variant}/${scenario}/${regime} unsteady label`);
          checked++;
        }
      }
    }
    assert.ok(checked >= 3 * 3 * 4, `bars checked: ${checked}`);
    // A failed cell is a row that says so, not a missing bar.
    const failed = latest.cells.find((c) => c.status === 'failed');
    const failedAt = page.locator(`section[data-scenario="${failed.scenario}"][data-regime="${failed.regime}"] [data-variant="${failed.variant}"]`).first();
    assert.match(await failedAt.textContent(), /✗ failed.*did not become healthy/s);
    const notMeasured = latest.cells.find((c) => c.status === 'not-measured');
    const notMeasuredAt = page.locator(`section[data-scenario="${notMeasured.scenario}"][data-regime="${notMeasured.regime}"] [data-variant="${notMeasured.variant}"]`).first();
    assert.match(await notMeasuredAt.textContent(), /not measured.*budget: not started/s);
    assert.doesNotMatch(await notMeasuredAt.textContent(), /✗/);
    // Startup: one chart per startup measure, whiskers from the starts' min–max (latest.json has no interval there).
    const startupMetrics = Object.keys(latest.variants[0].startup);
    assert.equal(await page.locator('#startup-charts figure.bar-chart').count(), startupMetrics.length);
    for (const v of latest.variants) {
      const m = v.startup.time_to_ready_ms;
      const best = Math.min(...latest.variants.map((x) => x.startup.time_to_ready_ms.value));
      const d = await page.locator(`#bars-startup-time_to_ready_ms .bar-row[data-variant="${v.name}"]`).evaluate((el) => ({ ...el.dataset }));
      assert.ok(Math.abs(Number(d.ratio) - m.value / best) < 1e-3);
      assert.equal(d.whisker, 'min-max');
      assert.ok(Math.abs(Number(d.whiskerLow) - m.min / best) < 1e-3 && Math.abs(Number(d.whiskerHigh) - m.max / best) < 1e-3);
    }
    // The full tables are one click away.
    assert.equal(await page.locator('#table-measures').isVisible(), false);
    await page.locator('#full-tables > summary').click();
    await page.locator('#table-measures').waitFor();
    // Where each metric is shown comes from benchmarks.json's catalogue (its `tables`, in its order), not the site;
    // a metric of both tables is shown once, in the resources table.
    const catalogue = JSON.parse(readFileSync(new URL('../../benchmarks.json', import.meta.url), 'utf8')).metrics;
    const inTable = (t) => catalogue.filter((m) => m.tables?.includes(t) && m.id in METRICS);
    const resourceHeaders = await page.locator('table.resources').first().locator('thead th').evaluateAll((ths) => ths.slice(1).map((th) => th.textContent));
    assert.deepEqual(resourceHeaders, inTable('resources').map((m) => m.label));
    const firstScenario = await page.locator('#table-measures tbody tr').evaluateAll((trs) => trs.map((tr) => tr.querySelector('.metric-id')?.textContent).filter(Boolean));
    const measureIds = inTable('measures').filter((m) => !m.tables.includes('resources')).map((m) => m.id);
    assert.deepEqual(firstScenario.slice(0, measureIds.length), measureIds);
    await shot(page, 'overview-bars', true);
    assertNoProblems(page);
    await page.context().close();
  });

  test('axis view: variants that differ only in the chosen classification key, compared; the axis lives in the URL', async () => {
    const page = await open('axes', '#view=axes');
    await page.locator('#axes').waitFor();
    const groups = () => page.locator('.axis-group').evaluateAll((gs) => gs.map((g) => ({ along: g.dataset.along, members: g.dataset.members, title: g.querySelector('h3').textContent })));
    // The default is the first key along which some variants differ alone: server, under Spring MVC on platform threads.
    assert.deepEqual(await groups(), [{ along: 'server', members: 'spring-mvc,spring-mvc-jetty,spring-mvc-undertow', title: 'tomcat vs jetty vs undertow server · Spring MVC · Tomcat, Spring MVC · Jetty, Spring MVC · Undertow' }]);
    assert.match(await page.locator('.axis-group .fixed').textContent(), /framework spring-mvc.*threading platform/);
    const barVariants = await page.locator('.axis-group .bar-row').evaluateAll((rows) => [...new Set(rows.map((r) => r.dataset.variant))]);
    assert.deepEqual(barVariants, ['spring-mvc', 'spring-mvc-jetty', 'spring-mvc-undertow'], 'only the group is charted');
    // Within the group the best of the three is 1×.
    const ratios = await page.locator('figure[id="axis-0-read-heavy-latency-throughput"] .bar-row').evaluateAll((rows) => rows.map((r) => Number(r.dataset.ratio)));
    assert.equal(Math.max(...ratios), 1);
    await shot(page, 'axes-server', true);

    await page.locator('#axis-key').selectOption('threading');
    await page.waitForFunction(() => location.hash.includes('along=threading'));
    assert.deepEqual((await groups()).map((g) => g.members), ['spring-mvc,spring-mvc-virtual']);
    assert.match((await groups())[0].title, /^platform vs virtual/);
    await page.reload();
    await page.waitForFunction(() => window.__restbench.state === 'ready');
    assert.equal(await page.locator('#axis-key').inputValue(), 'threading');
    assert.deepEqual((await groups()).map((g) => g.members), ['spring-mvc,spring-mvc-virtual']);

    // The JDK is labelled twice (jdk, runtimeVersion): along either, the two move together and form one axis.
    for (const key of ['jdk', 'runtimeVersion']) {
      await page.locator('#axis-key').selectOption(key);
      await page.waitForFunction((k) => location.hash.includes(`along=${k}`), key);
      assert.deepEqual((await groups()).map((g) => g.members), ['spring-mvc,spring-mvc-jdk25'], key);
      assert.doesNotMatch(await page.locator('.axis-group .fixed').textContent(), /(: |· )jdk \d|runtimeVersion/);
    }

    await page.locator('#axis-key').selectOption('framework');
    await page.locator('#no-groups').waitFor();
    assert.equal(await page.locator('.axis-group').count(), 0);
    assertNoProblems(page);
    await page.context().close();
  });

  test('concurrency sweep: a line per variant across the users-N steps, a failed step is a gap with its reason', async () => {
    const page = await open('sweep');
    await page.locator('#sweep-charts').waitFor();
    const latest = await (await fetch(`${await urlOf('sweep')}dev/bench/latest.json`)).json();
    const cell = (v, n) => latest.cells.find((c) => c.variant === v && c.scenario === 'mixed' && c.regime === `users-${n}`);
    assert.deepEqual(await page.locator('#sweep-charts figure.sweep-chart').evaluateAll((fs) => fs.map((f) => f.id)),
      ['sweep-mixed-throughput', 'sweep-mixed-latency_p99']);
    assert.deepEqual(await page.locator('#sweep-mixed-throughput text.tick').allTextContents(), ['10', '25', '50', '100']);
    for (const v of ['jersey', 'spring-mvc', 'spring-data-rest']) {
      const points = await page.locator(`#sweep-mixed-throughput .sweep-series[data-variant="${v}"] .sweep-point`)
        .evaluateAll((ps) => ps.map((p) => [Number(p.dataset.users), Number(p.dataset.value)]));
      const expected = [10, 25, 50, 100].filter((n) => cell(v, n).status === 'ok').map((n) => [n, cell(v, n).metrics.throughput.value]);
      assert.deepEqual(points, expected, `${v}: one point per measured step, the runner's value`);
    }
    // Spring Data REST failed at 100 users: no point there, a ✗ whose tooltip gives the reason.
    const failed = page.locator('#sweep-mixed-throughput .sweep-series[data-variant="spring-data-rest"] text.sweep-failed');
    assert.equal(await failed.getAttribute('data-users'), '100');
    assert.match(await failed.locator('title').textContent(), /failed — start 1: p99 2400 ms exceeds/);
    // Throughput saturates while p99 grows: the fixture's knee is visible in the drawn coordinates.
    const ys = await page.locator('#sweep-mixed-latency_p99 .sweep-series[data-variant="jersey"] circle')
      .evaluateAll((cs) => cs.map((c) => Number(c.getAttribute('cy'))));
    assert.ok(ys.every((y, i) => i === 0 || y < ys[i - 1]), `p99 rises with users (svg y falls): ${ys}`);
    // The steps have no bar charts (nor a second failure note): read-heavy capacity, and the fixture's failed cell.
    assert.deepEqual(await page.locator('#bar-charts section.scenario-bars').evaluateAll((ss) => ss.map((x) => `${x.dataset.scenario}/${x.dataset.regime}`)),
      ['read-heavy/capacity', 'heavy-body/latency']);
    await shot(page, 'overview-sweep', true);
    assertNoProblems(page);
    await page.context().close();
  });

  test('method page: machine, pinning, repetitions, steady state, verdict method and measures from latest.json', async () => {
    const page = await open('full', '#view=method');
    await page.locator('#method-facts').waitFor();
    const latest = await page.evaluate(() => fetch('dev/bench/latest.json').then((r) => r.json()));
    const facts = await page.locator('#method-facts').textContent();
    assert.ok(facts.includes(latest.environment.cpuModel), facts);
    assert.match(facts, /service on CPU 1, gatling on CPU 0, postgres on CPU 0/);
    assert.match(facts, /value over 3 service starts/);
    assert.match(facts, /not: Spring Data REST · Tomcat read-heavy \(capacity\)/);
    assert.ok(facts.includes(latest.verdicts.method) && /α = 0\.05, minimum effect 5 %/.test(facts), facts);
    const ids = await page.locator('#table-metrics tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.metric));
    assert.deepEqual(ids, Object.keys(latest.cells[0].metrics));
    assert.match(await page.locator('#table-metrics tr[data-metric=cpu_us_per_req]').textContent(), /µs.*smaller.*yes/);
    // The method as the run recorded it: the warmup rule, the cells' warmup, the error budget, what each metric is.
    assert.match(facts, /at least 20 s, then the JIT compiler threads below 30 ms\/s .* ±5 % over the last 10 s; at 120 s .* unsteady/);
    assert.match(facts, /Warmup per cell in this run: 34\.5–120 s/);
    assert.match(facts, /3 start\(s\) per variant, 3 windows of 5 s per cell, dataset default \(2000 categories, 100000 items\)/);
    assert.match(facts, /above 1 % errors, or \(capacity\) above a p99 of 2000 ms/);
    assert.equal(await page.locator('#table-metrics tr[data-metric=cpu_us_per_req] td.description').textContent(),
      latest.metricDefinitions.find((d) => d.id === 'cpu_us_per_req').description);
    const limits = await page.locator('#method-limits li').allTextContents();
    assert.ok(limits.some((l) => /1 cell\(s\) were measured before their service was steady/.test(l)), limits.join(' | '));
    assert.ok(limits.some((l) => /bound by something other than the service/.test(l)), limits.join(' | '));
    await shot(page, 'method', true);
    assertNoProblems(page);
    await page.context().close();
  });

  test('with data.js alone shows the newest values and spreads and says deltas need latest.json', async () => {
    const page = await open('data-only');
    const cell = page.locator('td[data-testid="spring-data-rest/read-heavy/latency/latency_p99"]');
    assert.match(await cell.textContent(), /ms.*n=3 · min [\d.]+ – max [\d.]+/s);
    // Without run records the history does not say what its variants are: names, not invented labels.
    const headers = await page.locator('#table-measures thead th').allTextContents();
    assert.deepEqual(headers.slice(2), ['jersey', 'spring-mvc', 'spring-data-rest']);
    assert.match(await page.locator('main').textContent(), /no latest\.json/);
    assert.match(await page.locator('#environment').textContent(), /a1b2c3d4e5f6/);
    await shot(page, 'overview-data-only', true);
    assertNoProblems(page);
    await page.context().close();
  });
});

describe('trends', () => {
  test('draws one chart per scenario and metric with a line per variant', async () => {
    const page = await open('full', '#view=trends&s=read-heavy&m=throughput,latency_p99');
    await drawnCharts(page).first().waitFor();
    assert.equal(await page.locator('.chart-card').count(), 4, 'read-heavy × {capacity, latency} × {throughput, p99}');
    const card = drawnCharts(page).first();
    assert.equal(await card.locator('.legend li').count(), 3);
    assert.equal(Number(await card.getAttribute('data-points')), 3 * 12);
    // The canvas holds drawn lines: count painted pixels.
    const painted = await card.locator('canvas').evaluate((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
      return n;
    });
    assert.ok(painted > 1000, `canvas has ${painted} painted pixels`);
    await shot(page, 'trends-full');
    assertNoProblems(page);
    await page.context().close();
  });

  test('axis switch and filters live in the URL and a reload reproduces them', async () => {
    const page = await open('full', '#view=trends&s=mixed&m=throughput');
    await drawnCharts(page).first().waitFor();
    await page.getByLabel('date').check();
    await page.waitForFunction(() => location.hash.includes('axis=date'));
    await drawnCharts(page).first().waitFor();
    const labels = await page.locator('.chart-card[data-drawn="true"] .u-axis').first().textContent();
    assert.doesNotMatch(labels, /3b54cda/, 'a date axis shows dates, not commit hashes');

    // Collapsed by default, with a line that says what is selected.
    assert.equal(await page.locator('#filter-panel').evaluate((d) => d.open), false);
    assert.match(await page.locator('#filter-summary').textContent(), /all 3 variants · scenarios: mixed \(1 of \d+\) · metrics: Throughput \(1 of \d+\)/);
    await openFilters(page);
    await page.locator('fieldset[data-dimension=variants]').getByLabel('Spring MVC · Tomcat').uncheck();
    await page.waitForFunction(() => decodeURIComponent(location.hash).includes('v=jersey,spring-data-rest'));
    const legend = () => page.locator('.chart-card').first().locator('.legend').textContent();
    assert.doesNotMatch(await legend(), /Spring MVC/);
    const before = await hashOf(page);

    await page.reload();
    await page.waitForFunction(() => window.__restbench.state === 'ready');
    await drawnCharts(page).first().waitFor();
    assert.equal(await hashOf(page), before);
    assert.equal(await page.locator('fieldset[data-dimension=variants]').getByLabel('Spring MVC · Tomcat').isChecked(), false);
    assert.equal(await page.getByLabel('date').isChecked(), true);
    assert.equal(await page.locator('#filter-panel').evaluate((d) => d.open), false, 'a reload collapses the panel again');
    assert.match(await page.locator('#filter-summary').textContent(), /variants: Jersey \(JAX-RS\) · Grizzly, Spring Data REST · Tomcat \(2 of 3\)/);
    assert.doesNotMatch(await legend(), /Spring MVC/);
    assert.match(await legend(), /Jersey/);
    await shot(page, 'trends-date-filtered');
    assertNoProblems(page);
    await page.context().close();
  });

  test('zoom is shared by the charts, kept in the URL and restored on reload', async () => {
    const page = await open('full', '#view=trends&s=read-heavy&m=throughput');
    await drawnCharts(page).first().waitFor();
    const chart = page.locator('.chart-card').first().locator('.chart');
    await chart.focus();
    await page.keyboard.press('+');
    await page.waitForFunction(() => /[#&]x=/.test(location.hash));
    const scale = () => page.evaluate(() => [...document.querySelectorAll('.chart-card[data-drawn="true"]')].map((c) => [c.uplot.scales.x.min, c.uplot.scales.x.max]));
    const zoomed = await scale();
    assert.ok(zoomed[0][1] - zoomed[0][0] < 11, `zoomed range ${zoomed[0]}`);
    await page.reload();
    await page.waitForFunction(() => window.__restbench.state === 'ready');
    await drawnCharts(page).first().waitFor();
    assert.deepEqual((await scale())[0], zoomed[0]);
    await page.getByRole('button', { name: 'Reset zoom' }).click();
    await page.waitForFunction(() => !/[#&]x=/.test(location.hash));
    assertNoProblems(page);
    await page.context().close();
  });

  test('keyboard: arrows move the tooltip across commits and Enter pins the commit with its link', async () => {
    const page = await open('full', '#view=trends&s=join-filter&m=throughput');
    await drawnCharts(page).first().waitFor();
    await page.locator('.chart-card').first().locator('.chart').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    const tip = page.locator('.chart-card').first().locator('.tooltip');
    await tip.waitFor({ state: 'visible' });
    assert.match(await tip.textContent(), /13c6ef3/);
    await page.keyboard.press('Enter');
    const link = page.locator('.chart-card').first().locator('.pinned a.commit-link');
    await link.waitFor();
    assert.match(await link.getAttribute('href'), /^https:\/\/github\.com\/example\/restbench\/commit\/13c6ef3/);
    assert.match(await hashOf(page), /at=13c6ef3/);
    assertNoProblems(page);
    await page.context().close();
  });
});

describe('regressions and markers', () => {
  test('lists detected changes newest first and links each to its chart with the marker drawn', async () => {
    const page = await open('full', '#view=regressions');
    const rows = page.locator('#table-changes tbody tr');
    await rows.first().waitFor();
    const series = await rows.locator('.series-link').allTextContents();
    assert.equal(series.length, 3);
    assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.kind)), ['regression', 'regression', 'improvement']);
    assert.match(series[0], /join-filter · latency — CPU per request/, 'newest: the flagged newest run');
    assert.match(series[1], /read-heavy · latency — p99 latency/, 'then the change point');
    assert.match(series[2], /mixed · latency — Throughput/);
    assert.match(await rows.nth(1).textContent(), /\+30\.\d+ %/);
    await shot(page, 'regressions');

    await rows.nth(1).locator('.series-link').click();
    await page.waitForFunction(() => location.hash.includes('view=trends'));
    const card = page.locator('.chart-card.focused');
    await card.waitFor();
    await page.waitForFunction(() => Number(document.querySelector('.chart-card.focused')?.dataset.markersDrawn) >= 1);
    const marker = card.locator('.markers li[data-kind=regression]');
    assert.match(await marker.textContent(), /regression \+30\.\d+ %.*spring-data-rest|regression \+30\.\d+ %.*Spring Data REST/s);
    assert.equal(await card.getAttribute('data-group'), 'read-heavy|latency|latency_p99');
    assert.match(await hashOf(page), new RegExp(`focus=${STEP_REGRESSION.series}`));
    // The change-point commit carries the hostile message: pinned, shown literally as text.
    const message = card.locator('.pinned .commit-message');
    assert.equal(await message.textContent(), HOSTILE_MESSAGE);
    await card.screenshot({ path: join(ARTIFACTS, 'trends-focused-change-point.png') });

    await page.reload();
    await page.waitForFunction(() => window.__restbench.state === 'ready');
    await page.locator('.chart-card.focused .pinned .commit-message').waitFor();
    assertNoProblems(page);
    await page.context().close();
  });

  test('an improvement change point is marked as an improvement', async () => {
    const page = await open('full', `#view=trends&m=throughput&s=mixed&focus=${STEP_IMPROVEMENT.series}`);
    const card = page.locator('.chart-card.focused');
    await card.waitFor();
    assert.match(await card.locator('.markers li[data-kind=improvement]').textContent(), /improvement \+1\d\.\d+ %/);
    assertNoProblems(page);
    await page.context().close();
  });
});

describe('packed history (site/pack.mjs)', () => {
  test('loads the manifest instead of the whole data.js and each chart its own file, with the same content', async () => {
    const page = await open('packed', `#view=trends&s=read-heavy&m=latency_p99&focus=${STEP_REGRESSION.series}&at=58ff347`);
    assert.equal(await page.evaluate(() => window.__restbench.packed), true);
    const card = page.locator('.chart-card.focused');
    await card.locator('.pinned .commit-message').waitFor();
    assert.equal(Number(await card.getAttribute('data-points')), 3 * 12);
    await page.waitForFunction(() => Number(document.querySelector('.chart-card.focused')?.dataset.markersDrawn) >= 1);
    assert.equal(await card.locator('.pinned .commit-message').textContent(), HOSTILE_MESSAGE);
    // The overview with every filter open: the newest run's flagged step is there as with data.js.
    await page.evaluate(() => { location.hash = '#view=overview'; });
    const flagged = page.locator(`td[data-testid="${STEP_LATEST.series}"]`);
    assert.equal(await flagged.getAttribute('data-verdict'), 'regression');
    assertNoProblems(page);
    await page.context().close();
  });

  test('publish.mjs gives a self-contained gh-pages root: site files next to a packed dev/bench', async () => {
    const out = join(fixtures, 'published');
    cpSync(join(cases.full, 'dev'), join(out, 'dev'), { recursive: true });
    const packed = publish(out);
    assert.equal(packed.runs, 12);
    const { server, url } = await startServer({ historyDir: out, siteDir: out });
    try {
      const page = await openPage(browser);
      await page.goto(`${url}#view=trends&s=join-filter&m=cpu_us_per_req`);
      await page.waitForFunction(() => window.__restbench?.state === 'ready');
      assert.equal(await page.evaluate(() => window.__restbench.packed), true);
      await drawnCharts(page).first().waitFor();
      assert.equal(await page.locator('.chart-card .markers li[data-kind=regression]').count(), 1, 'the newest run flagged in latest.json');
      assertNoProblems(page);
      await page.context().close();
    } finally {
      server.close();
    }
  });

  test('a pack made from an older data.js is ignored with a warning', async () => {
    const page = await open('stale-pack', '#view=trends&s=mixed&m=throughput');
    assert.equal(await page.evaluate(() => window.__restbench.packed), false);
    assert.match(await page.locator('#warnings').textContent(), /pack\/manifest\.json was not made from the current data\.js/);
    await drawnCharts(page).first().waitFor();
    assert.equal(Number(await drawnCharts(page).first().getAttribute('data-points')), 3 * 12);
    assertNoProblems(page);
    await page.context().close();
  });
});

describe('hostile data', () => {
  test('commit messages, author names and benchmark names are rendered as text, never as markup', async () => {
    const page = await open('full', `#view=trends&s=read-heavy&m=latency_p99&focus=${STEP_REGRESSION.series}&at=${'58ff347'}`);
    await page.locator('.chart-card.focused .pinned .commit-message').waitFor();
    const pinned = await page.locator('.chart-card.focused .pinned').textContent();
    assert.ok(pinned.includes(HOSTILE_MESSAGE), pinned);
    assert.ok(pinned.includes(HOSTILE_AUTHOR), pinned);
    const filters = await page.locator('fieldset[data-dimension=scenarios]').textContent();
    assert.ok(filters.includes(HOSTILE_SCENARIO), filters);
    // None of the injected elements exists and nothing ran.
    assert.equal(await page.locator('main img, #filters img').count(), 0);
    assert.equal(await page.locator('main script, #filters script').count(), 0);
    assert.equal(await page.locator('svg').count(), 0);

    await page.evaluate((s) => { location.hash = `#view=trends&s=${encodeURIComponent(s)}`; }, HOSTILE_SCENARIO);
    await drawnCharts(page).first().waitFor();
    assert.ok((await page.locator('.chart-card h4').first().textContent()).includes(HOSTILE_SCENARIO));
    assert.equal(await page.locator('svg').count(), 0);
    await shot(page, 'hostile');
    assertNoProblems(page);
    await page.context().close();
  });
});

describe('benchmark profiles', () => {
  // fixtures: PROFILE_RUNS — runs 0–1 without a profile (×0.8), smoke at 2, 4, 6 (×0.5), full at 3, 5, 7 (newest).
  const profileRadios = (page) => page.locator('fieldset[data-dimension=profile] input[type=radio]');
  const checkedProfiles = (page) => profileRadios(page).evaluateAll((rs) => rs.map((r) => `${r.value}${r.checked ? '*' : ''}`));
  /** The first drawn chart: its x values (run positions), its point count and jersey's plotted values. */
  const plotted = (page) => page.evaluate(() => {
    const card = document.querySelector('.chart-card[data-drawn="true"]');
    return { xs: [...card.uplot.data[0]], points: Number(card.dataset.points), jersey: card.uplot.data[1].filter((v) => v != null) };
  });
  const waitForRuns = (page, xs) => page.waitForFunction((want) => document.querySelector('.chart-card[data-drawn="true"]')?.uplot?.data[0].join(',') === want, xs.join(','));

  test('trends plot only the newest run’s profile; the choice is made with the keyboard, kept in the URL and restored', async () => {
    const page = await open('profiles', '#view=trends&s=read-heavy&m=throughput');
    await drawnCharts(page).first().waitFor();
    assert.deepEqual(await checkedProfiles(page), ['full*', 'smoke', 'unknown']);
    let p = await plotted(page);
    assert.deepEqual(p.xs, [3, 5, 7], 'only the full runs get an x position');
    assert.equal(p.points, 3 * 3);
    assert.ok(p.jersey.length === 3 && p.jersey.every((v) => v > 2000), `full throughput only, got ${p.jersey}`);
    // uPlot paints tick labels on the canvas; _values holds the labels it painted on the x axis.
    const ticks = await page.evaluate(() => document.querySelector('.chart-card[data-drawn="true"]').uplot.axes[0]._values.join(' '));
    assert.match(ticks, /3b54cda/, 'full run 5 is named under the axis');
    assert.doesNotMatch(ticks, /3171560/, 'smoke run 4 has no point here, so no label either');
    assert.match(await page.locator('#profile-note').textContent(), /full profile \(the newest run’s\) only/);
    assert.doesNotMatch(await hashOf(page), /[#&]p=/, 'the default profile is not written into the URL');

    // Native radios: the arrow key moves to the next profile and selects it.
    await openFilters(page);
    await profileRadios(page).first().focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => /[#&]p=smoke(&|$)/.test(location.hash));
    await waitForRuns(page, [2, 4, 6]);
    p = await plotted(page);
    assert.equal(p.points, 3 * 3);
    assert.ok(p.jersey.every((v) => v < 1200), `smoke throughput only, got ${p.jersey}`);
    assert.deepEqual(await checkedProfiles(page), ['full', 'smoke*', 'unknown']);

    await page.reload();
    await page.waitForFunction(() => window.__restbench.state === 'ready');
    await waitForRuns(page, [2, 4, 6]);
    assert.deepEqual(await checkedProfiles(page), ['full', 'smoke*', 'unknown']);

    // Entries without a profile are a profile of their own, never drawn with a named one.
    await page.evaluate(() => { location.hash = '#view=trends&s=read-heavy&m=throughput&p=unknown'; });
    await waitForRuns(page, [0, 1]);
    p = await plotted(page);
    assert.ok(p.jersey.every((v) => v > 1500 && v < 1900), `unprofiled throughput only, got ${p.jersey}`);

    await openFilters(page);
    await page.locator('fieldset[data-dimension=profile]').getByLabel('full — newest run').check();
    await page.waitForFunction(() => !/[#&]p=/.test(location.hash));
    await waitForRuns(page, [3, 5, 7]);
    await shot(page, 'trends-profiles');
    assertNoProblems(page);
    await page.context().close();
  });

  test('markers and the regressions list show only the changes found in the shown profile', async () => {
    const page = await open('profiles', '#view=trends&s=read-heavy&m=latency_p99');
    await drawnCharts(page).first().waitFor();
    const markers = () => page.locator('.chart-card').first().locator('.markers li').allTextContents();
    assert.equal((await markers()).length, 1);
    assert.match((await markers())[0], /regression \+20\.0 %/);

    await page.locator('nav a[data-view=regressions]').click();
    const rows = page.locator('#table-changes tbody tr');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 1);
    assert.match(await rows.first().textContent(), /\+20\.0 %/);

    await openFilters(page);
    await page.locator('fieldset[data-dimension=profile]').getByLabel('smoke').check();
    await page.waitForFunction(() => /[#&]p=smoke(&|$)/.test(location.hash) && /\+12\.5 %/.test(document.querySelector('#table-changes')?.textContent));
    assert.equal(await rows.count(), 1);
    // The link to the chart keeps the profile, and the chart marks the smoke change point only.
    await rows.first().locator('.series-link').click();
    await page.waitForFunction(() => location.hash.includes('view=trends') && /[#&]p=smoke(&|$)/.test(location.hash));
    await page.waitForFunction(() => Number(document.querySelector('.chart-card.focused')?.dataset.markersDrawn) === 1);
    const focused = page.locator('.chart-card.focused');
    assert.deepEqual((await focused.locator('.markers li').allTextContents()).map((t) => t.match(/[+−]\d+\.\d+ %/)?.[0]), ['+12.5 %']);
    assert.match(await focused.locator('.pinned').textContent(), /Change 5/);
    assertNoProblems(page);
    await page.context().close();
  });

  test('a packed history offers the same choice and plots the same points', async () => {
    const page = await open('profiles-packed', '#view=trends&s=read-heavy&m=latency_p99');
    assert.equal(await page.evaluate(() => window.__restbench.packed), true);
    assert.deepEqual(await checkedProfiles(page), ['full*', 'smoke', 'unknown']);
    await waitForRuns(page, [3, 5, 7]);
    assert.equal((await plotted(page)).points, 3 * 3);
    assert.equal(await page.locator('.chart-card').first().locator('.markers li').count(), 1, 'the full change point only');
    assertNoProblems(page);
    await page.context().close();
  });

  test('a single-profile history offers no choice; an unknown profile in the URL falls back with a note', async () => {
    const page = await open('full', '#view=trends&s=mixed&m=throughput');
    await drawnCharts(page).first().waitFor();
    assert.equal(await page.locator('fieldset[data-dimension=profile]').count(), 0);
    assert.equal(await page.locator('#profile-note').count(), 0);
    await page.evaluate(() => { location.hash = '#view=trends&s=mixed&m=throughput&p=full'; });
    await page.locator('#profile-note').waitFor();
    assert.match(await page.locator('#profile-note').textContent(), /no profile “full”.*quick/s);
    await drawnCharts(page).first().waitFor();
    assert.equal(Number(await drawnCharts(page).first().getAttribute('data-points')), 3 * 12);
    assertNoProblems(page);
    await page.context().close();
  });
});

describe('edge cases', () => {
  test('a single entry draws single-point charts and says there is no previous run', async () => {
    const page = await open('single');
    assert.match(await page.locator('.run-summary').textContent(), /No comparable previous run/);
    await page.locator('nav a[data-view=trends]').click();
    await drawnCharts(page).first().waitFor();
    assert.match(await page.locator('#single-note').textContent(), /Only one run/);
    assert.equal(Number(await drawnCharts(page).first().getAttribute('data-points')), 3);
    await shot(page, 'single');
    assertNoProblems(page);
    await page.context().close();
  });

  test('broken entries and a truncated latest.json are skipped with warnings; the rest is shown', async () => {
    const page = await open('damaged');
    assert.equal(await page.evaluate(() => window.__restbench.state), 'ready');
    const warnings = await page.locator('#warnings').textContent();
    assert.match(warnings, /1 malformed entry in data\.js ignored/);
    assert.match(warnings, /1 malformed benchmark value in data\.js ignored/);
    assert.match(warnings, /latest\.json is malformed/);
    assert.match(await page.locator('main').textContent(), /no latest\.json/);
    await page.locator('#table-measures').waitFor({ state: 'attached' });
    await page.evaluate(() => { location.hash = '#view=trends&s=mixed&m=throughput'; });
    await drawnCharts(page).first().waitFor();
    assert.equal(Number(await drawnCharts(page).first().getAttribute('data-points')), 3 * 11, 'one throughput entry dropped');
    assertNoProblems(page);
    await page.context().close();
  });

  for (const [name, title] of [
    ['empty', /The history is empty/],
    ['missing', /No benchmark history yet/],
    ['truncated', /data\.js is malformed or truncated/],
    ['malformed', /data\.js is malformed.*entries is missing or is not an object/s],
  ]) {
    test(`${name} data.js gets a clear message`, async () => {
      const page = await open(name);
      const problem = page.locator('#problem');
      await problem.waitFor();
      assert.match(await problem.textContent(), title);
      assert.equal(await page.evaluate(() => window.__restbench.state), name === 'empty' || name === 'missing' ? 'empty' : 'error');
      assert.equal(await page.locator('.chart-card').count(), 0);
      await shot(page, `problem-${name}`);
      assertNoProblems(page);
      await page.context().close();
    });
  }
});

describe('readability', () => {
  test('phone width in dark theme: no page-wide horizontal scroll, charts fit, toggle switches theme', async () => {
    const page = await open('full', '#view=trends&s=read-heavy&m=latency_p99', { width: 390, height: 844, colorScheme: 'dark' });
    await drawnCharts(page).first().waitFor();
    assert.equal(await page.locator('#theme-toggle').getAttribute('aria-pressed'), 'true');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(bg, 'rgb(21, 23, 26)');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `page overflows by ${overflow}px`);
    const canvasWidth = await drawnCharts(page).first().locator('canvas').evaluate((c) => c.getBoundingClientRect().width);
    assert.ok(canvasWidth <= 390, `chart ${canvasWidth}px wide`);
    await shot(page, 'phone-dark-trends', true);
    await page.locator('#theme-toggle').click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(255, 255, 255)');
    await page.locator('nav a[data-view=overview]').click();
    await page.locator('#table-measures').waitFor({ state: 'attached' });
    await shot(page, 'phone-light-overview');
    assertNoProblems(page);
    await page.context().close();
  });

  test('browser back and forward walk through the views', async () => {
    const page = await open('full');
    await page.locator('nav a[data-view=trends]').click();
    await drawnCharts(page).first().waitFor();
    await page.locator('nav a[data-view=regressions]').click();
    await page.locator('#table-changes').waitFor();
    await page.goBack();
    await drawnCharts(page).first().waitFor();
    assert.equal(await page.locator('nav a[aria-current=page]').textContent(), 'Trends');
    await page.goBack();
    await page.locator('#table-measures').waitFor({ state: 'attached' });
    await page.goForward();
    await drawnCharts(page).first().waitFor();
    assertNoProblems(page);
    await page.context().close();
  });

  test('the views are reachable with the keyboard alone', async () => {
    const page = await open('full');
    await page.locator('#table-measures').waitFor({ state: 'attached' });
    let reached = false;
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.dataset?.view === 'trends');
    }
    assert.ok(reached, 'Tab reaches the Trends link');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => location.hash.includes('view=trends'));
    await drawnCharts(page).first().waitFor();
    assertNoProblems(page);
    await page.context().close();
  });
});

// history-archive.mjs bounds data.js; pack.mjs still packs the whole history. Plain Node (no browser).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFull } from '../fixtures/generate.mjs';
import { parseDataJs } from '../js/history.js';
import { archiveOldEntries } from '../history-archive.mjs';
import { pack } from '../pack.mjs';

const read = (dir) => readFileSync(join(dir, 'data.js'), 'utf8');

test('data.js keeps the newest entries, the archive the rest, and the pack still holds every run', () => {
  const root = mkdtempSync(join(tmpdir(), 'archive-'));
  const dir = writeFull(root, 12, { withRecords: false, hostileScenario: false });
  const before = parseDataJs(read(dir));
  const full = pack(root);
  assert.equal(full.runs, 12);

  const result = archiveOldEntries(root, 5);
  assert.equal(result.moved, 2 * (12 - 5)); // both suites
  const after = parseDataJs(read(dir));
  for (const suite of Object.keys(before.entries)) {
    assert.deepEqual(after.entries[suite], before.entries[suite].slice(-5), `${suite}: the newest five stay`);
  }
  assert.equal(after.lastUpdate, before.lastUpdate, 'lastUpdate is the site\'s pack key and must not change');
  assert.ok(read(dir).startsWith('window.BENCHMARK_DATA = {\n  "lastUpdate"'), 'still the action\'s exact format');
  assert.equal(read(dir), `window.BENCHMARK_DATA = ${JSON.stringify(after, null, 2)}`);

  const months = readdirSync(join(dir, 'archive'));
  assert.ok(months.length >= 1 && months.every((f) => /^\d{4}-\d{2}\.json$/.test(f)), months.join());
  const archived = months.flatMap((f) => JSON.parse(readFileSync(join(dir, 'archive', f), 'utf8')).entries.throughput ?? []);
  assert.deepEqual(archived, before.entries.throughput.slice(0, 7), 'moved unchanged, oldest first');

  const packed = pack(root);
  assert.equal(packed.runs, 12, 'the pack joins the archive and data.js');
  const manifest = JSON.parse(readFileSync(join(dir, 'pack', 'manifest.json'), 'utf8'));
  assert.deepEqual(manifest.runs.commitId, before.entries.throughput.map((e) => e.commit.id));
  assert.equal(manifest.dataJs.lastUpdate, before.lastUpdate);

  const again = archiveOldEntries(root, 5);
  assert.equal(again.moved, 0, 'idempotent');
  assert.equal(pack(root).runs, 12);
});

test('an interrupted archive (entries in both places) is packed once and not archived twice', () => {
  const root = mkdtempSync(join(tmpdir(), 'archive-'));
  const dir = writeFull(root, 8, { withRecords: false, hostileScenario: false });
  const original = read(dir);
  archiveOldEntries(root, 3);
  // Simulate a cut between writing the archive and rewriting data.js: the old data.js comes back.
  writeFileSync(join(dir, 'data.js'), original);
  assert.equal(pack(root).runs, 8);
  archiveOldEntries(root, 3);
  const archived = readdirSync(join(dir, 'archive'))
    .flatMap((f) => JSON.parse(readFileSync(join(dir, 'archive', f), 'utf8')).entries.costs ?? []);
  assert.equal(archived.length, 5);
});

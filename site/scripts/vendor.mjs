// Copies the chart library from node_modules into site/vendor so the published site needs no build step
// and no npm at deploy time. The copied files are committed; run this after changing the uplot version.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const site = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(site, 'node_modules', 'uplot');
const to = join(site, 'vendor', 'uplot');
mkdirSync(to, { recursive: true });
for (const [source, target] of [
  ['dist/uPlot.esm.js', 'uPlot.esm.js'],
  ['dist/uPlot.min.css', 'uPlot.min.css'],
  ['LICENSE', 'LICENSE'],
]) {
  copyFileSync(join(from, source), join(to, target));
}
const version = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')).version;
console.log(`vendored uplot ${version} into ${to}`);

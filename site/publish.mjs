// Copies the published part of the site into a gh-pages worktree (or any history directory) and packs its
// data.js when there is one:
//   node site/publish.mjs <outDir>
// Published: index.html, css/, js/, vendor/ (no build step: these are the files the browser loads). The history
// under <outDir>/dev/bench is left alone except for dev/bench/pack/, which site/pack.mjs rewrites.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pack } from './pack.mjs';

export const PUBLISHED = ['index.html', 'css', 'js', 'vendor'];
const SITE_DIR = dirname(fileURLToPath(import.meta.url));

export function publish(outDir) {
  for (const name of PUBLISHED) {
    rmSync(join(outDir, name), { recursive: true, force: true });
    cpSync(join(SITE_DIR, name), join(outDir, name), { recursive: true });
  }
  if (existsSync(join(outDir, 'dev', 'bench', 'data.js'))) return pack(outDir);
  return null;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node site/publish.mjs <outDir>');
    process.exit(2);
  }
  try {
    const packed = publish(out);
    console.log(`published ${PUBLISHED.join(', ')} to ${out}${packed ? `; packed ${packed.runs} runs into ${packed.charts} chart files` : '; no dev/bench/data.js yet, nothing packed'}`);
  } catch (e) {
    console.error(`site/publish.mjs: ${e.message}`);
    process.exit(1);
  }
}

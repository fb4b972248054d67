// Local viewer: serves the site and a history directory on 127.0.0.1 (file:// pages cannot fetch the data files).
//   node site/serve.mjs <historyDir> [--port N]
// <historyDir> is the gh-pages layout (holding dev/bench/data.js) or the dev/bench directory itself.
// Without --port a free port is chosen. The URL is printed on stdout.
import { createServer } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SITE_DIR = dirname(fileURLToPath(import.meta.url));
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.png': 'image/png', '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8', '.ico': 'image/x-icon',
};
const SITE_TOP = new Set(['index.html', 'js', 'css', 'vendor', 'favicon.ico']);

/** Resolves the history's dev/bench directory from what the user passed. */
export function benchDirOf(historyDir) {
  const nested = join(historyDir, 'dev', 'bench');
  if (existsSync(nested)) return nested;
  if (existsSync(join(historyDir, 'data.js'))) return historyDir;
  return nested;
}

function inside(root, rel) {
  const path = normalize(join(root, rel));
  return path === root || path.startsWith(root + sep) ? path : null;
}

/** Starts the server; resolves to {server, url}. */
export function startServer({ historyDir, port = 0, siteDir = SITE_DIR } = {}) {
  const bench = resolve(benchDirOf(resolve(historyDir)));
  const site = resolve(siteDir);
  const server = createServer((req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    let file = null;
    if (pathname === '/' || pathname === '/index.html') file = join(site, 'index.html');
    else if (pathname.startsWith('/dev/bench/')) file = inside(bench, pathname.slice('/dev/bench/'.length));
    else if (SITE_TOP.has(pathname.split('/')[1])) file = inside(site, pathname.slice(1));
    if (!file || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache', 'Content-Length': statSync(file).size });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolvePromise({ server, url: `http://127.0.0.1:${server.address().port}/`, benchDir: bench });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const portAt = args.indexOf('--port');
  const port = portAt >= 0 ? Number(args[portAt + 1]) : 0;
  const historyDir = args.find((a, i) => !a.startsWith('--') && i !== portAt + 1);
  if (!historyDir || !Number.isInteger(port) || port < 0 || port > 65535) {
    console.error('usage: node site/serve.mjs <historyDir> [--port N]');
    process.exit(2);
  }
  const { url, benchDir } = await startServer({ historyDir, port });
  if (!existsSync(join(benchDir, 'data.js'))) console.error(`note: ${join(benchDir, 'data.js')} does not exist yet; the page will say so.`);
  console.log(`restbench site: ${url}  (history: ${benchDir}; Ctrl+C to stop)`);
}

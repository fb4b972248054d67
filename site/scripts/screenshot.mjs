// Screenshot of the site over a history directory, for the README:
//   node site/scripts/screenshot.mjs <historyDir> <out.png> [hash] [--width N] [--full] [--dark]
import { startServer } from '../serve.mjs';
import { launch, openPage } from '../test/browser.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const widthAt = args.indexOf('--width');
const width = widthAt >= 0 ? Number(args[widthAt + 1]) : 1280;
const [historyDir, out, hash = ''] = args.filter((a, i) => !a.startsWith('--') && (widthAt < 0 || i !== widthAt + 1));
if (!historyDir || !out) {
  console.error('usage: node site/scripts/screenshot.mjs <historyDir> <out.png> [hash] [--width N] [--full] [--dark]');
  process.exit(2);
}
const { server, url } = await startServer({ historyDir });
const browser = await launch();
try {
  const page = await openPage(browser, { width, height: 900, colorScheme: flag('dark') ? 'dark' : 'light' });
  await page.goto(url + hash);
  await page.waitForFunction(() => window.__restbench.state !== 'loading');
  if (hash.includes('view=trends')) await page.waitForSelector('.chart-card[data-drawn="true"]').catch(() => {});
  await page.screenshot({ path: out, fullPage: flag('full') });
  console.log(`${out}: page state ${await page.evaluate(() => window.__restbench.state)}`);
} finally {
  await browser.close();
  server.close();
}

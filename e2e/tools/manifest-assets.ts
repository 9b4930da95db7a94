/**
 * Renders the manifest's PNG assets with Debian's Chromium: the shortcut icons the manifest names
 * from their SVG sources beside them, and the install screenshots from the real app (needs a
 * running server with a build).
 *   node --import tsx e2e/tools/manifest-assets.ts [http://127.0.0.1:8080]
 *   node --import tsx e2e/tools/manifest-assets.ts icons      (the shortcut icons alone)
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright';

/** The demo account a server seeds (DEMO_PHONE, DEMO_PASSWORD's defaults): the screenshots show the demo. */
const DEMO = { phone: '9876543210', password: 'demo1234' };
const root = path.resolve(import.meta.dirname, '../..');
const iconsOnly = process.argv[2] === 'icons';
const base = (!iconsOnly && process.argv[2]) || 'http://127.0.0.1:8080';
/** The shortcut icons, as the manifest names them (public/icons/shortcut-<name>.png). */
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'public/manifest.webmanifest'), 'utf8')) as {
  shortcuts: Array<{ icons: Array<{ src: string }> }>;
};
const shortcutIcons = manifest.shortcuts.flatMap((s) => s.icons.map((i) => path.join(root, 'public', i.src)));

const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium' });
try {
  const page = await browser.newPage({ viewport: { width: 96, height: 96 } });
  for (const png of shortcutIcons) {
    const svg = fs.readFileSync(png.replace(/\.png$/, '.svg'), 'utf8');
    await page.setContent(
      `<body style="margin:0;background:transparent">${svg.replace('<svg ', '<svg width="96" height="96" ')}</body>`,
    );
    await page.screenshot({ path: png, omitBackground: true });
  }
  if (iconsOnly) process.exit(0);

  const shots = path.join(root, 'public/screenshots');
  fs.mkdirSync(shots, { recursive: true });
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'block',
  });
  const p = await phone.newPage();
  await p.goto(`${base}/login`);
  await p.getByLabel('Phone number').waitFor();
  await p.screenshot({ path: path.join(shots, 'login.png') });
  await p.getByLabel('Phone number').fill(DEMO.phone);
  await p.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await p.getByRole('button', { name: 'Log in' }).click();
  await p.getByText('Total assets').waitFor();
  await p.waitForTimeout(1500);
  await p.screenshot({ path: path.join(shots, 'home.png') });

  const wide = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  const w = await wide.newPage();
  await w.goto(`${base}/login`);
  await w.getByLabel('Phone number').waitFor();
  await w.screenshot({ path: path.join(shots, 'wide.png') });
} finally {
  await browser.close();
}

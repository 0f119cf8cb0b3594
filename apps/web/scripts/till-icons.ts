// Draws the till's PNG icons (public/till-icon-*.png, its web manifest's) from public/till-icon.svg
// with the journeys' Chromium: `npx tsx scripts/till-icons.ts` after changing the drawing. The
// maskable one keeps the drawing inside the safe zone (the middle 80%) on a full-bleed background.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

const PUBLIC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public');
const svg = readFileSync(path.join(PUBLIC, 'till-icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
const page = await browser.newPage();
const icons = [
  { file: 'till-icon-192.png', size: 192, inset: 0 },
  { file: 'till-icon-512.png', size: 512, inset: 0 },
  { file: 'till-icon-maskable-512.png', size: 512, inset: 0.1 },
];
for (const { file, size, inset } of icons) {
  await page.setViewportSize({ width: size, height: size });
  const pad = Math.round(size * inset);
  await page.setContent(
    `<body style="margin:0;background:#0f172a"><div style="padding:${pad}px;width:${size - 2 * pad}px;height:${size - 2 * pad}px">${svg.replace('<svg ', '<svg width="100%" height="100%" ')}</div></body>`,
  );
  await page.screenshot({ path: path.join(PUBLIC, file), omitBackground: false });
}
await browser.close();

#!/usr/bin/env node
// Renders each brand's logo (brand/brands.json "logo", an SVG) to
// brand/logos/<slug>.png for the e-mails: Gmail and Outlook show no SVG image.
// Debian's Chromium draws it (the portal's own renderer, with the system's
// fonts), at twice the e-mail's 40 px height, on a transparent background. The
// PNG records the SHA-256 of the SVG it was drawn from in a tEXt chunk
// (oportuna-svg-sha256); brand/brand_test.go fails while a logo changed in
// brands.json and its PNG was not drawn again: run `make brand-logos`.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'web', 'package.json'));
const { chromium } = require('playwright-core');

const HEIGHT = 40; // CSS pixels in the e-mail (mailer/templates/layout.html)
const SCALE = 2; // brand.LogoPNGScale
const KEY = 'oportuna-svg-sha256'; // brand.LogoSourceKey

/** A PNG chunk: length, type, data, CRC of type and data. */
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** The PNG with a tEXt chunk keyword=value right after its IHDR. */
function withText(png, keyword, value) {
  const ihdrEnd = 8 + 4 + 4 + png.readUInt32BE(8) + 4;
  const text = chunk('tEXt', Buffer.from(`${keyword}\0${value}`, 'latin1'));
  return Buffer.concat([png.subarray(0, ihdrEnd), text, png.subarray(ihdrEnd)]);
}

const brands = JSON.parse(readFileSync(join(root, 'brand', 'brands.json'), 'utf8'));
const only = new Set(process.argv.slice(2));
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--font-render-hinting=none'],
});
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  mkdirSync(join(root, 'brand', 'logos'), { recursive: true });
  for (const b of brands) {
    if (only.size > 0 && !only.has(b.slug)) continue;
    const vb = /viewBox="([\d.\s-]+)"/.exec(b.logo);
    if (!vb) throw new Error(`${b.slug}: the logo has no viewBox`);
    const [, , vw, vh] = vb[1].trim().split(/\s+/).map(Number);
    const height = HEIGHT * SCALE;
    const width = Math.round((height * vw) / vh);
    const svg = b.logo.replace('<svg ', `<svg width="${width}" height="${height}" `);
    await page.setViewportSize({ width, height });
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
    await page.evaluate(() => document.fonts.ready);
    const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width, height } });
    const sha = createHash('sha256').update(b.logo, 'utf8').digest('hex');
    const out = join(root, 'brand', 'logos', `${b.slug}.png`);
    writeFileSync(out, withText(png, KEY, sha));
    console.log(`${out}: ${width}×${height}`);
  }
} finally {
  await browser.close();
}

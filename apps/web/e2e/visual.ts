// Reference pictures of the screens journey (issue 41): each screen, at both widths and in both
// languages, is compared pixel by pixel with a picture committed under e2e/references/, drawn on
// a server and a browser whose clocks stay at one instant (CLOCK_START, CLOCK_FROZEN: decision
// 0085), so that nothing on screen changes from one day or run to the next.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import type { Locator, Page } from 'playwright-core';
import UPNG from 'upng-js';

const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REFERENCES_DIR = path.join(WEB_DIR, 'e2e/references');
/** Where a picture that differs is left, with its reference and the difference in red. */
export const DIFFERENCES_DIR = path.join(WEB_DIR, 'test-results/visual');

/**
 * The instant both clocks stay at: the third of a month, when the dashboard's chart has three
 * days (the case that drew its axis labels eleven times wide), at 10:00 UTC, before the demo's
 * lunch orders of that day.
 */
export const PICTURE_TIME = '2026-03-03T10:00:00.000Z';

/** The server's settings for the pictures (e2e/global-setup.ts startJourneyServer). */
export const PICTURE_SERVER_ENV = { CLOCK_START: PICTURE_TIME, CLOCK_FROZEN: 'true' };

/**
 * The tolerance: a pixel counts as different when its colours are further apart than
 * pixelmatch's threshold 0.1 (of the YIQ distance between black and white; anti-aliased edges are
 * not counted), and a picture fails when more than 0.1 % of its pixels are different: some 1,000
 * of a 1280×800 screen, 330 of a 390×844 one; a stretched label, a moved column or a changed
 * word is many more.
 */
export const PIXEL_THRESHOLD = 0.1;
export const MAX_DIFFERENT_SHARE = 0.001;

interface Picture {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel. */
  data: Uint8Array;
}

function decode(png: Uint8Array): Picture {
  const bytes = png.buffer.slice(png.byteOffset, png.byteOffset + png.byteLength) as ArrayBuffer;
  const image = UPNG.decode(bytes);
  return {
    width: image.width,
    height: image.height,
    data: new Uint8Array(UPNG.toRGBA8(image)[0]!),
  };
}

/**
 * As PNG: with `colours`, reduced to that many (a palette: a third of the bytes of a screenshot,
 * and no pixel of it past the threshold from the original), else exact.
 */
function encode({ width, height, data }: Picture, colours = 0): Buffer {
  const pixels = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  return Buffer.from(UPNG.encode([pixels as ArrayBuffer], width, height, colours));
}

/** `UPDATE_REFERENCES=1` (`npm run screenshots:update -w apps/web`) writes the pictures anew. */
export const UPDATING = process.env.UPDATE_REFERENCES === '1';

/**
 * Shoots the viewport, or only `part` of the page (`mask`: regions painted over, none today), and
 * compares it with references/<name>.png, or writes that file when updating. Answers what
 * differs, in words (an empty list passes); a differing picture is left in test-results/visual/
 * beside its reference and a picture of the difference.
 */
export async function matchesReference(
  page: Page,
  name: string,
  { part, mask = [] }: { part?: Locator; mask?: Locator[] } = {},
): Promise<string[]> {
  const options = { animations: 'disabled', caret: 'hide', mask } as const;
  const shot = await (part ? part.screenshot(options) : page.screenshot(options));
  const actual = decode(shot);
  const file = path.join(REFERENCES_DIR, `${name}.png`);
  if (UPDATING) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, encode(actual, 256));
    return [];
  }
  const keep = (suffix: string, picture: Picture) => {
    const target = path.join(DIFFERENCES_DIR, `${name}.${suffix}.png`);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, encode(picture));
  };
  if (!existsSync(file)) {
    keep('actual', actual);
    return [`${name}: no reference picture (npm run screenshots:update -w apps/web writes it)`];
  }
  const expected = decode(readFileSync(file));
  if (expected.width !== actual.width || expected.height !== actual.height) {
    keep('actual', actual);
    return [
      `${name}: ${actual.width}×${actual.height} px, the reference ${expected.width}×${expected.height}`,
    ];
  }
  const difference: Picture = {
    width: actual.width,
    height: actual.height,
    data: new Uint8Array(actual.width * actual.height * 4),
  };
  const different = pixelmatch(
    expected.data,
    actual.data,
    difference.data,
    actual.width,
    actual.height,
    { threshold: PIXEL_THRESHOLD },
  );
  const allowed = Math.floor(actual.width * actual.height * MAX_DIFFERENT_SHARE);
  if (different <= allowed) return [];
  keep('actual', actual);
  keep('expected', expected);
  keep('difference', difference);
  const share = ((different / (actual.width * actual.height)) * 100).toFixed(2);
  return [`${name}: ${different} pixels differ (${share} %, at most ${allowed} allowed)`];
}

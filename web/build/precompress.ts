import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Files worth compressing: text assets (images and fonts are compressed already, or not at all). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
/** Below this size the headers of a compressed answer outweigh the gain. */
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` and `<file>.gz` beside each compressible file of `dir`
 * (recursively), keeping each only when it is smaller than the original.
 * Brotli at quality 11 and gzip at level 9: done once at build time, so the
 * slowest, smallest settings cost nothing at request time. Returns the files written.
 */
export function precompressDir(dir: string): string[] {
  const written: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) {
      written.push(...precompressDir(file));
      continue;
    }
    if (!COMPRESSIBLE.test(name)) continue;
    const raw = readFileSync(file);
    if (raw.length < MIN_BYTES) continue;
    const variants: [string, Buffer][] = [
      [
        '.br',
        brotliCompressSync(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
      ],
      ['.gz', gzipSync(raw, { level: 9 })],
    ];
    for (const [ext, body] of variants) {
      if (body.length >= raw.length) continue;
      writeFileSync(file + ext, body);
      written.push(file + ext);
    }
  }
  return written;
}

/**
 * Vite plugin: after the bundle is written, precompresses it (brotli and gzip)
 * so the Go server (api/assets.go) sends the smaller file the browser accepts
 * without compressing anything per request.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'oportuna-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { precompressBuild } from './precompress.mjs';

describe('precompressed console build', () => {
  const dist = mkdtempSync(join(tmpdir(), 'isps-precompress-'));
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('writes brotli and gzip copies of text assets that decompress to the original, and leaves small and binary files alone', () => {
    mkdirSync(join(dist, 'assets'));
    const script = `export const x = ${JSON.stringify('console '.repeat(2000))};\n`;
    writeFileSync(join(dist, 'assets', 'app-1a2b.js'), script);
    writeFileSync(join(dist, 'index.html'), '<!doctype html>');
    writeFileSync(join(dist, 'assets', 'logo.png'), Buffer.alloc(4096, 1));
    expect(precompressBuild(dist)).toBe(1);
    const js = join(dist, 'assets', 'app-1a2b.js');
    expect(brotliDecompressSync(readFileSync(`${js}.br`)).toString()).toBe(script);
    expect(gunzipSync(readFileSync(`${js}.gz`)).toString()).toBe(script);
    expect(readFileSync(`${js}.br`).length).toBeLessThan(script.length / 10);
    expect(existsSync(join(dist, 'index.html.br'))).toBe(false);
    expect(existsSync(join(dist, 'assets', 'logo.png.br'))).toBe(false);
  });
});

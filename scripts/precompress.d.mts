import type { Plugin } from 'vite';

/** Writes `.br` and `.gz` beside every text asset under outDir; returns how many assets got copies. */
export function precompressBuild(outDir: string): number;
/** The Vite plugin that precompresses the build once it is written. */
export function precompress(): Plugin;

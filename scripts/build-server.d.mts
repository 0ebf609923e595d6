/** The repository's root folder. */
export const root: string;
/** Where `npm run build` puts the compiled server: apps/server/dist. */
export const serverDist: string;
/** Builds the server to JavaScript in `outdir` (apps/server/dist unless given), replacing what was there. */
export function buildServer(outdir?: string): Promise<void>;

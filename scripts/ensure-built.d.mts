export const serverMain: string;
/** Builds the console and the server when their builds are older than their sources; false when the console's build failed. */
export function ensureBuilt(): Promise<boolean>;

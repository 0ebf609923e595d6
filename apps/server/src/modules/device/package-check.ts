import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { constants, gunzipSync } from 'node:zlib';
import { fileExtension } from '@isps/contract';

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
/** the end record is 22 bytes plus a comment of at most 65,535 */
const EOCD_SEARCH = 22 + 0xffff;
const MANIFEST = 'AndroidManifest.xml';
/** enough compressed bytes for the first tar header of a gzip-compressed tar */
const GZIP_HEAD = 64 * 1024;

async function readAt(path: string, position: number, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const isUstar = (header: Buffer) => header.length >= 262 && header.subarray(257, 262).toString('latin1') === 'ustar';

/** An APK is a ZIP archive whose central directory names AndroidManifest.xml. */
async function isApk(path: string, size: number): Promise<boolean> {
  const tailStart = Math.max(0, size - EOCD_SEARCH);
  const tail = await readAt(path, tailStart, size - tailStart);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i -= 1) {
    if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
      end = i;
      break;
    }
  }
  if (end < 0) return false;
  const entries = tail.readUInt16LE(end + 10);
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  if (directoryOffset + directorySize > size) return false;
  const directory = await readAt(path, directoryOffset, directorySize);
  let at = 0;
  for (let n = 0; n < entries && at + 46 <= directory.length; n += 1) {
    if (directory.readUInt32LE(at) !== CENTRAL_SIGNATURE) return false;
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    if (directory.subarray(at + 46, at + 46 + nameLength).toString('utf8') === MANIFEST) return true;
    at += 46 + nameLength + extraLength + commentLength;
  }
  return false;
}

/** A gzip stream whose first inflated bytes are a tar header. */
async function isGzippedTar(path: string): Promise<boolean> {
  const head = await readAt(path, 0, GZIP_HEAD);
  try {
    // a partial stream: inflate what is there without asking for its end
    return isUstar(gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH }));
  } catch {
    return false;
  }
}

/**
 * Whether the file at `path` is the software package its name says, by its content: an APK (a ZIP archive holding
 * AndroidManifest.xml), a tar (ustar magic at offset 257) or a gzip-compressed tar (.tgz, .tar.gz).
 */
export async function isSoftwarePackage(path: string, name: string): Promise<boolean> {
  const handle = await open(path, 'r');
  const { size } = await handle.stat().finally(() => handle.close());
  switch (fileExtension(name)) {
    case 'apk':
      return isApk(path, size);
    case 'tar':
      return isUstar(await readAt(path, 0, 512));
    case 'tgz':
    case 'gz':
      return isGzippedTar(path);
    default:
      return false;
  }
}

/** SHA-256 (hex) and size of a stored file, streamed. */
export async function fileDigest(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

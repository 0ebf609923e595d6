import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DEFAULT_UPLOAD_BIZ, STORED_FILE_PATTERN, UPLOAD_BIZ_PATTERN, UPLOAD_MAX_BYTES, fileExtension } from '@isps/contract';
import { AppError, refuse } from './envelope.ts';

/** How a stored file is answered: its content type and whether the browser may show it in place. */
export interface FileType {
  contentType: string;
  inline: boolean;
  /** the file's first bytes must satisfy this (file-type style magic numbers); null: any text without NUL bytes */
  signature: ((head: Buffer) => boolean) | null;
}

const startsWith = (...bytes: number[]) => (head: Buffer) => bytes.every((b, i) => head[i] === b);
const ascii = (text: string, at = 0) => (head: Buffer) => head.subarray(at, at + text.length).toString('latin1') === text;
const png = startsWith(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const jpeg = startsWith(0xff, 0xd8, 0xff);
const gif = (head: Buffer) => ascii('GIF87a')(head) || ascii('GIF89a')(head);
const webp = (head: Buffer) => ascii('RIFF')(head) && ascii('WEBP', 8)(head);
const pdf = ascii('%PDF-');
// docx, xlsx, pptx and zip are zip archives (an empty archive starts with the end record)
const zip = (head: Buffer) => startsWith(0x50, 0x4b, 0x03, 0x04)(head) || startsWith(0x50, 0x4b, 0x05, 0x06)(head);
// doc, xls and ppt are OLE compound files
const ole = startsWith(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1);
const mp4 = ascii('ftyp', 4);
const webm = startsWith(0x1a, 0x45, 0xdf, 0xa3);

const TYPES: Record<string, FileType> = {
  png: { contentType: 'image/png', inline: true, signature: png },
  jpg: { contentType: 'image/jpeg', inline: true, signature: jpeg },
  jpeg: { contentType: 'image/jpeg', inline: true, signature: jpeg },
  gif: { contentType: 'image/gif', inline: true, signature: gif },
  webp: { contentType: 'image/webp', inline: true, signature: webp },
  mp4: { contentType: 'video/mp4', inline: true, signature: mp4 },
  webm: { contentType: 'video/webm', inline: true, signature: webm },
  pdf: { contentType: 'application/pdf', inline: false, signature: pdf },
  doc: { contentType: 'application/msword', inline: false, signature: ole },
  xls: { contentType: 'application/vnd.ms-excel', inline: false, signature: ole },
  ppt: { contentType: 'application/vnd.ms-powerpoint', inline: false, signature: ole },
  docx: { contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', inline: false, signature: zip },
  xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', inline: false, signature: zip },
  pptx: { contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', inline: false, signature: zip },
  zip: { contentType: 'application/zip', inline: false, signature: zip },
  txt: { contentType: 'text/plain; charset=utf-8', inline: false, signature: null },
};

/** The image types of the general upload, for uploads that take images only (a floor plan). */
export const IMAGE_TYPES: Record<string, FileType> = Object.fromEntries(Object.entries(TYPES).filter(([, type]) => type.contentType.startsWith('image/')));

const ustar = ascii('ustar', 257);
const gzip = startsWith(0x1f, 0x8b);

/**
 * Software packages pushed to devices (soft update): only APKs and tar archives, gzip-compressed or not. The first
 * bytes are checked here; the soft update module checks the whole shape (an APK's manifest, a tar inside a gzip).
 */
export const PACKAGE_TYPES: Record<string, FileType> = {
  apk: { contentType: 'application/vnd.android.package-archive', inline: false, signature: zip },
  tar: { contentType: 'application/x-tar', inline: false, signature: ustar },
  tgz: { contentType: 'application/gzip', inline: false, signature: gzip },
  gz: { contentType: 'application/gzip', inline: false, signature: gzip },
};

const HEAD_BYTES = 4100;
/** uploads are readable by the server's user only */
const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;
const MAX_NAME_LENGTH = 80;

export function uploadRoot(dataDir: string): string {
  return resolve(dataDir, 'upload');
}

/** The client's file name reduced to a harmless last segment: letters (any script), digits, '.', '_' and '-'. */
export function safeFileName(original: string, extension: string): string {
  const last = original.split(/[/\\]/).pop() ?? '';
  const stem = last
    .slice(0, last.length - (extension ? extension.length + 1 : 0))
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '_')
    .replace(/^[._]+/, '')
    .slice(0, MAX_NAME_LENGTH);
  return `${stem || 'file'}.${extension}`;
}

function yyyyMMdd(time: number): string {
  return new Date(time).toISOString().slice(0, 10).replace(/-/g, '');
}

/** Flushes a file or folder to the disk, so that what the API acknowledges survives a crash or a power cut. */
async function flushToDisk(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function readHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export interface IncomingFile {
  filename: string;
  /** the file's bytes; `truncated` turns true when the multipart size limit cut it */
  file: Readable & { truncated?: boolean };
}

/**
 * Stores one upload under `upload/<biz>/<yyyyMMdd>/<random>_<safe name>` and returns that relative path. The bytes go
 * to a temporary name first and are renamed into place only once complete and checked, so a crash or a refused file
 * never leaves anything under a final name.
 */
export interface UploadRules {
  /** the types accepted, by extension (the general upload's when not given) */
  types?: Record<string, FileType>;
  /** the size limit the multipart parser was given, for the refusal's text */
  maxBytes?: number;
  /** a check of the whole file beyond its first bytes (the complete temporary file's path) */
  verify?: (path: string) => Promise<boolean>;
  /** last check with the file's size before it is placed (a tenant's quota): a throw leaves nothing stored */
  admit?: (bytes: number) => Promise<void>;
}

export async function storeUpload(dataDir: string, incoming: IncomingFile, biz: string | undefined, now: number, rules: UploadRules = {}): Promise<string> {
  const folder = biz?.trim() || DEFAULT_UPLOAD_BIZ;
  if (!UPLOAD_BIZ_PATTERN.test(folder)) throw new AppError('badRequest', 'upload.badFolder');
  const extension = fileExtension(incoming.filename);
  const type = (rules.types ?? TYPES)[extension];
  const shownName = incoming.filename.split(/[/\\]/).pop()?.slice(0, 120) || '?';
  if (!type) {
    incoming.file.resume();
    refuse('upload.typeRefused', { name: shownName });
  }
  const root = uploadRoot(dataDir);
  const temporaryDir = join(root, '.partial');
  await mkdir(temporaryDir, { recursive: true, mode: PRIVATE_DIR });
  const random = randomBytes(16).toString('hex');
  const temporary = join(temporaryDir, `${random}.part`);
  try {
    await pipeline(incoming.file, createWriteStream(temporary, { flags: 'wx', mode: PRIVATE_FILE }));
    if (incoming.file.truncated) throw new AppError('badRequest', 'upload.tooLarge', { max: (rules.maxBytes ?? UPLOAD_MAX_BYTES) / 1024 / 1024 });
    const head = await readHead(temporary);
    const fits = type.signature ? type.signature(head) : !head.includes(0);
    if (head.length === 0 || !fits || (rules.verify && !(await rules.verify(temporary)))) refuse('upload.contentMismatch', { name: shownName });
    await rules.admit?.((await lstat(temporary)).size);
    const stored = `${folder}/${yyyyMMdd(now)}/${random}_${safeFileName(incoming.filename, extension)}`;
    const day = join(root, folder, yyyyMMdd(now));
    await mkdir(day, { recursive: true, mode: PRIVATE_DIR });
    await flushToDisk(temporary);
    await rename(temporary, join(root, stored));
    // the rename itself lives in the folder's entries
    await flushToDisk(day);
    return stored;
  } finally {
    await rm(temporary, { force: true });
  }
}

export interface StoredFile {
  absolutePath: string;
  size: number;
  contentType: string;
  inline: boolean;
  /** the name a person uploaded (without the random prefix), for Content-Disposition */
  downloadName: string;
}

/**
 * The stored file at a relative path, or null when there is none. Only paths of the generated shape are looked up,
 * and the resolved file must lie inside the upload folder: `..`, absolute paths and other folders are refused.
 */
export async function findStoredFile(dataDir: string, storedPath: string, types: Record<string, FileType> = TYPES): Promise<StoredFile | null> {
  if (!STORED_FILE_PATTERN.test(storedPath) || storedPath.split('/').some((part) => part === '.' || part === '..')) {
    throw new AppError('badRequest', 'upload.badPath');
  }
  const type = types[fileExtension(storedPath)];
  if (!type) return null;
  const root = uploadRoot(dataDir);
  const absolutePath = resolve(root, storedPath);
  const inside = relative(root, absolutePath);
  if (inside.startsWith('..') || isAbsolute(inside)) throw new AppError('badRequest', 'upload.badPath');
  try {
    const stat = await lstat(absolutePath);
    if (!stat.isFile()) return null;
    const name = storedPath.split('/').pop()!;
    return { absolutePath, size: stat.size, contentType: type.contentType, inline: type.inline, downloadName: name.slice(33) };
  } catch {
    return null;
  }
}

/** `attachment; filename="…"; filename*=UTF-8''…` with an ASCII fallback, so any name survives every browser. */
export function contentDisposition(file: StoredFile): string {
  const fallback = file.downloadName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${file.inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(file.downloadName)}`;
}

/** Removes a stored file (by the path its upload answered); a path of no file, or of another shape, removes nothing. */
export async function removeStoredFile(dataDir: string, storedPath: string, types: Record<string, FileType> = TYPES): Promise<boolean> {
  let file: StoredFile | null;
  try {
    file = await findStoredFile(dataDir, storedPath, types);
  } catch {
    return false;
  }
  if (!file) return false;
  await rm(file.absolutePath, { force: true });
  return true;
}

/**
 * The name a stored file was uploaded under (as the browser sent it, else the stored name after its random part) and
 * its type, as the file storage list shows them.
 */
export function storedFileColumns(storedPath: string, uploadedName?: string): { file_name: string; file_type: string } {
  const last = storedPath.split('/').pop() ?? storedPath;
  const name = uploadedName?.split(/[/\\]/).pop()?.trim() || (/^[0-9a-f]{32}_/.test(last) ? last.slice(33) : last);
  return { file_name: name.slice(0, 255), file_type: fileExtension(storedPath).slice(0, 16) };
}

/**
 * Uploaded files (the origin console's /sys/common/upload and /sys/common/static). The server answers an upload
 * with the stored path relative to its upload folder; a client shows it at `staticFileUrl(apiBase, path)`.
 */
export const FilePath = {
  /** POST multipart: one file in field `file`, optional field `biz` (sub-folder) before it */
  upload: '/sys/common/upload',
  /** GET: a stored file by its relative path */
  static: '/sys/common/static/*',
  /** GET ?pageNo=&pageSize=: the uploads of the caller's tenant, recent first */
  list: '/sys/common/files',
} as const;

/** The largest file an upload takes (the multipart limit of the server). */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** A sub-folder name a client may ask for: letters, digits, '_' and '-'. */
export const UPLOAD_BIZ_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
export const DEFAULT_UPLOAD_BIZ = 'temp';
/** The folder of announcement files, spelled as the origin console spells it. */
export const ANNOUNCEMENT_UPLOAD_BIZ = 'annountCement';

/** What may be uploaded, by extension. No svg: it can carry script. */
export const UploadKinds = {
  image: ['png', 'jpg', 'jpeg', 'gif', 'webp'],
  video: ['mp4', 'webm'],
  document: ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'txt', 'zip'],
} as const;
export type UploadKind = keyof typeof UploadKinds;

/** An `accept` attribute for a file input of the given kinds. */
export function uploadAccept(...kinds: UploadKind[]): string {
  return kinds.flatMap((kind) => UploadKinds[kind].map((ext) => `.${ext}`)).join(',');
}

/** The extension of a file name, lower case, without the dot ('' when it has none). */
export function fileExtension(name: string): string {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(name);
  return match ? match[1]!.toLowerCase() : '';
}

/**
 * Stored paths look like `<biz>/<yyyyMMdd>/<32 hex>_<name>`: the random part makes a path unguessable, which is
 * what lets the static route serve without a token (an `<img src>` cannot send one).
 */
export const STORED_FILE_PATTERN = /^[A-Za-z0-9_-]{1,32}\/\d{8}\/[0-9a-f]{32}_[^/\\\0]{1,120}$/u;

/** The URL (below the console's origin) of a stored file: each segment encoded, slashes kept. */
export function staticFileUrl(apiBase: string, storedPath: string): string {
  const encoded = storedPath.split('/').map(encodeURIComponent).join('/');
  return `${apiBase.replace(/\/$/, '')}${FilePath.static.replace('*', '')}${encoded}`;
}

/** The file name a person recognises: the stored name without its random prefix. */
export function displayFileName(pathOrUrl: string): string {
  const last = pathOrUrl.split(/[?#]/)[0]!.split('/').pop() ?? '';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // a malformed escape: show it as it is
  }
  return name.replace(/^[0-9a-f]{32}_/, '');
}

import { DEFAULT_UPLOAD_BIZ, FilePath, UPLOAD_MAX_BYTES, fileExtension, staticFileUrl, translate, type Envelope } from '@isps/contract';
import { i18n } from '../i18n/i18n.ts';
import { storedLanguage } from '../i18n/language.ts';
import { API_BASE, ApiError, buildHeaders, buildUrl, reactToFailure } from './client.ts';

export interface UploadOptions {
  /** the server's sub-folder (letters, digits, '_' and '-') */
  biz?: string;
  /** 0 to 100 while the bytes go out */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  /** extensions the caller takes (lower case, no dot); the server checks its own list again */
  extensions?: readonly string[];
}

export interface UploadedFile {
  /** the stored path the server answered, relative to its upload folder */
  path: string;
  /** where the console shows it: an address the announcement fields and `<img src>` accept */
  url: string;
}

function parse(text: string): Envelope<string> | null {
  try {
    const body = JSON.parse(text) as unknown;
    return body && typeof body === 'object' && 'success' in body ? (body as Envelope<string>) : null;
  } catch {
    return null;
  }
}

/**
 * POST /sys/common/upload with the session's token and language. XMLHttpRequest rather than fetch because only it
 * reports upload progress. Refusals (type, size) come back as an ApiError with the server's localised message and
 * are left to the caller to show; an expired session reacts as every call does.
 */
export function uploadFile(file: File, options: UploadOptions = {}): Promise<UploadedFile> {
  const lang = storedLanguage();
  if (options.extensions && !options.extensions.includes(fileExtension(file.name))) {
    return Promise.reject(new ApiError(400, translate(lang, 'upload.typeRefused', { name: file.name })));
  }
  if (file.size > UPLOAD_MAX_BYTES) {
    return Promise.reject(new ApiError(400, translate(lang, 'upload.tooLarge', { max: UPLOAD_MAX_BYTES / 1024 / 1024 })));
  }
  const form = new FormData();
  // before the file: the server reads the fields that precede it
  form.append('biz', options.biz ?? DEFAULT_UPLOAD_BIZ);
  form.append('file', file, file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(FilePath.upload, API_BASE, undefined, 'POST'));
    buildHeaders(FilePath.upload, form, undefined).forEach((value, name) => xhr.setRequestHeader(name, value));
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      const body = parse(xhr.responseText);
      const message = body?.message || i18n.t('request.failed');
      if (xhr.status === 401) reactToFailure(401, message);
      if (xhr.status < 200 || xhr.status >= 300 || !body?.success) {
        reject(new ApiError(xhr.status, message, body));
        return;
      }
      const path = body.result || body.message;
      resolve({ path, url: staticFileUrl(API_BASE, path) });
    };
    xhr.onerror = () => reject(new ApiError(0, i18n.t('request.failed')));
    xhr.onabort = () => reject(new ApiError(0, i18n.t('request.failed')));
    options.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

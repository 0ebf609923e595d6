/**
 * Whether an address may become a link in announcement HTML: http(s), mailto: and tel: addresses, and console paths
 * starting with one '/'. Anything else (javascript:, data:, vbscript:, protocol-relative //host) is refused; the
 * server's sanitiser drops such links too, this only tells the writer at once.
 */
export function isSafeLinkUrl(raw: string): boolean {
  // browsers ignore control characters and spaces inside a scheme ("java\tscript:"), so they must not hide one here
  const url = [...raw].filter((c) => c.charCodeAt(0) > 0x20 && (c.charCodeAt(0) < 0x7f || c.charCodeAt(0) > 0x9f)).join('');
  if (!url) return false;
  if (/^\/(?!\/)/.test(url)) return true;
  return /^(https?:\/\/[^/]|mailto:|tel:)/i.test(url);
}

/** A typed address as the link will hold it: a bare host name gets https://. */
export function normaliseLinkUrl(raw: string): string {
  const url = raw.trim();
  if (/^[\w.-]+\.[a-z]{2,}(\/|$)/i.test(url) && !/^[a-z][\w+.-]*:/i.test(url)) return `https://${url}`;
  return url;
}

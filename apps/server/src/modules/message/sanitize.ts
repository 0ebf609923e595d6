import sanitizeHtml from 'sanitize-html';

// colours, sizes and alignment from the editor; nothing that can load a resource (no url(), no expression())
const plainValue = [/^[^()]*$/, /^rgba?\([\d\s.,%]+\)$/];
const styles = ['color', 'background-color', 'text-align', 'font-size', 'font-weight', 'font-style', 'text-decoration', 'line-height', 'width', 'height'];

const options: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'video', 'source', 'span', 'h1', 'h2', 'u', 's', 'mark'],
  allowedAttributes: {
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    video: ['src', 'controls', 'width', 'height', 'poster'],
    source: ['src', 'type'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    '*': ['style', 'class'],
  },
  allowedStyles: { '*': Object.fromEntries(styles.map((s) => [s, plainValue])) },
  // relative URLs stay; absolute ones only with these schemes, so javascript: and vbscript: links disappear
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: attribs.target ? { ...attribs, rel: 'noopener noreferrer' } : attribs }),
  },
};

/** Announcement and message HTML as it may be stored and shown: no scripts, event handlers or script URLs. */
export function sanitizeRichText(html: string | null | undefined): string | null {
  if (html === null || html === undefined) return null;
  return sanitizeHtml(html, options);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Plain text as HTML that shows the same text, line breaks kept. */
export function textToHtml(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>');
}

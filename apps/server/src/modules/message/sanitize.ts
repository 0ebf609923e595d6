import { createRequire } from 'node:module';
import type sanitizeHtml from 'sanitize-html';
import { escapeHtml } from '../../platform/system-notices.ts';

// sanitize-html (with postcss and source-map-js) is a large part of the server's start; it loads at the first rich text
let loaded: { sanitize: typeof sanitizeHtml; options: sanitizeHtml.IOptions } | null = null;

// colours, sizes and alignment from the editor; nothing that can load a resource (no url(), no expression())
const plainValue = [/^[^()]*$/, /^rgba?\([\d\s.,%]+\)$/];
const styles = ['color', 'background-color', 'text-align', 'font-size', 'font-weight', 'font-style', 'text-decoration', 'line-height', 'width', 'height'];

const optionsOf = (library: typeof sanitizeHtml): sanitizeHtml.IOptions => ({
  allowedTags: [...library.defaults.allowedTags, 'img', 'video', 'source', 'span', 'h1', 'h2', 'u', 's', 'mark'],
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
});

function sanitizer(): NonNullable<typeof loaded> {
  if (!loaded) {
    const library = createRequire(import.meta.url)('sanitize-html') as typeof sanitizeHtml;
    loaded = { sanitize: library, options: optionsOf(library) };
  }
  return loaded;
}

/** Announcement and message HTML as it may be stored and shown: no scripts, event handlers or script URLs. */
export function sanitizeRichText(html: string | null | undefined): string | null {
  if (html === null || html === undefined) return null;
  const { sanitize, options } = sanitizer();
  return sanitize(html, options);
}


/** Plain text as HTML that shows the same text, line breaks kept. */
export function textToHtml(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>');
}

import { describe, expect, it } from 'vitest';
import { staticFileUrl } from '@isps/contract';
import { sanitizeRichText } from './sanitize.ts';

describe('announcement HTML from the editor', () => {
  const image = staticFileUrl('/api', `annountCement/20250101/${'a'.repeat(32)}_lobby.png`);

  it('keeps what the editor writes: marks, headings, lists, alignment, links and uploaded images', () => {
    const html =
      `<h2 style="text-align: center">Notice</h2><p><strong>Bold</strong> <em>it</em> <u>u</u> <s>s</s></p>` +
      `<ul><li><p>one</p></li></ul><ol><li><p>two</p></li></ol><blockquote><p>q</p></blockquote>` +
      `<p><a target="_blank" rel="noopener noreferrer nofollow" href="https://example.com/x">link</a></p><img src="${image}" alt="lobby">`;
    const clean = sanitizeRichText(html)!;
    expect(clean).toContain('<h2 style="text-align:center">Notice</h2>');
    expect(clean).toContain('<strong>Bold</strong> <em>it</em> <u>u</u> <s>s</s>');
    expect(clean).toContain('<ul><li><p>one</p></li></ul><ol><li><p>two</p></li></ol><blockquote><p>q</p></blockquote>');
    expect(clean).toContain('<a target="_blank" rel="noopener noreferrer" href="https://example.com/x">link</a>');
    expect(clean).toContain(`<img src="${image}" alt="lobby" />`);
  });

  it('still drops script URLs, handlers and resource-loading styles', () => {
    const clean = sanitizeRichText(
      '<img src="javascript:alert(1)"><img src="/api/x.png" onerror="alert(2)"><a href="javascript:alert(3)">a</a>' +
        '<a href="JaVaScRiPt&colon;alert(4)">b</a><a href="vbscript:x">c</a><p style="background-image:url(https://evil)">d</p><img src="//evil.example/x.png">',
    )!;
    expect(clean).not.toMatch(/javascript|vbscript|onerror|url\(|evil/i);
    expect(clean).toContain('<img src="/api/x.png" />');
  });
});

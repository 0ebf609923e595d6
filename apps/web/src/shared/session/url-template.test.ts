import { afterEach, describe, expect, it } from 'vitest';
import { setStored, StorageKey } from '../storage/index.ts';
import { fillUrlTemplate, isExternalUrl } from './url-template.ts';

afterEach(() => {
  localStorage.clear();
  delete window._CONFIG;
});

describe('fillUrlTemplate', () => {
  it("fills window config values and the token for the console's own origin", () => {
    window._CONFIG = { domianURL: window.location.origin };
    setStored(StorageKey.token, 'abc');
    expect(fillUrlTemplate("{{ window._CONFIG['domianURL'] }}/doc?token={{token}}")).toBe(`${window.location.origin}/doc?token=abc`);
    expect(fillUrlTemplate('/report/view?token={{ token }}')).toBe('/report/view?token=abc');
  });
  it('never sends the token to another origin', () => {
    window._CONFIG = { domianURL: 'http://example.test:8080' };
    setStored(StorageKey.token, 'abc');
    expect(fillUrlTemplate("{{ window._CONFIG['domianURL'] }}/doc?token={{token}}")).toBe('http://example.test:8080/doc?token=');
    expect(fillUrlTemplate('https://evil.test/x?t={{ACCESS_TOKEN}}&u={{Access-Token}}')).toBe('https://evil.test/x?t=&u=');
    // the token placed in the host part cannot make the origin look like the console's
    expect(fillUrlTemplate(`//{{token}}.evil.test/`)).toBe('//.evil.test/');
    const { protocol, hostname, port } = window.location;
    expect(fillUrlTemplate(`${protocol}//${hostname.slice(0, 2)}{{token}}${hostname.slice(2)}${port ? `:${port}` : ''}/`)).not.toContain('abc');
    expect(fillUrlTemplate(`${window.location.origin}.evil.test/?t={{token}}`)).toBe(`${window.location.origin}.evil.test/?t=`);
  });
  it('never evaluates other expressions', () => {
    expect(fillUrlTemplate('http://a/{{ alert(1) }}/{{ window.location.href }}')).toBe('http://a//');
  });
  it('tells external addresses', () => {
    expect(isExternalUrl('https://x.test')).toBe(true);
    expect(isExternalUrl('/dashboard')).toBe(false);
    expect(isExternalUrl(null)).toBe(false);
  });
});

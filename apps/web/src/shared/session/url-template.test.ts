import { afterEach, describe, expect, it } from 'vitest';
import { setStored, StorageKey } from '../storage/index.ts';
import { fillUrlTemplate, isExternalUrl } from './url-template.ts';

afterEach(() => {
  localStorage.clear();
  delete window._CONFIG;
});

describe('fillUrlTemplate', () => {
  it('fills window config values and the token', () => {
    window._CONFIG = { domianURL: 'http://example.test:8080' };
    setStored(StorageKey.token, 'abc');
    expect(fillUrlTemplate("{{ window._CONFIG['domianURL'] }}/doc?token={{token}}")).toBe('http://example.test:8080/doc?token=abc');
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

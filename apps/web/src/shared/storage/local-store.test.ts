import { afterEach, describe, expect, it, vi } from 'vitest';
import { getStored, removeStored, setStored, StorageKey } from './local-store.ts';

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe('local store', () => {
  it('writes {value, expire} under the pro__ prefix with a 7-day lifetime', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000);
    setStored(StorageKey.token, 'tok');
    expect(JSON.parse(localStorage.getItem('pro__Access-Token') ?? '')).toEqual({ value: 'tok', expire: 1_000 + 604_800_000 });
    vi.setSystemTime(1_000 + 604_800_000 - 1);
    expect(getStored(StorageKey.token)).toBe('tok');
    vi.setSystemTime(1_000 + 604_800_000);
    expect(getStored(StorageKey.token)).toBeNull();
    expect(localStorage.getItem('pro__Access-Token')).toBeNull();
  });

  it('keeps a value without expiry and reads bare values', () => {
    setStored(StorageKey.language, 'en-US', null);
    expect(JSON.parse(localStorage.getItem('pro__lang') ?? '')).toEqual({ value: 'en-US', expire: null });
    expect(getStored(StorageKey.language)).toBe('en-US');
    localStorage.setItem('pro__lang', 'ja-JP');
    expect(getStored(StorageKey.language)).toBe('ja-JP');
    removeStored(StorageKey.language);
    expect(getStored(StorageKey.language)).toBeNull();
  });

  it('says whether the browser kept the value', () => {
    expect(setStored(StorageKey.language, 'en-US', null)).toBe(true);
    const refuse = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    expect(setStored(StorageKey.language, 'ja-JP', null)).toBe(false);
    refuse.mockRestore();
    expect(getStored(StorageKey.language)).toBe('en-US');
  });
});

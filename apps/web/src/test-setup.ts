import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom has no media queries; antd's responsive helpers need one that answers "no match".
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

afterEach(() => cleanup());

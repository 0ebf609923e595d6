// first: the i18n module below reads the browser's language as it loads
import './test-browser-language.ts';
import { cleanup, configure } from '@testing-library/react';
import { Modal, message, notification } from 'antd';
import { afterEach } from 'vitest';
import { entityLabels, serverMessages, type Language } from '@isps/contract';
import { setFeedback } from './shared/api/index.ts';
import { addCatalogue, addEntityLabels, catalogues } from './shared/i18n/index.ts';

// The console loads the active language's catalogue before its first render; tests switch languages freely.
for (const [language, messages] of Object.entries(catalogues)) addCatalogue(language as Language, messages);
addEntityLabels(entityLabels, serverMessages);

// antd's static notices and modals, where the console mounts its themed antd context (tests replace them at will)
setFeedback({
  notify: (kind, title, description, durationSeconds) => notification[kind]({ title, description, duration: durationSeconds }),
  modal: (kind, props) => Modal[kind](props),
  close: () => {
    notification.destroy();
    message.destroy();
  },
});

// waitFor and findBy* give up after 1 s by default: a whole page's first render in jsdom takes longer than that on a
// machine running the server suites beside it, and a list screen's first render (antd's styles computed afresh) took
// over 5 s on two cores four times oversubscribed. A real failure still fails, only later.
configure({ asyncUtilTimeout: 15_000 });

// jsdom has no media queries; this one answers min-/max-width against the window width (1024 px in jsdom).
function widthMatches(query: string): boolean {
  const min = /min-width:\s*([\d.]+)px/.exec(query);
  const max = /max-width:\s*([\d.]+)px/.exec(query);
  return (!min || window.innerWidth >= Number(min[1])) && (!max || window.innerWidth <= Number(max[1]));
}

type MediaListener = (event: MediaQueryListEvent) => void;
const mediaLists: { query: string; matches: boolean; listeners: Set<MediaListener> }[] = [];

if (!window.matchMedia) {
  window.matchMedia = (query: string) => {
    const entry = { query, matches: widthMatches(query), listeners: new Set<MediaListener>() };
    mediaLists.push(entry);
    return {
      get matches() {
        return widthMatches(query);
      },
      media: query,
      onchange: null,
      addListener: (listener: MediaListener) => void entry.listeners.add(listener),
      removeListener: (listener: MediaListener) => void entry.listeners.delete(listener),
      addEventListener: (_type: string, listener: MediaListener) => void entry.listeners.add(listener),
      removeEventListener: (_type: string, listener: MediaListener) => void entry.listeners.delete(listener),
      dispatchEvent: () => false,
    } as unknown as MediaQueryList;
  };
}

/** Narrows or widens the window as a person does: the media queries whose answer changes tell their listeners. */
export function resizeWindow(width: number): void {
  Object.defineProperty(window, 'innerWidth', { value: width, configurable: true });
  for (const entry of mediaLists) {
    const matches = widthMatches(entry.query);
    if (matches === entry.matches) continue;
    entry.matches = matches;
    for (const listener of entry.listeners) listener({ matches, media: entry.query } as MediaQueryListEvent);
  }
}

afterEach(() => cleanup());

// jsdom has no ResizeObserver either; antd's select list only needs the calls to exist.
if (!('ResizeObserver' in window)) {
  class NoResizeObserver {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.assign(window, { ResizeObserver: NoResizeObserver });
}

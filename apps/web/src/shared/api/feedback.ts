import type { ModalFuncProps } from 'antd';
import type { ReactNode } from 'react';

/** What the request layer needs from the UI: notices and confirm-style modals. */
export interface Feedback {
  notify(kind: 'error' | 'warning' | 'success' | 'info', title: ReactNode, description: ReactNode, durationSeconds?: number): void;
  modal(kind: 'error' | 'warning' | 'confirm', props: ModalFuncProps): void;
  /** closes the notices and messages on screen */
  close?(): void;
}

/**
 * Notices and modals go to one antd context that outlives the pages (a notice stays as the login page gives way to
 * the console, or the console to the login page). Until it is registered (setFeedback), a notice or modal first loads
 * it: `loadFeedback` is set by the app and resolves once the antd context it mounts has registered.
 */
let loadFeedback: (() => Promise<void>) | null = null;
let current: Feedback | null = null;
const closers = new Set<() => void>();

export function setFeedbackLoader(load: () => Promise<void>): void {
  loadFeedback = load;
}

function later(act: (feedback: Feedback) => void): void {
  if (!loadFeedback) return;
  void loadFeedback().then(() => {
    if (current) act(current);
  });
}

const pending: Feedback = {
  notify: (...args) => later((f) => f.notify(...args)),
  modal: (...args) => later((f) => f.modal(...args)),
};

/** Registers the UI that shows notices and modals from now on; the returned function takes it back. */
export function setFeedback(feedback: Feedback): () => void {
  current = feedback;
  return () => {
    if (current === feedback) current = null;
  };
}

/** Whether a UI for notices and modals is registered. */
export function hasFeedback(): boolean {
  return current !== null;
}

export function feedback(): Feedback {
  return current ?? pending;
}

/** Adds what closes the messages a screen showed through its own antd context; the returned function removes it. */
export function addNoticeCloser(close: () => void): () => void {
  closers.add(close);
  return () => closers.delete(close);
}

/** Closes the notices and messages on screen, wherever they were shown. */
export function closeNotices(): void {
  current?.close?.();
  for (const close of closers) close();
}

/** Page-level side effects, replaceable in tests. */
export const browser = {
  reload: (): void => window.location.reload(),
  assign: (url: string): void => window.location.assign(url),
};

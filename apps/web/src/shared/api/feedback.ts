import { Modal, notification } from 'antd';
import type { ModalFuncProps } from 'antd';
import type { ReactNode } from 'react';

/** What the request layer needs from the UI: notices and confirm-style modals. */
export interface Feedback {
  notify(kind: 'error' | 'warning' | 'success' | 'info', title: ReactNode, description: ReactNode, durationSeconds?: number): void;
  modal(kind: 'error' | 'warning' | 'confirm', props: ModalFuncProps): void;
}

// Static antd calls until the app mounts its themed <App> context and registers it below.
let current: Feedback = {
  notify: (kind, title, description, durationSeconds) => notification[kind]({ title, description, duration: durationSeconds }),
  modal: (kind, props) => Modal[kind](props),
};

export function setFeedback(feedback: Feedback): void {
  current = feedback;
}

export function feedback(): Feedback {
  return current;
}

/** Page-level side effects, replaceable in tests. */
export const browser = {
  reload: (): void => window.location.reload(),
  assign: (url: string): void => window.location.assign(url),
};

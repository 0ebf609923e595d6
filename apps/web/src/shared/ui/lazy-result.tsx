import { Suspense, lazy, type ComponentType, type ReactNode } from 'react';
import styles from './lazy-result.module.css';

export interface LazyResultProps {
  status: 'success' | 'error' | 'info' | 'warning' | '403' | '404' | '500';
  title: ReactNode;
  subTitle?: ReactNode;
  extra?: ReactNode;
}

/** The same texts and buttons without antd's icon or illustration: while it loads, or when it cannot (a page's chunk
 * failed to arrive, and so may this one). */
export function PlainResult({ title, subTitle, extra }: Omit<LazyResultProps, 'status'>) {
  return (
    <div className={styles.plain} role="alert">
      <div className={styles.title}>{title}</div>
      {subTitle ? <div className={styles.subTitle}>{subTitle}</div> : null}
      {extra ? <div className={styles.extra}>{extra}</div> : null}
    </div>
  );
}

const Illustrated = lazy(
  (): Promise<{ default: ComponentType<LazyResultProps> }> =>
    import('./antd-result.tsx').then(
      (m) => ({ default: m.default as unknown as ComponentType<LazyResultProps> }),
      () => ({ default: PlainResult }),
    ),
);

/**
 * antd's Result, loaded the first time a screen shows one: the frame and the home page draw without it (it shows
 * only when something failed or is not there).
 */
export function LazyResult(props: LazyResultProps) {
  return (
    <Suspense fallback={<PlainResult {...props} />}>
      <Illustrated {...props} />
    </Suspense>
  );
}

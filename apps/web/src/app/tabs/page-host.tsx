import { Button } from 'antd';
import { Component, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { FullPageSpin } from '../../shared/ui/index.ts';
import { LazyResult } from '../../shared/ui/lazy-result.tsx';
import { forgetPage, lazyPage } from '../page-registry.tsx';
import { useTabs } from './tab-store.ts';

/** A dynamic import that failed or passed the 120 s limit of SPEC section 9. */
export function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /chunk load timeout|dynamically imported module|Importing a module script failed|error loading dynamically imported module|ChunkLoadError/i.test(text);
}

function PageFailure({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <LazyResult
      status="500"
      title={t('exception.pageFailed')}
      subTitle={isChunkLoadError(error) ? t('exception.chunkFailed') : t('request.failed')}
      extra={
        <Button type="primary" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}

/** Keeps a page that cannot load or render from taking the whole console down with it. */
export class PageErrorBoundary extends Component<{ onRetry: () => void; children: ReactNode }, { error: unknown }> {
  state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  render() {
    if (this.state.error) {
      return (
        <PageFailure
          error={this.state.error}
          onRetry={() => {
            this.setState({ error: null });
            this.props.onRetry();
          }}
        />
      );
    }
    return this.props.children;
  }
}

/** One menu page: loaded lazily, with a localised error and a retry when its chunk does not arrive. */
export function MenuPage({ component }: { component: string }) {
  // The page's lazy component lives in state: trying again after a failed load swaps in a fresh one.
  const [page, setPage] = useState(() => ({ Page: lazyPage(component), attempt: 0 }));
  const { Page } = page;
  if (!Page) return null;
  return (
    <PageErrorBoundary
      key={page.attempt}
      onRetry={() => {
        forgetPage(Page);
        setPage((current) => ({ Page: lazyPage(component), attempt: current.attempt + 1 }));
      }}
    >
      <Suspense fallback={<FullPageSpin />}>
        <Page />
      </Suspense>
    </PageErrorBoundary>
  );
}

export interface PageHostProps {
  activeKey: string;
  activePathname: string;
  /** keep-alive pages (menu meta.keepAlive) by path, with their component; empty without tabs */
  keepAlive: ReadonlyMap<string, string>;
}

/**
 * The page area. Keep-alive pages stay mounted (hidden) while their tab is open, so their state survives a
 * switch; every other page mounts afresh. A tab's refresh mounts that page again.
 */
export function PageHost({ activeKey, activePathname, keepAlive }: PageHostProps) {
  const tabs = useTabs((s) => s.tabs);
  const refreshes = useTabs((s) => s.refreshes);
  const kept = tabs.filter((tab) => keepAlive.has(tab.pathname)).map((tab) => ({ key: tab.key, pathname: tab.pathname }));
  const activeKept = keepAlive.has(activePathname);
  if (activeKept && !kept.some((k) => k.key === activeKey)) kept.push({ key: activeKey, pathname: activePathname });
  return (
    <>
      {kept.map(({ key, pathname }) => (
        <div key={`${key}#${refreshes[key] ?? 0}`} hidden={key !== activeKey} data-page-path={pathname}>
          <MenuPage component={keepAlive.get(pathname) ?? ''} />
        </div>
      ))}
      {activeKept ? null : (
        <div key={`${activeKey}#${refreshes[activeKey] ?? 0}`} data-page-path={activePathname}>
          <Outlet />
        </div>
      )}
    </>
  );
}

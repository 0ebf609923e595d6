import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../api/feedback.ts';

/** Loads a component once (a failed load is tried again at the next call); the component, when already loaded. */
function loader<P>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const start = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  return { start, loaded: () => loaded };
}

/**
 * A dialog or drawer whose code loads the first time it opens (or on `prefetch`, say as the menu that opens it
 * shows), not with the page around it. Once loaded it stays mounted, so it closes with its animation and opens again
 * at once. When its code does not arrive the person is told, the dialog counts as closed (`onClose`), and the next
 * opening tries again.
 */
export function lazyDialog<P extends { open: boolean; onClose?: () => void }>(load: () => Promise<ComponentType<P>>): ComponentType<P> & { prefetch: () => void } {
  const code = loader(load);
  function LazyDialog(props: P) {
    const { t } = useTranslation();
    const [Dialog, setDialog] = useState<ComponentType<P> | null>(code.loaded);
    const { open, onClose } = props;
    useEffect(() => {
      if (!open || Dialog) return;
      let live = true;
      code.start().then(
        (component) => {
          if (live) setDialog(() => component);
        },
        () => {
          if (!live) return;
          feedback().notify('error', t('request.systemNotice'), t('exception.dialogFailed'));
          onClose?.();
        },
      );
      return () => {
        live = false;
      };
    }, [open, Dialog, onClose, t]);
    return Dialog ? <Dialog {...props} /> : null;
  }
  return Object.assign(LazyDialog, { prefetch: () => void code.start().catch(() => undefined) });
}

/**
 * A part of the frame drawn only now and then (a popover's content, the emergency alarm's overlay) whose code loads
 * when it first shows (or on `prefetch`): `fallback` (given the part's props) shows until it is in; when it does not arrive, a line saying so,
 * and its next showing tries again.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>, fallback: (props: P) => ReactNode = () => null): ComponentType<P> & { prefetch: () => void } {
  const code = loader(load);
  function LazyPart(props: P) {
    const { t } = useTranslation();
    const [state, setState] = useState<{ Part: ComponentType<P> | null; failed: boolean }>(() => ({ Part: code.loaded(), failed: false }));
    useEffect(() => {
      if (state.Part) return;
      let live = true;
      code.start().then(
        (component) => {
          if (live) setState({ Part: component, failed: false });
        },
        () => {
          if (live) setState({ Part: null, failed: true });
        },
      );
      return () => {
        live = false;
      };
    }, [state.Part]);
    if (state.Part) return <state.Part {...props} />;
    return state.failed ? <p role="alert">{t('exception.dialogFailed')}</p> : fallback(props);
  }
  return Object.assign(LazyPart, { prefetch: () => void code.start().catch(() => undefined) });
}

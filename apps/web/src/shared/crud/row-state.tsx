import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

interface RowStateStore {
  values: Readonly<Record<string, unknown>>;
  set: (key: string, value: unknown) => void;
}

const RowStateContext = createContext<RowStateStore | null>(null);

/**
 * Holds the state of a list's row actions (which dialog or drawer a row has open) at the screen, not in the row: the
 * row's actions are drawn in a table cell on a desktop and in a card on a phone, so turning a tablet or narrowing the
 * window draws them anew, and a push's progress or a role's permissions open there would otherwise close.
 */
export function RowStateProvider({ children }: { children: ReactNode }) {
  const [values, setValues] = useState<Readonly<Record<string, unknown>>>({});
  const set = useCallback((key: string, value: unknown) => setValues((current) => ({ ...current, [key]: value })), []);
  const store = useMemo(() => ({ values, set }), [values, set]);
  return <RowStateContext.Provider value={store}>{children}</RowStateContext.Provider>;
}

/** A row action's state (`name`: which one of the row's), kept by the screen's RowStateProvider; outside one, by the action. */
export function useRowState<T>(rowId: string, name: string, initial: T): [T, (value: T) => void] {
  const store = useContext(RowStateContext);
  const [own, setOwn] = useState<T>(initial);
  const key = `${rowId}\u0000${name}`;
  const setShared = useCallback((value: T) => store?.set(key, value), [store, key]);
  if (!store) return [own, setOwn];
  return [Object.hasOwn(store.values, key) ? (store.values[key] as T) : initial, setShared];
}

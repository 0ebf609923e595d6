export { STORAGE_PREFIX, StorageKey, getStored, removeStored, setStored } from './local-store.ts';

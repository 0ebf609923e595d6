export { StorageEntityScreen } from './storage-screen.tsx';

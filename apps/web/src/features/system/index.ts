export { SystemEntityScreen } from './entity-screen.tsx';
export { systemExtensions } from './extensions.tsx';

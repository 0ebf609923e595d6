// Every screen declaration, a chunk of its own: loaded with the first declared screen opened (app/page-registry.tsx),
// not by the frame, which knows the declared screens by name (app/declared-screen-list.ts).
export { entityDeclarations } from '@isps/contract';

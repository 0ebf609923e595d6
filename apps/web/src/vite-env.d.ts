/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** base of every API call; '/api' when unset */
  readonly VITE_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** The entity labels of one language, made from the contract's by vite.config.ts (entityLabelsByLanguage). */
declare module 'virtual:isps-entity-labels/*' {
  const labels: Record<string, string>;
  export default labels;
}

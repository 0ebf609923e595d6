/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** base of every API call; '/api' when unset */
  readonly VITE_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from '../../scripts/precompress.mjs';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), precompress()],
  test: { setupFiles: [`${import.meta.dirname}/src/test-setup.ts`] },
  server: {
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: true, ws: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // Libraries get long-cached chunks of their own; pages stay lazy chunks loaded by route.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 30 },
            { name: 'antd', test: /node_modules[\\/](antd|@rc-component|rc-[\w-]+|@ant-design[\\/](cssinjs|cssinjs-utils|colors|fast-color|react-slick))[\\/]/, priority: 20 },
            { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next|dayjs)[\\/]/, priority: 15 },
            { name: 'data', test: /node_modules[\\/](@tanstack|zustand)[\\/]/, priority: 15 },
          ],
        },
      },
    },
  },
});

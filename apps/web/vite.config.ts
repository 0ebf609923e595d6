import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Heavy libraries get their own long-cached chunks; pages are lazy chunks of their own.
const vendorChunks: Record<string, RegExp> = {
  react: /node_modules\/(react|react-dom|scheduler|react-router)\//,
  antd: /node_modules\/(antd|@rc-component|rc-[a-z-]+|@ant-design\/(cssinjs|cssinjs-utils|colors|fast-color|react-slick))\//,
  'ant-icons': /node_modules\/@ant-design\/(icons|icons-svg)\//,
  'pro-components': /node_modules\/@ant-design\/pro-components\//,
  i18n: /node_modules\/(i18next|react-i18next|dayjs)\//,
  query: /node_modules\/(@tanstack|zustand)\//,
};

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  server: {
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: true, ws: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        manualChunks(id: string) {
          for (const [name, pattern] of Object.entries(vendorChunks)) if (pattern.test(id)) return name;
          return undefined;
        },
      },
    },
  },
});

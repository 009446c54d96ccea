import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  root: resolve(__dirname),
  plugins: [react()],
  build: {
    outDir: resolve(__dirname, 'dist'),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': {
        target: apiTarget,
        changeOrigin: true,
        // The API refuses cross-origin writes; through the proxy the browser's origin is the dev server's.
        configure: (proxy) => proxy.on('proxyReq', (request) => request.setHeader('origin', apiTarget)),
      },
      '/api-documentation': { target: apiTarget, changeOrigin: true },
    },
  },
});

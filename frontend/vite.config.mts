import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  root: resolve(import.meta.dirname),
  // Warnings and errors only: the file-by-file listing (each file three times with its .br and .gz
  // copies) buried them.
  logLevel: 'warn',
  plugins: [
    react(),
    // Brotli and gzip copies beside each file, for the server to send as the browser accepts.
    compression({
      algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
    }),
  ],
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    // Source maps show the whole source to anyone: built only when asked for (BUILD_SOURCEMAPS=true).
    sourcemap: process.env.BUILD_SOURCEMAPS === 'true',
    chunkSizeWarningLimit: 1500,
    // Sizes are not listed at this log level; computing their gzip size would only cost time.
    reportCompressedSize: false,
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

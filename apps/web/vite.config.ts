import { fileURLToPath, URL } from 'node:url';
import zlib from 'node:zlib';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // Every text asset also as .br (best quality: compressed once, at build) and .gz; the API
    // serves the twin the browser accepts (decision 0018).
    compression({
      threshold: 1024,
      algorithms: [
        defineAlgorithm('brotliCompress', {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
        }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      logLevel: 'silent',
    }),
  ],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  define: {
    // Busts the browser cache of /locales/*.json after each deployment.
    __BUILD_ID__: JSON.stringify(Date.now().toString(36)),
  },
  server: {
    // `npm run dev -w apps/api` serves the API on 3000 by default (DESIGN 5).
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks a route loads, for the first-load budget
    // (src/first-load.test.ts). Not served (a dot directory).
    manifest: true,
    rollupOptions: {
      output: {
        // React and the router change far less often than the app: a chunk of their own stays
        // cached across deployments.
        manualChunks: (id) =>
          /node_modules\/(react|react-dom|react-router|scheduler)\//.test(id) ? 'react' : undefined,
      },
    },
  },
});

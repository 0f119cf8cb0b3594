import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
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

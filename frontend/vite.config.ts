import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The build lands in dist/, which main.go embeds (`//go:embed all:frontend/dist`
// needs the directory to exist, so dist/.gitkeep is committed). emptyOutDir
// deletes it with the old build; this puts it back so a build leaves git clean.
function keepDistGitkeep(): Plugin {
  return {
    name: 'ferry-keep-dist-gitkeep',
    apply: 'build',
    closeBundle() {
      writeFileSync(resolve(import.meta.dirname, 'dist/.gitkeep'), '');
    },
  };
}

export default defineConfig({
  plugins: [svelte(), keepDistGitkeep()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Ferry runs from disk inside WebKitGTK: one small bundle, no CDN, no
    // source maps shipped.
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: { strictPort: true },
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    environment: 'node',
  },
});

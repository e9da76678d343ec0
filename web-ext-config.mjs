// Why JavaScript: web-ext reads its configuration from a JS module (web-ext 10 takes only .mjs/.cjs).
// Run web-ext from the repository root, after scripts/build-extension.sh: it works on the built
// extension in dist/extension, never on extension/ (which has no WASM).
//   npx web-ext lint        npx web-ext run -t chromium        npx web-ext run -t firefox-desktop
export default {
  sourceDir: 'dist/extension',
  artifactsDir: 'dist/web-ext-artifacts',
  // The build copies only what ships; these never should.
  ignoreFiles: ['**/*.py', '**/__pycache__/**', '**/*.map'],
  run: {
    firefox: '/usr/bin/firefox-esr',
    chromiumBinary: '/usr/bin/chromium',
  },
  build: {
    overwriteDest: true,
  },
};

// ESLint for web/, e2e/ and scripts/ (run from the repository root: npm run lint).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/pkg/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'e2e/artifacts/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['web/**/*.{ts,tsx}', 'e2e/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // The plot controller mirrors props into a ref on purpose (read by an effect).
      'react-hooks/refs': 'off',
      'react-hooks/set-state-in-effect': 'off',
    },
  },
  {
    files: ['scripts/**/*.mjs', 'web/eslint.config.js', 'web/vite.config.ts', 'e2e/playwright.config.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The benchmark passes functions to page.evaluate: they run in the browser.
    files: ['scripts/bench.mjs', 'scripts/profile-step.mjs', 'scripts/key-repeat.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);

// One lint setup for the whole monorepo.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

// The API's source and the architecture test's broken copy of it (linted only by that test).
const API_TREES = 'apps/api/{src,test/fixtures/architecture/src}';
const DOOR_MESSAGE =
  'Import another module through its door, modules/<module>/index.ts (decision 0075).';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/data/**',
      '**/coverage/**',
      '**/test-results/**',
      'apps/api/test/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='only']", message: 'No focused tests.' },
        { selector: "CallExpression[callee.property.name='skip']", message: 'No skipped tests.' },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Every form speaks through the one resolver and its error map (decision 0026); the API's
    // generated client is types only in the web.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/form-resolver.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@hookform/resolvers/zod',
              message: 'Use formResolver from @/lib/form-resolver (one error map, decision 0026).',
            },
            {
              name: '@app/client',
              allowTypeImports: true,
              message:
                'The web takes the generated paths as types only (`import type`): call `api`.',
            },
          ],
        },
      ],
    },
  },
  {
    // Only config/ reads the environment (STYLE 7).
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/config/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration from config/.' },
      ],
    },
  },
  // One door per module (decision 0075): another module, app.ts, plugins, seed, scripts and tests
  // outside a module import it only through `modules/<m>/index.ts`; a module's own files and tests
  // import each other directly. The same rules run on the broken fixture in architecture.test.ts.
  {
    files: [`${API_TREES}/modules/*/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./[^./][^/]*/.', message: DOOR_MESSAGE }] },
      ],
    },
  },
  {
    files: [`${API_TREES}/**/*.ts`, 'apps/api/{test,scripts}/**/*.ts'],
    ignores: [`${API_TREES}/modules/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)modules/[^/]+/.', message: DOOR_MESSAGE }] },
      ],
    },
  },
  {
    // The auth plugin is handed iam's session functions by app.ts; only the terminal-key plugin
    // reaches a module, the terminals', through its door.
    files: [`${API_TREES}/plugins/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)modules/(?!terminals$)',
              message: 'A plugin imports no module but the terminals (through its door).',
            },
          ],
        },
      ],
    },
  },
  prettier,
);

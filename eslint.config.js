import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import i18next from 'eslint-plugin-i18next';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-*/**',
      '**/node_modules/**',
      'drizzle/**',
      'data/**',
      'screenshots/**',
      '.turbo/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // CommonJS where a tool requires it (Dredd's hook files).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Features never import each other: shared code goes down into components/lib.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/*', '@/features/*'],
              message: 'Features never import each other; move shared code to src/components or src/lib.',
            },
          ],
        },
      ],
    },
  },
  {
    // Every word a member reads comes from the catalogs (src/locales, docs/translations.md): text in
    // JSX and the attributes a member reads or hears. The QA panel is the testers' tool, in English.
    files: ['apps/web/src/**/*.tsx'],
    ignores: ['apps/web/src/**/*.test.tsx', 'apps/web/src/testing/**', 'apps/web/src/features/qa-panel/**'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': {
            include: [
              'aria-label',
              'aria-description',
              'aria-valuetext',
              'title',
              'alt',
              'placeholder',
              'label',
              'heading',
              'description',
              'helperText',
              'errorText',
              'what',
              'ariaLabel',
              'emptyText',
              'hint',
              'text',
              'message',
              'confirmLabel',
              'content',
            ],
          },
          words: {
            exclude: [
              '[0-9!-/:-@[-`{-~]+',
              '[A-Z_-]+',
              '^\\p{Emoji}+$',
              'USDT',
              'BEP20',
              'P2P',
              'TOTP',
              'OTP',
              'ID',
            ],
          },
        },
      ],
    },
  },
);

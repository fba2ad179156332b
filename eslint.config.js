// Lint rules for every package: the recommended JS and TypeScript sets, plus the few rules this SDK relies on.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'docs/api/**', '**/.turbo/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // The SDK never prints: it reports through events and hooks.
      'no-console': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // One private-member style: ECMAScript `#private`, never TypeScript's `private` keyword.
      'no-restricted-syntax': [
        'error',
        { selector: "PropertyDefinition[accessibility='private']", message: 'Use a #private field instead of `private`.' },
        {
          selector: "MethodDefinition[accessibility='private'][kind!='constructor']",
          message: 'Use a #private method instead of `private`.',
        },
        { selector: 'TSParameterProperty', message: 'Declare the field (#private) and assign it in the constructor.' },
      ],
    },
  },
  {
    // Tests, fixtures, examples, benchmarks and the CLI are programs: they may print.
    files: ['**/*.test.ts', 'packages/fixtures/**', 'packages/cli/**', 'examples/**', 'packages/bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
);

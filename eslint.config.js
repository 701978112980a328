// Type-aware lint for the mistakes tests cannot see: a write whose promise nobody awaits passes
// every test against a fast DynamoDB Local and is lost in Lambda when the handler returns first.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.data/', '.dynamodb-local/', 'coverage/', 'reports/', '.stryker-tmp/', '.bench-bundles/', '.bundle-test-*/', '.bench-tmp/'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
);

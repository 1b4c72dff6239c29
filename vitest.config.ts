import { defineConfig } from 'vitest/config'

// Unit stage (`pnpm test`): needs only Node. Tests live beside the code as `*.test.ts`; those that need Java,
// Maven, Python or a real registry are `*.integration.test.ts` and run in `pnpm test:integration`.
export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'examples/*/src/**/*.test.ts',
      'scripts/**/*.test.ts',
      'bench/src/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**', '**/*.integration.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
})

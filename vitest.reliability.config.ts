import { defineConfig } from 'vitest/config'

// Reliability stage (`pnpm test:reliability`, short form in CI; `pnpm test:reliability:long` for the full counts,
// which also rewrites the figures of RELIABILITY.md): fuzzing, fault injection, secret scans and a soak, in forked
// workers with `--expose-gc` so heap figures are measured after a full collection. One file at a time, so timings
// and heap figures are not disturbed by another file.
export default defineConfig({
  test: {
    include: ['reliability/src/**/*.reliability.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    pool: 'forks',
    execArgv: ['--expose-gc'],
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 60_000,
    globalSetup: ['./reliability/src/support/report.ts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
})

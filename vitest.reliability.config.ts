import { defineConfig } from 'vitest/config'

// Reliability stage (`pnpm test:reliability`, short form in CI; `pnpm test:reliability:long` for the full counts,
// which also rewrites the figures of RELIABILITY.md): fuzzing, fault injection, secret scans and a soak, in forked
// workers with `--expose-gc` so heap figures are measured after a full collection. One file at a time, so timings
// and heap figures are not disturbed by another file.
//
// `--no-compilation-cache`: V8 keeps every `new Function` source it compiles in a hash table of its own (its eval cache),
// dropping entries only after several full collections, and avsc compiles a few such functions per distinct schema
// (their source names the record). That table is bounded and emptied under memory pressure, but its size follows V8's
// collection pacing in steps of a power of two, so with it a heap figure after many distinct schemas measures V8's
// pacing instead of what the library retains.
export default defineConfig({
  test: {
    include: ['reliability/src/**/*.reliability.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    pool: 'forks',
    execArgv: ['--expose-gc', '--no-compilation-cache'],
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 60_000,
    globalSetup: ['./reliability/src/support/report.ts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
})

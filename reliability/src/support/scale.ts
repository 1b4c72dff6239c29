import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isSerdeError } from '@x/errors'

/**
 * How big a run is: `short` (CI, the default: every check, smaller counts) or `long` (`RELIABILITY_SCALE=long`, the
 * counts the promises in RELIABILITY.md are measured with). Counts can also be set one by one (`RELIABILITY_FUZZ_DECODE`
 * and so on) to reproduce a finding.
 */
export const SCALE: 'short' | 'long' = process.env.RELIABILITY_SCALE === 'long' ? 'long' : 'short'

const COUNTS = {
  fuzzDecode: { short: 12_000, long: 120_000 },
  fuzzEncode: { short: 3_000, long: 24_000 },
  fuzzOtherFormats: { short: 3_000, long: 30_000 },
  soakRoundTrips: { short: 100_000, long: 1_000_000 },
  soakArtifacts: { short: 10_000, long: 100_000 },
  concurrentColdCalls: { short: 10_000, long: 10_000 },
  // hostile input, per entry point (each serializer and deserializer, sync and async, the adapters, the wire format,
  // the rules engine, the compatibility checks, InMemoryRegistry's routes, the CLI)
  hostileSerdes: { short: 200, long: 100_000 },
  hostileRules: { short: 150, long: 100_000 },
  hostileSchemas: { short: 150, long: 100_000 },
  hostileRegistry: { short: 150, long: 100_000 },
  hostileCli: { short: 60, long: 100_000 },
} as const

export type CountName = keyof typeof COUNTS

/** The count of `name` for this run (an env override `RELIABILITY_<NAME>` wins). */
export function count(name: CountName): number {
  const override = process.env[`RELIABILITY_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`]
  if (override !== undefined && /^\d+$/.test(override)) return Number(override)
  return COUNTS[name][SCALE]
}

const here = dirname(fileURLToPath(import.meta.url))
/** Where each file writes its figures for the report (read by report.ts when the run ends). */
export const FIGURES_DIR = join(here, '..', '..', '.figures')

/** Records a figure of this run (`fuzz.decode.inputs` → `120000`), for RELIABILITY.md. */
export function recordFigures(file: string, figures: Record<string, string | number>): void {
  mkdirSync(FIGURES_DIR, { recursive: true })
  writeFileSync(join(FIGURES_DIR, `${file}.json`), `${JSON.stringify({ scale: SCALE, figures }, null, 2)}\n`)
}

/**
 * Whether an error is one the library may throw for bad input: one of its own error classes, or a `TypeError` /
 * `RangeError` carrying one of its codes. Anything else (a bare `TypeError` from deep inside a library, an
 * `Error`) is a bug the suite reports.
 */
export function isLibraryError(error: unknown): boolean {
  if (isSerdeError(error)) return true
  if (!(error instanceof TypeError || error instanceof RangeError)) return false
  const code = (error as { code?: unknown }).code
  return code === 'INVALID_DATA' || code === 'INVALID_CONFIG' || code === 'ID_OUT_OF_RANGE'
}

/** A description of an error for an assertion message: class, code, message. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return `a thrown ${typeof error}`
  return `${error.name} ${(error as { code?: unknown }).code ?? '(no code)'}: ${error.message.slice(0, 200)}`
}

/**
 * The heap in use after full collections (the stage runs with --expose-gc) with turns of the event loop between
 * them: a `WeakRef` target stays alive until the current job ends, and finalizers run in later turns, so a
 * measurement taken inside one long chain of awaits counts memory that a real consumer (whose reads turn the event
 * loop) never keeps.
 */
export async function heapAfterGc(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) throw new Error('run with --expose-gc (vitest.reliability.config.ts sets it)')
  for (let i = 0; i < 4; i++) {
    gc()
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return process.memoryUsage().heapUsed
}

/** One turn of the event loop, as a consumer's next network read gives. */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

export const MB = 1024 * 1024

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import type { E2eRun } from './report.js'

const RESULTS = new URL('../../results/', import.meta.url)
/** The end-to-end bench runs on Node 24 only (Platformatic 2.x needs 22+): one file. */
export const E2E_FILE = 'e2e-node-24.json'

export function saveE2e(run: E2eRun): void {
  mkdirSync(RESULTS, { recursive: true })
  writeFileSync(new URL(E2E_FILE, RESULTS), `${JSON.stringify(run, null, 2)}\n`)
}

export function loadE2e(): E2eRun | undefined {
  const file = new URL(E2E_FILE, RESULTS)
  if (!existsSync(file)) return undefined
  return JSON.parse(readFileSync(file, 'utf8')) as E2eRun
}

import { readFileSync, writeFileSync } from 'node:fs'
import { renderChart } from '../chart.js'
import { loadRuns } from '../node-runs.js'
import type { E2eRun } from './report.js'
import { renderE2eSection, replaceE2eSection } from './section.js'

const BENCHMARKS = new URL('../../../BENCHMARKS.md', import.meta.url)
const CHART = new URL('../../chart.svg', import.meta.url)

/**
 * After a full end-to-end run: its section of BENCHMARKS.md rewritten, and the chart drawn again with its bars beside
 * the warm ones of the newest saved `pnpm bench` run.
 */
export function writeE2eOutputs(run: E2eRun): void {
  writeFileSync(BENCHMARKS, replaceE2eSection(readFileSync(BENCHMARKS, 'utf8'), renderE2eSection(run)))
  const newest = loadRuns()
    .sort((a, b) => a.when.localeCompare(b.when))
    .at(-1)
  const rows = newest?.rows ?? []
  const subtitle = newest === undefined ? 'no warm run saved' : `warm: Node ${newest.node}, ${newest.when}`
  writeFileSync(CHART, renderChart(rows, subtitle, run))
}

import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// Global setup of the reliability stage: empties the figures folder before the run and, after it, prints the
// figures; a long run (RELIABILITY_SCALE=long) also writes them into RELIABILITY.md between its figure markers, so the
// document always quotes the last full run, never hand-written numbers.

const here = dirname(fileURLToPath(import.meta.url))
const figuresDir = join(here, '..', '..', '.figures')
const document = join(here, '..', '..', '..', 'RELIABILITY.md')
const START = '<!-- figures:start (written by pnpm test:reliability:long) -->'
const END = '<!-- figures:end -->'

interface FigureFile {
  scale: 'short' | 'long'
  figures: Record<string, string | number>
}

export default function setup(): () => void {
  rmSync(figuresDir, { recursive: true, force: true })
  return () => {
    if (!existsSync(figuresDir)) return
    const files = readdirSync(figuresDir)
      .filter((name) => name.endsWith('.json'))
      .sort()
    const sections = files.map((name) => {
      const { scale, figures } = JSON.parse(readFileSync(join(figuresDir, name), 'utf8')) as FigureFile
      return { name: name.replace(/\.json$/, ''), scale, figures }
    })
    const lines: string[] = []
    for (const { name, figures } of sections) {
      lines.push(`| **${name}** | |`)
      for (const [key, value] of Object.entries(figures)) lines.push(`| ${key} | ${formatValue(value)} |`)
    }
    const table = ['| figure | value |', '| --- | --- |', ...lines].join('\n')
    process.stdout.write(`\nreliability figures (${sections[0]?.scale ?? 'short'} run):\n${table}\n`)
    // every suite, each at the long scale: a long run of one file (to reproduce a finding) leaves the page alone
    const suites = readdirSync(join(here, '..'))
      .filter((name) => name.endsWith('.reliability.test.ts'))
      .map((name) => name.replace(/\.reliability\.test\.ts$/, ''))
    const long =
      suites.every((suite) => sections.some((section) => section.name === suite)) &&
      sections.every((section) => section.scale === 'long')
    if (!long || !existsSync(document)) return
    const text = readFileSync(document, 'utf8')
    const start = text.indexOf(START)
    const end = text.indexOf(END)
    if (start < 0 || end < start) return
    const stamp = `Measured on ${new Date().toISOString().slice(0, 10)} with Node ${process.version} on ${process.platform}/${process.arch} (${files.length} suites, RELIABILITY_SCALE=long).`
    const body = `${START}\n${stamp}\n\n${table}\n${END}`
    writeFileSync(document, `${text.slice(0, start)}${body}${text.slice(end + END.length)}`)
  }
}

function formatValue(value: string | number): string {
  return typeof value === 'number' ? value.toLocaleString('en-US') : value
}

// prepare.mjs: writes what the site takes from the repository when it is built, so that nothing is copied by hand.
// - generated/*.md: the figures of BENCHMARKS.md and RELIABILITY.md (as the bench and reliability runs wrote them),
//   section by section, and public/generated/chart.svg (bench/chart.svg); links into the repository become names.
// - public/reference/: the API reference, TypeDoc's HTML (the repository's typedoc.json, warnings as errors), and
//   api.md: one page listing every package and every name it exports, linked into that reference (what the site's
//   search finds an API name by).
// `--reuse-reference` keeps an API reference already built (for `docs:dev`).
import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const site = join(dirname(fileURLToPath(import.meta.url)), '..')
const root = join(site, '..', '..')
const generated = join(site, 'generated')
const reference = join(site, 'public', 'reference')
mkdirSync(generated, { recursive: true })
mkdirSync(join(site, 'public', 'generated'), { recursive: true })

/** The lines after the heading matching `start` up to (not including) the first line matching `end`. */
export function section(text, start, end, file) {
  const lines = text.split('\n')
  const from = lines.findIndex((l) => start.test(l))
  if (from < 0) throw new Error(`${file}: no line matches ${start}: the site's figures cannot be generated`)
  const to = lines.findIndex((l, i) => i > from && end.test(l))
  return lines
    .slice(from + 1, to < 0 ? undefined : to)
    .join('\n')
    .trim()
}

/** Links into the repository become the file's name; links to anchors of the same file become their text. */
export function unlink(markdown) {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)\n*/g, '')
    .replace(/\[([^\]]+)\]\((?!https?:)([^)\s]+)\)/g, (_, label, target) =>
      target.startsWith('#') || label.includes('`') ? label : `${label} (\`${target}\`)`,
    )
    .replace(/^###/gm, '####')
}

function write(name, markdown) {
  writeFileSync(join(generated, name), `${unlink(markdown)}\n`)
}

const benchmarks = readFileSync(join(root, 'BENCHMARKS.md'), 'utf8')
const reliability = readFileSync(join(root, 'RELIABILITY.md'), 'utf8')
write('bench-run.md', section(benchmarks, /^!\[/, /^## /, 'BENCHMARKS.md'))
write('bench-summary.md', section(benchmarks, /^## Summary$/, /^## /, 'BENCHMARKS.md'))
write('bench-nodes.md', section(benchmarks, /^## Node 20, 22 and 24 side by side$/, /^## /, 'BENCHMARKS.md'))
write(
  'bench-compatibility.md',
  section(benchmarks, /^### Offline compatibility/, /^#{2,3} /, 'BENCHMARKS.md'),
)
write('bench-start-up.md', section(benchmarks, /^### Start-up/, /^(## |<!-- e2e)/, 'BENCHMARKS.md'))
write(
  'bench-e2e.md',
  section(benchmarks, /^## End to end through a real broker$/, /^### Method/, 'BENCHMARKS.md'),
)
write('reliability-promises.md', section(reliability, /^## Promises$/, /^## /, 'RELIABILITY.md'))
write(
  'reliability-figures.md',
  section(reliability, /^<!-- figures:start/, /^<!-- figures:end/, 'RELIABILITY.md'),
)
copyFileSync(join(root, 'bench', 'chart.svg'), join(site, 'public', 'generated', 'chart.svg'))

if (!(process.argv.includes('--reuse-reference') && existsSync(join(reference, 'index.html')))) {
  rmSync(reference, { recursive: true, force: true })
  const typedoc = join(root, 'node_modules', '.bin', 'typedoc')
  execFileSync(typedoc, ['--logLevel', 'Warn', '--out', reference], { cwd: root, stdio: 'inherit' })
}

// TypeDoc names its pages <kind>/_x_<package>[.<subpath>].<Name>.html and modules/_x_<package>[.<subpath>].html.
const KINDS = {
  classes: 'class',
  interfaces: 'interface',
  functions: 'function',
  types: 'type',
  variables: 'variable',
  enums: 'enum',
}
const packages = new Map()
const packageOf = (stem) => `@x/${stem.slice(3).split('.')[0]}`
for (const file of readdirSync(join(reference, 'modules'))) {
  const stem = file.replace(/\.html$/, '')
  if (!stem.includes('.')) packages.set(packageOf(stem), { page: `modules/${file}`, names: [] })
}
for (const [dir, kind] of Object.entries(KINDS)) {
  if (!existsSync(join(reference, dir))) continue
  for (const file of readdirSync(join(reference, dir)).sort()) {
    const stem = file.replace(/\.html$/, '')
    const name = stem.slice(stem.lastIndexOf('.') + 1)
    packages.get(packageOf(stem))?.names.push({ name, kind, page: `${dir}/${file}` })
  }
}
const lines = [
  '# API reference',
  '',
  'Every package and every name it exports, from the JSDoc of the sources (TypeDoc). Each name links to its page of',
  "the full reference, which also holds each package's README.",
  '',
]
for (const [name, { page, names }] of [...packages].sort(([a], [b]) => a.localeCompare(b))) {
  lines.push(`## ${name}`, '', `<a href="/reference/${page}" target="_self">${name} in the reference</a>`, '')
  for (const entry of names) {
    lines.push(
      `- <a href="/reference/${entry.page}" target="_self"><code>${entry.name}</code></a> (${entry.kind})`,
    )
  }
  lines.push('')
}
writeFileSync(join(site, 'api.md'), lines.join('\n'))
console.log(`prepared: figures from BENCHMARKS.md and RELIABILITY.md, ${packages.size} packages in api.md`)

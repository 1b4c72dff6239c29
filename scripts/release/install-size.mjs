#!/usr/bin/env node
// The install-size table: what an application gets from the registry for each package a user installs (every
// package of the tree and its size on disk), measured by the registry stage (scripts/release/registry-stage.sh) in
// clean applications installed with npm on Node 20 from its Verdaccio, never copied by hand.
//
//   node install-size.mjs write SIZES_DIR   the stage: renders the table from SIZES_DIR/<row>.json (tree.mjs --json)
//                                           into docs/install-size.md and the marked block of README.md
//   node install-size.mjs check             CI: the README block is exactly the table of docs/install-size.md
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const TABLE_FILE = join(root, 'docs', 'install-size.md')
export const README = join(root, 'README.md')
export const BEGIN =
  '<!-- install-size: written by scripts/release/registry-stage.sh (docs/install-size.md); do not edit -->'
export const END = '<!-- /install-size -->'

/** The rows, in order: the measurement's file name in SIZES_DIR and what was installed. */
export const ROWS = [
  { id: 'wire-format', installed: '`npm install @x/wire-format`' },
  { id: 'registry-client', installed: '`npm install @x/registry-client`' },
  { id: 'serde-production', installed: '`npm install --omit=dev @x/serde`' },
  { id: 'serde-testing', installed: '`npm install @x/serde` + `-D @x/registry-testing`' },
  { id: 'cli', installed: '`npm install -D @x/cli`' },
]

/** The format libraries and Kafka clients a tree may hold, as the table names them. */
const HEAVY = [
  'avsc',
  'ajv',
  'protobufjs',
  'kafkajs',
  '@confluentinc/kafka-javascript',
  '@platformatic/kafka',
]

function size(bytes) {
  return bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}

/** The table (markdown, ending in a newline) of the measurements `sizes` (row id → `{ packages, bytes }`). */
export function renderTable(sizes) {
  const lines = [
    '| installed | packages in the tree | on disk | format libraries and Kafka client in the tree |',
    '| --- | ---: | ---: | --- |',
  ]
  for (const row of ROWS) {
    const measured = sizes.get(row.id)
    if (measured === undefined) throw new Error(`no measurement for ${row.id}`)
    const names = new Set(measured.packages.map((id) => id.slice(0, id.lastIndexOf('@'))))
    const heavy = HEAVY.filter((name) => names.has(name))
    lines.push(
      `| ${row.installed} | ${measured.packages.length} | ${size(measured.bytes)} | ${heavy.length === 0 ? 'none' : heavy.join(', ')} |`,
    )
  }
  return `${lines.join('\n')}\n`
}

/** `text` with the block between BEGIN and END replaced by `table`; `undefined` when it has no such block. */
export function withBlock(text, table) {
  const begin = text.indexOf(BEGIN)
  const end = text.indexOf(END, begin)
  if (begin < 0 || end < 0) return undefined
  return `${text.slice(0, begin)}${BEGIN}\n${table}${text.slice(end)}`
}

/** The table of docs/install-size.md (the lines of its table, from the first `|`). */
function committedTable() {
  const text = readFileSync(TABLE_FILE, 'utf8')
  return `${text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .join('\n')}\n`
}

function write(sizesDir) {
  const sizes = new Map(
    ROWS.map((row) => [row.id, JSON.parse(readFileSync(join(sizesDir, `${row.id}.json`), 'utf8'))]),
  )
  const table = renderTable(sizes)
  const before = existsSync(TABLE_FILE) ? readFileSync(TABLE_FILE, 'utf8') : ''
  const file = [
    '# Install size',
    '',
    'What an application gets from the registry for each package installed: every package of the tree and its',
    'size on disk. Written by the registry stage (`scripts/release/registry-stage.sh`) from clean applications that',
    "install the release from the stage's registry with npm on Node 20; not edited by hand.",
    '',
    table,
  ].join('\n')
  mkdirSync(dirname(TABLE_FILE), { recursive: true })
  writeFileSync(TABLE_FILE, file)
  const readme = readFileSync(README, 'utf8')
  const updated = withBlock(readme, table)
  if (updated !== undefined) writeFileSync(README, updated)
  process.stdout.write(table)
  console.log(
    before === file
      ? 'install-size table: unchanged'
      : 'install-size table: changed (commit docs/install-size.md and README.md)',
  )
}

/** Whether README.md's block (when it has one) is the table of docs/install-size.md, with a line saying so. */
export function checkReadme() {
  if (!existsSync(TABLE_FILE))
    return { ok: false, message: 'install-size: no docs/install-size.md (the registry stage writes it)' }
  const table = committedTable()
  const readme = readFileSync(README, 'utf8')
  const expected = withBlock(readme, table)
  if (expected === undefined)
    return { ok: true, message: 'install-size: README.md has no table block to compare' }
  if (expected !== readme)
    return {
      ok: false,
      message:
        'install-size: the README.md block differs from docs/install-size.md (the registry stage writes both)',
    }
  return { ok: true, message: 'install-size: the README.md block is the table of docs/install-size.md' }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, sizesDir] = process.argv.slice(2)
  if (command === 'write' && sizesDir !== undefined) write(sizesDir)
  else if (command === 'check') {
    const { ok, message } = checkReadme()
    console.log(message)
    process.exitCode = ok ? 0 : 1
  } else {
    console.error('usage: node install-size.mjs write SIZES_DIR | check')
    process.exitCode = 2
  }
}

#!/usr/bin/env node
// Generates the differential cases (existing versions, proposed version, level) by mutation and records the verdict
// of a real Apicurio Registry 3 for each, into cases/<format>.json:
//
//   node packages/compatibility/differential/generate.mjs --registry http://127.0.0.1:8080/apis/registry/v3 [--format AVRO]
//
// Every case goes into a group `compat-diff-<run>` of its own run; only artifact-level COMPATIBILITY rules are set.
// Schema texts are stored once in `schemas` and named by their index. A case the registry would not even let us
// set up (an existing version it refuses) is left out and counted.
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { avroCases } from './avro-cases.mjs'
import { jsonCases } from './json-cases.mjs'
import { protobufCases } from './protobuf-cases.mjs'
import { askRegistry } from './registry.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
const option = (name) => {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : undefined
}
const url = option('--registry')?.replace(/\/+$/, '')
if (url === undefined) {
  console.error('usage: generate.mjs --registry <v3 url> [--format AVRO|JSON|PROTOBUF]')
  process.exit(2)
}
const only = option('--format')
const run = `compat-diff-${Date.now().toString(36)}`
const version = (await (await fetch(`${url}/system/info`)).json()).version

const generators = { AVRO: avroCases, JSON: jsonCases, PROTOBUF: protobufCases }
for (const [format, generate] of Object.entries(generators)) {
  if (only !== undefined && only !== format) continue
  const cases = generate()
  const ids = new Set()
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`duplicate case id ${c.id}`)
    ids.add(c.id)
  }
  const schemas = []
  const indexOf = new Map()
  const intern = (text) => {
    if (!indexOf.has(text)) {
      indexOf.set(text, schemas.length)
      schemas.push(text)
    }
    return indexOf.get(text)
  }
  const recorded = []
  let skipped = 0
  let next = 0
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++]
      try {
        const verdict = await askRegistry(url, run, c, `a${String(cases.indexOf(c))}`)
        recorded.push({ c, verdict })
      } catch (error) {
        skipped++
        console.error(`${c.id}: ${error.message}`)
      }
    }
  }
  await Promise.all([worker(), worker(), worker()])
  recorded.sort((a, b) => cases.indexOf(a.c) - cases.indexOf(b.c))
  const out = recorded.map(({ c, verdict }) => ({
    id: c.id,
    level: c.level,
    mutation: c.mutation,
    existing: c.existing.map(intern),
    proposed: intern(c.proposed),
    ...(c.references === undefined
      ? {}
      : { references: Object.fromEntries(Object.entries(c.references).map(([n, t]) => [n, intern(t)])) }),
    registry: verdict,
  }))
  const file = join(here, 'cases', `${format.toLowerCase()}.json`)
  writeFileSync(
    file,
    `${JSON.stringify({ format, registry: `Apicurio Registry ${version}`, schemas, cases: out }, null, 1)}\n`,
  )
  const refused = out.filter((c) => !c.registry.compatible).length
  console.log(
    `${format}: ${out.length} cases (${refused} refused by the registry), ${skipped} left out -> ${file}`,
  )
}

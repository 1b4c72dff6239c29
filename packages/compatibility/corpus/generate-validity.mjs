// Records the answer of a real Apicurio Registry 3 to each VALIDITY case of validity-cases.mjs:
//
//   X_SERDE_TEST_REGISTRY_URL=http://127.0.0.1:18080/apis/registry/v3 node generate-validity.mjs
//
// writes validity-registry-verdicts.json beside this file. Artifacts go to the group `<prefix>-validity` (prefix from
// X_SERDE_CORPUS_GROUP_PREFIX, default `compat-formats`); only artifact-level rules are set.

import { writeFile } from 'node:fs/promises'
import { validityVerdictOf } from './registry-verdicts.mjs'
import { VALIDITY_CASES } from './validity-cases.mjs'

const base = process.env.X_SERDE_TEST_REGISTRY_URL
if (base === undefined) {
  console.error('set X_SERDE_TEST_REGISTRY_URL to the registry, e.g. http://127.0.0.1:18080/apis/registry/v3')
  process.exit(2)
}
const group = `${process.env.X_SERDE_CORPUS_GROUP_PREFIX ?? 'compat-formats'}-validity`
const nonce = Date.now().toString(36)
const cache = new Map()
const cases = []
for (const testCase of VALIDITY_CASES) {
  const registry = await validityVerdictOf(base, group, testCase, cache, nonce)
  if (registry.setupFailed !== undefined) throw new Error(`${testCase.id}: ${registry.setupFailed}`)
  cases.push({ ...testCase, registry })
}
const info = await (await fetch(`${base}/system/info`)).json()
const out = { registry: `Apicurio Registry ${info.version}`, recordedAt: new Date().toISOString(), cases }
await writeFile(
  new URL('validity-registry-verdicts.json', import.meta.url),
  `${JSON.stringify(out, null, 1)}\n`,
)
const refused = cases.filter((item) => item.registry.status !== 200).length
console.log(`${cases.length} cases, ${refused} refused`)

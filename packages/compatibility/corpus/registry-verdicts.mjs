// Asks a real Apicurio Registry 3 for the verdict of each generated case: the existing versions are registered with
// no rule, the artifact's COMPATIBILITY rule is set to the case's level, and the proposed version is sent with
// dryRun=true. Only artifact-level rules are touched; every group name starts with the prefix given.

import { createHash } from 'node:crypto'

const CONTENT_TYPES = {
  AVRO: 'application/json',
  JSON: 'application/json',
  PROTOBUF: 'application/x-protobuf',
}

/** A first version of each format that every VALIDITY level accepts. */
const VALID = {
  AVRO: '"string"',
  JSON: '{"type":"object"}',
  PROTOBUF: 'syntax = "proto3";\nmessage Valid { string a = 1; }\n',
}

async function call(base, method, path, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  let json
  try {
    json = text === '' ? undefined : JSON.parse(text)
  } catch {
    json = text
  }
  return { status: response.status, json }
}

function content(format, text, references) {
  return { content: text, contentType: CONTENT_TYPES[format], references }
}

/**
 * Registers the referenced schemas once each (one artifact per distinct content) and returns the reference list a
 * version sends.
 */
async function referenceList(base, group, format, references, cache) {
  const list = []
  for (const [name, text] of Object.entries(references ?? {})) {
    const digest = createHash('sha256').update(`${name}\n${text}`).digest('hex').slice(0, 16)
    let artifactId = cache.get(digest)
    if (artifactId === undefined) {
      artifactId = `ref-${digest}`
      const created = await call(base, 'POST', `/groups/${group}/artifacts?ifExists=FIND_OR_CREATE_VERSION`, {
        artifactId,
        artifactType: format,
        firstVersion: { version: '1', content: content(format, text, []) },
      })
      if (created.status !== 200)
        throw new Error(`reference ${name}: ${created.status} ${JSON.stringify(created.json)}`)
      cache.set(digest, artifactId)
    }
    list.push({ groupId: group, artifactId, version: '1', name })
  }
  return list
}

/** The registry's verdict for one case: `{ compatible, status, causes?, error? }`. */
export async function verdictOf(base, group, format, testCase, cache, nonce) {
  const references = await referenceList(base, group, format, testCase.references, cache)
  const artifactId = `${testCase.id}-${nonce}`
  const [first, ...rest] = testCase.existing
  const created = await call(base, 'POST', `/groups/${group}/artifacts`, {
    artifactId,
    artifactType: format,
    firstVersion: { content: content(format, first, references) },
  })
  if (created.status !== 200)
    return { setupFailed: `create: ${created.status} ${JSON.stringify(created.json)}` }
  for (const text of rest) {
    const added = await call(base, 'POST', `/groups/${group}/artifacts/${artifactId}/versions`, {
      content: content(format, text, references),
    })
    if (added.status !== 200) return { setupFailed: `version: ${added.status} ${JSON.stringify(added.json)}` }
  }
  const rule = await call(base, 'POST', `/groups/${group}/artifacts/${artifactId}/rules`, {
    ruleType: 'COMPATIBILITY',
    config: testCase.level,
  })
  if (rule.status !== 204 && rule.status !== 200)
    return { setupFailed: `rule: ${rule.status} ${JSON.stringify(rule.json)}` }
  const tried = await call(base, 'POST', `/groups/${group}/artifacts/${artifactId}/versions?dryRun=true`, {
    content: content(format, testCase.proposed, references),
  })
  if (tried.status === 200) return { compatible: true, status: 200 }
  const body = tried.json ?? {}
  if ((tried.status === 400 || tried.status === 409) && Array.isArray(body.causes)) {
    return { compatible: false, status: tried.status, causes: body.causes }
  }
  return {
    compatible: false,
    status: tried.status,
    error: `${body.name ?? ''}: ${body.detail ?? JSON.stringify(body)}`,
  }
}

/** Records the verdict of every case, a few at a time. */
export async function recordAll(base, group, format, cases, concurrency = 4) {
  const cache = new Map()
  const nonce = Date.now().toString(36)
  const out = new Array(cases.length)
  let next = 0
  async function worker() {
    while (next < cases.length) {
      const index = next++
      out[index] = {
        ...cases[index],
        registry: await verdictOf(base, group, format, cases[index], cache, nonce),
      }
    }
  }
  // references are created by the first worker that needs them; run one case first so shared ones exist
  if (cases.length > 0) {
    out[0] = { ...cases[0], registry: await verdictOf(base, group, format, cases[0], cache, nonce) }
    next = 1
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return out
}

/**
 * The registry's answer to one VALIDITY case: an artifact is created with a valid first version, its VALIDITY rule
 * set to the case's level (FULL unless it says), and the schema sent as a new version with dryRun=true.
 * `{ status, title?, causes }`.
 */
export async function validityVerdictOf(base, group, testCase, cache, nonce) {
  const format = testCase.format
  const references = await referenceList(base, group, format, testCase.references, cache)
  const artifactId = `${testCase.id}-${nonce}`
  const created = await call(base, 'POST', `/groups/${group}/artifacts`, {
    artifactId,
    artifactType: format,
    firstVersion: { content: content(format, VALID[format], []) },
  })
  if (created.status !== 200)
    return { setupFailed: `create: ${created.status} ${JSON.stringify(created.json)}` }
  const rule = await call(base, 'POST', `/groups/${group}/artifacts/${artifactId}/rules`, {
    ruleType: 'VALIDITY',
    config: testCase.level ?? 'FULL',
  })
  if (rule.status !== 204 && rule.status !== 200)
    return { setupFailed: `rule: ${rule.status} ${JSON.stringify(rule.json)}` }
  const tried = await call(base, 'POST', `/groups/${group}/artifacts/${artifactId}/versions?dryRun=true`, {
    content: content(format, testCase.schema, references),
  })
  if (tried.status === 200) return { status: 200, causes: [] }
  const body = tried.json ?? {}
  return { status: tried.status, title: body.title, causes: Array.isArray(body.causes) ? body.causes : [] }
}

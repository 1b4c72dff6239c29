import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

// A registry request must leave nothing behind on the heap for the life of its client. Node 20's `AbortSignal.any`
// over the client's long-lived close signal kept a record of every signal it made (65–85 bytes per request), so a
// long-running consumer fed poison messages with random ids (one 404 each) grew without bound. On Node 24 the same run
// grew by 1.6–6 MB through ky, the fetch wrapper the client once used: it linked its own signal to ours with
// `AbortSignal.any` on every request, and Node 24 keeps a record of each in a FinalizationRegistry until a cleanup V8
// may postpone for as long as the loop is busy (a heap snapshot diff showed a 1 MB array held by
// `sourceSignalsCleanupRegistry`). Measured in a child process with `--expose-gc` against the built client; `.ci/run`
// runs this on Node 20, 22 and 24. The `fetch` given to the client answers 404 after one turn of the event loop, as a
// network answer would (a WeakRef target stays alive until the current job ends, so answers in the same job would
// measure something else).

const clientModule = fileURLToPath(new URL('../dist/index.js', import.meta.url))

const script = `
const { RegistryClient } = await import(${JSON.stringify(clientModule)})
const body = '{"title":"No content with ID found.","status":404,"name":"ContentNotFoundException"}'
const fetch = async () => {
  await new Promise((resolve) => setImmediate(resolve))
  return new Response(body, { status: 404, headers: { 'content-type': 'application/json' } })
}
const client = new RegistryClient({ url: 'http://127.0.0.1:9/apis/registry/v3', groupId: 'g', fetch })
const caller = new AbortController()
let id = 1
let refused = 0
async function lookups(n) {
  for (let i = 0; i < n; i++) {
    // Every other call with the caller's own long-lived signal, the other without one.
    try { await client.getSchemaByGlobalId(id++, i % 2 ? { signal: caller.signal } : {}) } catch { refused++ }
  }
}
// Full collections with turns of the event loop between them, so that finalizers of answered requests have run.
const used = async () => {
  for (let i = 0; i < 4; i++) { gc(); await new Promise((resolve) => setTimeout(resolve, 10)) }
  return process.memoryUsage().heapUsed
}
await lookups(10000)
const before = await used()
await lookups(30000)
const after = await used()
await client.close()
console.log(JSON.stringify({ growth: after - before, refused }))
`

describe('a long-lived client', () => {
  test('30 000 uncached lookups (each a 404) leave its heap flat', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    const { growth, refused } = JSON.parse(out) as { growth: number; refused: number }
    expect(refused).toBe(40000)
    // Before the fix: 60–90 bytes per request, 1.8–2.7 MB here; after it, under 0.4 MB (noise).
    expect(growth).toBeLessThan(1024 * 1024)
  }, 60_000)
})

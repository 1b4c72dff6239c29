import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

// The zero-byte-items limit once kept a WeakRef per decoded datum; WeakRef targets stay alive until the
// current job ends, so 20 000 synchronous decodes of a 10 KB record holding an array<null> kept +196 MB of input.
// Measured in a child process with `--expose-gc`, against the built codec, so that `gc()` is exact.

const codecModule = fileURLToPath(new URL('../../dist/avro/index.js', import.meta.url))

const script = `
const { createCodec, normalizeAvroOptions } = await import(${JSON.stringify(codecModule)})
const codec = createCodec({
  type: 'record', name: 'R',
  fields: [{ name: 'nulls', type: { type: 'array', items: 'null' } }, { name: 'pad', type: 'bytes' }],
}, normalizeAvroOptions())
const scratch = Buffer.alloc(16 * 1024)
const end = codec.encodeInto({ nulls: [null, null, null], pad: Buffer.alloc(10 * 1024, 7) }, scratch, 0)
const bytes = scratch.subarray(0, end)
const used = () => { gc(); gc(); const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers }
const before = used()
let sink = 0
for (let i = 0; i < 20000; i++) sink += codec.decode(Buffer.from(bytes), 0).nulls.length
const after = used()
console.log(JSON.stringify({ growth: after - before, sink }))
`

describe('decoding an array<null> keeps nothing of its input', () => {
  test('20 000 synchronous decodes of fresh 10 KB inputs in one loop leave the heap flat', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    })
    const { growth, sink } = JSON.parse(out) as { growth: number; sink: number }
    expect(sink).toBe(60000)
    // The inputs alone are 20 000 × 10 KB ≈ 200 MB; keeping them was the defect.
    expect(growth).toBeLessThan(8 * 1024 * 1024)
  })
})

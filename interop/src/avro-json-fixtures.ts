import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { interopDir } from './paths.js'

/** The schema of the Avro JSON encoding suite, `interop/fixtures/json-event.avsc`, as an object. */
export const jsonEventSchema: Record<string, unknown> = JSON.parse(
  readFileSync(join(interopDir, 'fixtures/json-event.avsc'), 'utf8'),
)

const KINDS = ['CREATED', 'UPDATED', 'DELETED'] as const

/**
 * Record `i` as @x/avro-serde reads it (default `avro` options): the same rule as `AvroJsonMain.event` (interop/java).
 * `big`, `attrs.b` and the long branch of `choice` lie beyond 2^53; `price` is a decimal (scale 2).
 */
export function expectedJsonEvent(i: number): Record<string, unknown> {
  const cents = 12345 + i * 100
  return {
    id: `ev-${i}-\u00fc\u20ac\u0001"`,
    big: 9_007_199_254_740_993n + BigInt(i),
    amount: i * 1.5 - 0.125,
    at: new Date(1_700_000_000_000 + i),
    price: `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
    kind: KINDS[i % 3],
    tags: Array.from({ length: i % 3 }, (_, k) => `tag-${i}-${k}`),
    attrs: { a: i, b: -9_007_199_254_740_993n - BigInt(i) },
    note: i % 2 === 0 ? null : `note ${i}`,
    choice: i % 3 === 0 ? null : i % 3 === 1 ? 9_007_199_254_740_993n * 2n + BigInt(i) : { x: i, y: -i },
    payload: Buffer.from([i & 0xff, 0x00, 0xff, 0x80, 0x1f]),
  }
}

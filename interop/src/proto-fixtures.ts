import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { interopDir } from './paths.js'

/** The text of a file under interop/fixtures/proto. */
export function protoText(path: string): string {
  return readFileSync(join(interopDir, 'fixtures', 'proto', path), 'utf8')
}

/** Order `i` as @x/protobuf-serde reads it (and takes it): the rule of `ProtoMain.order(i)` in interop/java. */
export function expectedOrder(i: number): Record<string, unknown> {
  return {
    id: 9007199254740993n + BigInt(i),
    sku: `SKU-${i}`,
    lines: [i, i + 1, 300],
    counts: { a: i, big: 9007199254740993n + BigInt(i) },
    ship: { city: `C${i}`, zip: 12345 },
    at: { seconds: 1767225600 + i, nanos: 500 },
    status: 'PAID',
    ...(i % 2 === 0 ? { card: `card-${i}`, payment: 'card' } : { iban: `DE${i}`, payment: 'iban' }),
    customer: { name: `N${i}`, points: 18446744073709551615n },
    blob: Buffer.from([0, i, 255]),
  }
}

/** Order `i` in the proto3 JSON Java's `JsonFormat` prints (64-bit integers as strings, bytes as base64). */
export function expectedOrderJson(i: number): Record<string, unknown> {
  return {
    id: String(9007199254740993n + BigInt(i)),
    sku: `SKU-${i}`,
    lines: [i, i + 1, 300],
    counts: { a: String(i), big: String(9007199254740993n + BigInt(i)) },
    ship: { city: `C${i}`, zip: '12345' },
    at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString().replace('.000Z', '.000000500Z'),
    status: 'PAID',
    ...(i % 2 === 0 ? { card: `card-${i}` } : { iban: `DE${i}` }),
    customer: { name: `N${i}`, points: '18446744073709551615' },
    blob: Buffer.from([0, i, 255]).toString('base64'),
  }
}

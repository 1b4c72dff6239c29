import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { interopDir } from './paths.js'

/** The interop schema, `interop/fixtures/event.avsc`, as its file text. */
export const eventSchemaText: string = readFileSync(join(interopDir, 'fixtures/event.avsc'), 'utf8')

/** The interop schema as an object. */
export const eventSchema: Record<string, unknown> = JSON.parse(eventSchemaText)

const KINDS = ['CREATED', 'UPDATED', 'DELETED'] as const

/** An interop record as @x/avro-serde writes and reads it (default `avro` options: longs `'auto'`, bare unions). */
export interface EventRecord {
  id: string
  seq: number
  ts: number
  big: bigint
  score: number
  active: boolean
  kind: (typeof KINDS)[number]
  tags: string[]
  attrs: Record<string, number>
  note: string | null
  origin: { host: string; port: number }
  payload: Buffer
}

/**
 * Record `i` of every interop suite: the same rule as `Events.event` (interop/java) and `events.event`
 * (interop/python). `big` lies beyond 2^53, so it only survives as a bigint.
 */
export function expectedEvent(i: number): EventRecord {
  return {
    id: `ev-${i}-\u00fc\u20ac`,
    seq: i * 7 - 3,
    ts: 1_700_000_000_000 + i,
    big: 9_007_199_254_740_993n + BigInt(i),
    score: i * 1.5 - 0.125,
    active: i % 2 === 0,
    kind: KINDS[i % 3]!,
    tags: Array.from({ length: i % 3 }, (_, k) => `tag-${i}-${k}`),
    attrs: { i, neg: -i - 1 },
    note: i % 2 === 0 ? null : `note ${i}`,
    origin: { host: `host-${i}`, port: 9000 + i },
    payload: Buffer.from([i & 0xff, 0x00, 0xff, 0x80]),
  }
}

/** Records 0 .. count-1. */
export function expectedEvents(count: number): EventRecord[] {
  return Array.from({ length: count }, (_, i) => expectedEvent(i))
}

/**
 * The canonical JSON form the Java and Python programs print: longs as decimal strings, bytes as lowercase hex,
 * map keys sorted. `value` is a record as @x/avro-serde reads it.
 */
export function canonicalEvent(value: EventRecord): Record<string, unknown> {
  const attrs: Record<string, number> = {}
  for (const key of Object.keys(value.attrs).sort()) attrs[key] = value.attrs[key]!
  return {
    id: value.id,
    seq: value.seq,
    ts: String(value.ts),
    big: String(value.big),
    score: value.score,
    active: value.active,
    kind: value.kind,
    tags: [...value.tags],
    attrs,
    note: value.note,
    origin: { host: value.origin.host, port: value.origin.port },
    payload: Buffer.from(value.payload).toString('hex'),
  }
}

/** A topic or artifact name no earlier run has used (the registry may be shared and outlive a run). */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`
}

import fc from 'fast-check'
import { hostileKey, hostileString, ownObject, PROTOTYPE_NAMES } from './hostile.js'

// The schemas the `hostile-*` files write and read with, and values valid for them built from hostile parts
// (prototype-named keys and symbols, lone surrogates, NaN/±Infinity/−0, longs at the int64 bounds), whose round trip
// must be exact.

/** An Avro record with a string, a long, a double, bytes, a map, an array, a union, an enum of prototype names, and itself. */
export const EDGE_SCHEMA = {
  type: 'record',
  name: 'Edge',
  namespace: 'reliability',
  fields: [
    { name: 's', type: 'string' },
    { name: 'l', type: 'long' },
    { name: 'd', type: 'double' },
    { name: 'b', type: 'bytes' },
    { name: 'm', type: { type: 'map', values: 'long' } },
    { name: 'a', type: { type: 'array', items: 'string' } },
    { name: 'n', type: ['null', 'string'] },
    { name: 'e', type: { type: 'enum', name: 'Named', symbols: [...PROTOTYPE_NAMES] } },
    { name: 'child', type: ['null', 'Edge'], default: null },
  ],
} as const

/** A JSON Schema that takes any JSON value (the data decides the shape). */
export const ANY_JSON_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'reliability.Anything',
}

/** A Protobuf file with a map keyed by strings and a message holding itself, for depth. */
export const EDGE_PROTO = `syntax = "proto3";
package reliability;
message Edge {
  int64 id = 1;
  repeated Line lines = 2;
  map<string, int64> counts = 3;
  string card = 4;
  Edge child = 5;
  message Line { string sku = 1; uint32 qty = 2; double price = 3; }
}
`

/** A long as the deserializers give it back (`longs: 'auto'`): a number while safe, a bigint beyond. */
export const autoLong: fc.Arbitrary<number | bigint> = fc.oneof(
  fc.maxSafeInteger(),
  fc.constantFrom(2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n + 1n, -(2n ** 53n) - 1n),
  fc.bigInt({ min: 2n ** 53n, max: 2n ** 63n - 1n }),
)

/** A string a message may carry: prototype names, lone surrogates, unicode, large texts. */
const text = hostileString

/** Valid Edge records (Avro) made of hostile parts, up to three deep. */
export const edgeValue: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
  edge: fc
    .record({
      s: text,
      l: autoLong,
      d: fc.double(),
      b: fc.uint8Array({ maxLength: 16 }).map((bytes) => Buffer.from(bytes)),
      m: fc.array(fc.tuple(hostileKey, autoLong), { maxLength: 4 }).map((entries) => ownObject(entries)),
      a: fc.array(text, { maxLength: 3 }),
      n: fc.option(text, { nil: null }),
      e: fc.constantFrom(...PROTOTYPE_NAMES),
      child: fc.oneof({ depthSize: 'small', maxDepth: 3 }, fc.constant(null), tie('edge')),
    })
    .map((record) => record as Record<string, unknown>),
})).edge

/** A valid Edge (Avro), `depth` deep through `child`, built without recursion. */
export function deepEdge(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> | null = null
  for (let i = 0; i < depth; i++) {
    node = { s: '', l: i, d: 0, b: Buffer.alloc(0), m: {}, a: [], n: null, e: 'valueOf', child: node }
  }
  return node as Record<string, unknown>
}

/** An Edge (Avro) whose child is itself. */
export function cyclicEdge(): Record<string, unknown> {
  const edge = deepEdge(1)
  edge.child = edge
  return edge
}

/** JSON values (safe numbers, no −0, bigints beyond 2^53) with hostile keys and strings: exact through JSON. */
export const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    text,
    fc.maxSafeInteger(),
    fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .filter((n) => !Object.is(n, -0) && (Number.isSafeInteger(n) || !Number.isInteger(n))),
    fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).filter((n) => n > 2n ** 53n || n < -(2n ** 53n)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 }).map((entries) => ownObject(entries)),
  ),
})).value

/** Valid Edge messages (Protobuf): every field set, so defaults do not hide anything. */
export const protoValue: fc.Arbitrary<Record<string, unknown>> = fc.record({
  id: autoLong.filter((n) => n !== 0),
  lines: fc.array(
    fc.record({
      sku: text.filter((s) => s !== ''),
      qty: fc.integer({ min: 1, max: 2 ** 32 - 1 }),
      price: fc.double().filter((n) => n !== 0),
    }),
    { maxLength: 3 },
  ),
  counts: fc.array(fc.tuple(hostileKey, autoLong), { maxLength: 4 }).map((entries) => ownObject(entries)),
  card: text.filter((s) => s !== ''),
})

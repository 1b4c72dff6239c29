import type avro from 'avsc'
import type { BenchEnv } from './cases.js'

/**
 * What code written by hand does before its first message: GET the writer schema of a globalId from the registry
 * with plain `fetch`. Every ceiling and by-hand case builds its engine's type from the schema fetched so, and its
 * process has then run an HTTP client as ours has (our serdes fetch through `@x/registry-client`). Measured on
 * Node 20 (2026-11-25): avsc encodes `bench.Event` 5–10 % faster in a process that never made a request (V8 compiles
 * the shared avsc and `Buffer` code differently once undici's has run), a state no producer or consumer runs in. The
 * `…-no-http` rows keep that figure in the tables.
 */
export async function schemaByHand(env: BenchEnv, globalId: number): Promise<string> {
  const response = await fetch(`${env.url}/ids/globalIds/${globalId}`)
  if (!response.ok) throw new Error(`GET /ids/globalIds/${globalId}: HTTP ${response.status}`)
  return response.text()
}

/** {@link schemaByHand} of an Avro schema, parsed. */
export async function avroSchemaByHand(env: BenchEnv, globalId: number): Promise<avro.Schema> {
  return JSON.parse(await schemaByHand(env, globalId)) as avro.Schema
}

import { loadavg } from 'node:os'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { EVENT_ARTIFACT, EVENT_SCHEMA, GROUP_ID } from '../fixtures.js'
import { measureLambdaCold, renderLambdaCold } from '../lambda-cold/measure.js'
import { PEER_TOPIC } from '../peer-cases.js'
import { ConfluentStub } from '../peers/confluent-registry.js'
import { measureStartup, renderStartup } from './measure.js'
import { startupTarget } from './target.js'

/**
 * `pnpm --filter @x/bench startup`: the start-up row and the cold Lambda invocation table of `pnpm bench` alone (their
 * registry, their stub, their fresh processes), for measuring start-up without the rest of the bench.
 * `BENCH_STARTUP_RUNS` (default 10) processes of each kind; `BENCH_CPU_PROF=<dir>` profiles every start-up process.
 */
const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 10)
if (!Number.isInteger(runs) || runs <= 0) throw new TypeError(`BENCH_STARTUP_RUNS must be a positive integer`)

const registry = await InMemoryRegistry.start()
let stub: ConfluentStub | undefined
try {
  const client = new RegistryClient({ url: registry.url, groupId: GROUP_ID })
  let eventId: number
  try {
    const event = await client.registerSchema(EVENT_ARTIFACT, EVENT_SCHEMA)
    eventId = event.globalId as number
  } finally {
    await client.close()
  }
  stub = await ConfluentStub.start([
    { id: eventId, subject: `${PEER_TOPIC}-value`, schema: JSON.stringify(EVENT_SCHEMA), schemaType: 'AVRO' },
  ])
  const load = loadavg()[0]!.toFixed(2)
  const target = await startupTarget({ url: registry.url, confluentUrl: stub.url })
  const results = await measureStartup(target, runs, process.env.BENCH_CPU_PROF || undefined)
  console.log(`Node ${process.version}`)
  console.log(renderStartup(results, `${load} before, ${loadavg()[0]!.toFixed(2)} after`))
  const lambdaLoad = loadavg()[0]!.toFixed(2)
  const lambda = await measureLambdaCold({ url: registry.url, confluentUrl: stub.url }, stub, registry, runs)
  console.log(renderLambdaCold(lambda, `${lambdaLoad} before, ${loadavg()[0]!.toFixed(2)} after`))
} finally {
  await stub?.close()
  await registry.close()
}

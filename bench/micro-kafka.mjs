// Micro: KafkaJsSerde.decodeMessage (awaited) on a warm Avro id, and ApicurioSchemaRegistry's sync deserializer.
import { InMemoryRegistry } from '@x/registry-testing'
import { RegistryClient } from '@x/registry-client'
import { AvroSerializer } from '@x/avro-serde'
import { KafkaJsSerde, ApicurioSchemaRegistry } from '@x/kafka'
import { SerializationContext } from '@x/wire-format'
import { EVENT_SCHEMA, EVENT_RECORD, EVENT_ARTIFACT, GROUP_ID } from './dist/fixtures.js'
const registry = await InMemoryRegistry.start()
const client = new RegistryClient({ url: registry.url, groupId: GROUP_ID })
await client.registerSchema(EVENT_ARTIFACT, EVENT_SCHEMA)
const ser = new AvroSerializer(client, EVENT_ARTIFACT)
const ctx = new SerializationContext('t', 'value')
const frame = Buffer.from(await ser.serialize(EVENT_RECORD, ctx))
const serde = new KafkaJsSerde(client, { keys: 'string' })
const msg = { key: Buffer.from('k1'), value: frame, headers: {}, offset: '1', timestamp: '0', attributes: 0 }
await serde.decodeMessage('t', 0, msg)
const N = 200000
async function timeAsync(name) { const t0 = process.hrtime.bigint(); const c0 = process.cpuUsage(); for (let i = 0; i < N; i++) await serde.decodeMessage('t', 0, msg); const ns = Number(process.hrtime.bigint() - t0) / N; const cpu = process.cpuUsage(c0); console.log(name, ns.toFixed(0), 'ns wall', ((cpu.user + cpu.system) * 1000 / N).toFixed(0), 'ns cpu') }
const reg = new ApicurioSchemaRegistry(client)
const des = reg.getDeserializers().value
const hook = reg.getBeforeDeserializationHook()
const pmsg = { topic: 't', headers: new Map(), metadata: {} }
await new Promise((r) => hook(frame, 'value', pmsg, r))
function timeSync(name) { const t0 = process.hrtime.bigint(); for (let i = 0; i < N; i++) des(frame, pmsg.headers, pmsg); console.log(name, (Number(process.hrtime.bigint() - t0) / N).toFixed(0), 'ns') }
async function timeHook(name) { const t0 = process.hrtime.bigint(); for (let i = 0; i < N; i++) await new Promise((r) => hook(frame, 'value', pmsg, r)); console.log(name, (Number(process.hrtime.bigint() - t0) / N).toFixed(0), 'ns') }
for (let r = 0; r < 3; r++) { await timeAsync('kafkajs decodeMessage'); timeSync('platformatic deserializer'); await timeHook('platformatic hook+await') }
await client.close(); await registry.close()

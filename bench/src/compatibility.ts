import { type CompatibilityLevel, checkCompatibility, type SchemaFormat } from '@x/compatibility'
import { median } from './median.js'

/** One format's transitive check against many versions: how long it took, and its verdict. */
export interface CompatibilityTiming {
  format: SchemaFormat
  level: CompatibilityLevel
  versions: number
  ms: number[]
  compatible: boolean
  /** Set when the check could not read a schema: why. */
  unreadable?: string
}

const VERSIONS = 1000

/** Version `i` of an evolving Avro record: 20 fields, then one more with a default every 50 versions. */
function avroVersion(i: number): string {
  const fields = [{ name: 'id', type: 'string' }]
  for (let f = 0; f < 19; f++) fields.push({ name: `f${f}`, type: f % 2 === 0 ? 'long' : 'string' })
  for (let added = 0; added < Math.floor(i / 50); added++) {
    fields.push({ name: `added${added}`, type: 'string', default: '' } as never)
  }
  return JSON.stringify({ type: 'record', name: 'Event', namespace: 'bench', doc: `version ${i}`, fields })
}

/** Version `i` of an evolving JSON Schema: 20 properties, then one more optional property every 50 versions. */
function jsonVersion(i: number): string {
  const properties: Record<string, unknown> = { id: { type: 'string' } }
  for (let f = 0; f < 19; f++) properties[`f${f}`] = { type: f % 2 === 0 ? 'integer' : 'string' }
  for (let added = 0; added < Math.floor(i / 50); added++) properties[`added${added}`] = { type: 'string' }
  return JSON.stringify({
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties,
    required: ['id'],
    description: `version ${i}`,
  })
}

/** Version `i` of an evolving .proto: 20 fields, then one more every 50 versions. */
function protobufVersion(i: number): string {
  const lines = [
    'syntax = "proto3";',
    'package bench;',
    `// version ${i}`,
    'message Event {',
    '  string id = 1;',
  ]
  for (let f = 0; f < 19; f++) lines.push(`  ${f % 2 === 0 ? 'int64' : 'string'} f${f} = ${f + 2};`)
  for (let added = 0; added < Math.floor(i / 50); added++)
    lines.push(`  string added${added} = ${added + 100};`)
  lines.push('}', '')
  return lines.join('\n')
}

const VERSION_OF: Record<SchemaFormat, (i: number) => string> = {
  AVRO: avroVersion,
  JSON: jsonVersion,
  PROTOBUF: protobufVersion,
}

/**
 * A proposed version checked under FULL_TRANSITIVE (both directions) against 1000 existing versions of an evolving
 * schema, per format, `rounds` times: the whole `checkCompatibility` call, parsing included. The first round is the
 * first call of the process for that format.
 */
export function measureCompatibility(rounds: number): CompatibilityTiming[] {
  const out: CompatibilityTiming[] = []
  for (const format of ['AVRO', 'JSON', 'PROTOBUF'] as const) {
    const existing = Array.from({ length: VERSIONS }, (_, i) => VERSION_OF[format](i))
    const proposed = VERSION_OF[format](VERSIONS)
    const timing: CompatibilityTiming = {
      format,
      level: 'FULL_TRANSITIVE',
      versions: VERSIONS,
      ms: [],
      compatible: false,
    }
    for (let round = 0; round < rounds; round++) {
      const started = performance.now()
      const result = checkCompatibility({ format, level: 'FULL_TRANSITIVE', existing, proposed })
      timing.ms.push(performance.now() - started)
      timing.compatible = result.compatible
      if (result.unreadable !== undefined) timing.unreadable = result.unreadable
    }
    out.push(timing)
  }
  return out
}

/** The table `pnpm bench` prints. */
export function renderCompatibility(timings: readonly CompatibilityTiming[]): string {
  const lines = [
    '### Offline compatibility: one `checkCompatibility` call, FULL_TRANSITIVE against 1000 versions',
    '',
    'The first call of the process per format (before the JIT has compiled the checker), then the median of the warm ' +
      'calls; each version is parsed once per call.',
    '',
    '| format | versions | first call ms | warm median ms | verdict |',
    '| --- | ---: | ---: | ---: | --- |',
  ]
  for (const t of timings) {
    const verdict =
      t.unreadable !== undefined
        ? `not checked: ${t.unreadable}`
        : t.compatible
          ? 'compatible'
          : 'incompatible'
    // the first round is the first call of the process for that format: its code is not yet compiled by the JIT
    const [first = Number.NaN, ...warm] = t.ms
    const warmMedian = warm.length === 0 ? 'n/a' : median(warm).toFixed(1)
    lines.push(`| ${t.format} | ${t.versions} | ${first.toFixed(1)} | ${warmMedian} | ${verdict} |`)
  }
  return `${lines.join('\n')}\n`
}

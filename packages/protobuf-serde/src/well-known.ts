import { createRequire } from 'node:module'
import protobuf from 'protobufjs'

/**
 * The well-known `.proto` files (`google/protobuf/*.proto`) the engine provides without a registry round trip, from
 * protobufjs: its `common` set (any, duration, empty, field_mask, struct, timestamp, wrappers) and the descriptors it
 * ships as JSON (api, descriptor, source_context, type). Field names are the `.proto` names (`null_value`), as for
 * every other file (protobufjs's own JSON uses camelCase names).
 *
 * They also have a `.proto` text, printed from the same definitions: Apicurio's Java serde registers each well-known
 * file a schema imports as an artifact of its own and lists it as a reference, and its deserializer needs that
 * reference to read the schema; so `autoRegister` registers them too (see `ProtobufSerializer`).
 */

const require = createRequire(import.meta.url)

type Json = Record<string, unknown>

const FROM_COMMON = ['any', 'duration', 'empty', 'field_mask', 'struct', 'timestamp', 'wrappers']
const FROM_JSON = ['api', 'descriptor', 'source_context', 'type']

/** The import paths of the well-known files. */
export const WELL_KNOWN_PATHS: ReadonlySet<string> = new Set(
  [...FROM_COMMON, ...FROM_JSON].map((name) => `google/protobuf/${name}.proto`),
)

const cache = new Map<string, Json>()

/** The definitions of a well-known file, with `.proto` field names; undefined for another path. */
export function wellKnownJson(path: string): Json | undefined {
  if (!WELL_KNOWN_PATHS.has(path)) return undefined
  let json = cache.get(path)
  if (json === undefined) {
    const name = path.slice('google/protobuf/'.length, -'.proto'.length)
    const source = FROM_COMMON.includes(name)
      ? (protobuf.common.get(path) as unknown as Json)
      : (require(`protobufjs/google/protobuf/${name}.json`) as Json)
    json = protoNamed(structuredClone(source))
    cache.set(path, json)
  }
  return json
}

/** Renames fields (and oneof members) to their `protoName`, recursively. */
function protoNamed(namespace: Json): Json {
  const fields = namespace.fields as Record<string, Json> | undefined
  if (fields !== undefined) {
    const renamed: Record<string, Json> = {}
    const names = new Map<string, string>()
    for (const [name, field] of Object.entries(fields)) {
      const protoName = typeof field.protoName === 'string' ? field.protoName : name
      names.set(name, protoName)
      const { protoName: _omit, ...rest } = field
      renamed[protoName] = rest
    }
    namespace.fields = renamed
    const oneofs = namespace.oneofs as Record<string, { oneof: string[] }> | undefined
    for (const oneof of Object.values(oneofs ?? {})) oneof.oneof = oneof.oneof.map((n) => names.get(n) ?? n)
  }
  for (const nested of Object.values((namespace.nested as Record<string, Json> | undefined) ?? {}))
    protoNamed(nested)
  return namespace
}

/** What the proto3 well-known files import (descriptor.proto is proto2: it has no text here). */
export const WELL_KNOWN_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  'google/protobuf/api.proto': ['google/protobuf/source_context.proto', 'google/protobuf/type.proto'],
  'google/protobuf/type.proto': ['google/protobuf/any.proto', 'google/protobuf/source_context.proto'],
}

/**
 * The `.proto` text of a proto3 well-known file (its package, imports, messages and enums); undefined for another
 * path and for `descriptor.proto` (proto2, used for custom options).
 */
export function wellKnownText(path: string): string | undefined {
  if (path === 'google/protobuf/descriptor.proto') return undefined
  const json = wellKnownJson(path)
  if (json === undefined) return undefined
  const lines = ['syntax = "proto3";', '', 'package google.protobuf;', '']
  const imports = WELL_KNOWN_IMPORTS[path] ?? []
  if (imports.length > 0) lines.push(...imports.map((i) => `import "${i}";`), '')
  const google = (json.nested as Json).google as Json
  const pkg = (google.nested as Json).protobuf as Json
  for (const [name, item] of Object.entries(pkg.nested as Record<string, Json>))
    printType(name, item, '', lines)
  return `${lines.join('\n')}\n`
}

function printType(name: string, item: Json, indent: string, lines: string[]): void {
  if (item.values !== undefined) {
    lines.push(`${indent}enum ${name} {`)
    for (const [value, number] of Object.entries(item.values as Record<string, number>)) {
      lines.push(`${indent}  ${value} = ${number};`)
    }
    lines.push(`${indent}}`, '')
    return
  }
  if (item.fields === undefined) return
  lines.push(`${indent}message ${name} {`)
  const fields = item.fields as Record<string, Json>
  const oneofs = (item.oneofs as Record<string, { oneof: string[] }> | undefined) ?? {}
  const inOneof = new Set(Object.values(oneofs).flatMap((o) => o.oneof))
  for (const [field, spec] of Object.entries(fields)) {
    if (!inOneof.has(field)) lines.push(`${indent}  ${fieldLine(field, spec)}`)
  }
  for (const [oneof, { oneof: members }] of Object.entries(oneofs)) {
    lines.push(`${indent}  oneof ${oneof} {`)
    for (const member of members) lines.push(`${indent}    ${fieldLine(member, fields[member]!)}`)
    lines.push(`${indent}  }`)
  }
  for (const [nested, spec] of Object.entries((item.nested as Record<string, Json> | undefined) ?? {})) {
    printType(nested, spec, `${indent}  `, lines)
  }
  lines.push(`${indent}}`, '')
}

function fieldLine(name: string, spec: Json): string {
  const type =
    spec.keyType !== undefined ? `map<${String(spec.keyType)}, ${String(spec.type)}>` : String(spec.type)
  const rule = spec.rule === 'repeated' ? 'repeated ' : ''
  return `${rule}${type} ${name} = ${String(spec.id)};`
}

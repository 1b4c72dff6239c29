import { loadProto } from '@x/protobuf-serde'
import type { ExactJson } from '@x/registry-client/json'
import protobuf from 'protobufjs'
import { fullName, namedSchema } from './avro-schema-names.js'
import { unionShape } from './avro-unions.js'
import { setOwn } from './own-property.js'

/**
 * A value read from a JSON line, turned into what the format's serializer takes: the inverse of what `consume
 * --json` prints. JSON has no bytes nor dates, so `consume` prints bytes as base64 and dates as ISO text; here a
 * string where the schema has `bytes` (or `fixed`) is read as base64, and a string where it has an Avro
 * `timestamp-millis`, `local-timestamp-millis` or `date` as an ISO date. Integers beyond 2^53 arrive as bigints
 * (the exact parser) and stay so. Anything else is handed over as it is, for the serializer to check.
 */
export type JsonInput = (value: ExactJson) => unknown

/** JSON Schema values are JSON already. */
export const jsonSchemaInput: JsonInput = (value) => value

/**
 * The converter for an Avro schema (its JSON text) and the texts of the artifacts it references, recursively (Java's
 * auto-registration puts each nested record and enum in an artifact of its own): a named type defined in a
 * reference is converted as one written inline.
 */
export function avroInput(schemaText: string, references: Iterable<string> = []): JsonInput {
  const { schema, named } = namedSchema(schemaText, references)
  return (value) => avroValue(schema, value, named, undefined)
}

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'])

function avroValue(
  schema: unknown,
  value: ExactJson,
  named: Map<string, unknown>,
  namespace: string | undefined,
): unknown {
  if (typeof schema === 'string') {
    if (schema === 'bytes') return typeof value === 'string' ? base64(value) : value
    if (PRIMITIVES.has(schema)) return value
    const target = named.get(fullName(schema, namespace)) ?? named.get(schema)
    return target === undefined ? value : avroValue(target, value, named, namespace)
  }
  if (Array.isArray(schema)) return avroUnion(schema, value, named, namespace)
  if (typeof schema !== 'object' || schema === null) return value
  const node = schema as Record<string, unknown>
  const type = node.type
  const logical = node.logicalType
  if (
    typeof value === 'string' &&
    (logical === 'timestamp-millis' || logical === 'local-timestamp-millis' || logical === 'date')
  ) {
    const date = new Date(
      logical === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value,
    )
    return Number.isNaN(date.getTime()) ? value : date
  }
  if (logical === 'decimal' || logical === 'uuid') return value
  if (type === 'fixed') return typeof value === 'string' ? base64(value) : value
  if (type === 'record' || type === 'error') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
    const full = fullName(
      node.name as string,
      typeof node.namespace === 'string' ? node.namespace : namespace,
    )
    const ns = full.includes('.') ? full.slice(0, full.lastIndexOf('.')) : undefined
    const out: Record<string, unknown> = { ...value }
    for (const field of (node.fields as { name: string; type: unknown }[]) ?? []) {
      if (Object.hasOwn(value, field.name))
        setOwn(out, field.name, avroValue(field.type, value[field.name]!, named, ns))
    }
    return out
  }
  if (type === 'array') {
    return Array.isArray(value) ? value.map((item) => avroValue(node.items, item, named, namespace)) : value
  }
  if (type === 'map') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, avroValue(node.values, item, named, namespace)]),
    )
  }
  if (typeof type === 'string' || typeof type === 'object') return avroValue(type, value, named, namespace)
  return value
}

/**
 * A union: `null` is null; `{ "branch": value }` (the wrapped form `consume` prints where branches are ambiguous) is
 * converted by that branch, and handed over bare where `@x/avro-serde` unwraps the union; a bare value by the one branch other than null when there is one, else by the one branch
 * whose JSON form it has (`consume` prints bytes, fixed, timestamps and dates as strings: in `["null", "int",
 * "bytes"]` a string is the bytes' base64). A bare value that several branches could be is handed over as it is.
 */
function avroUnion(
  branches: readonly unknown[],
  value: ExactJson,
  named: Map<string, unknown>,
  namespace: string | undefined,
): unknown {
  if (value === null) return null
  if (typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value)
    if (keys.length === 1) {
      const branch = branches.find(
        (b) => branchName(b, namespace) === keys[0] || branchName(b, undefined) === keys[0],
      )
      if (branch !== undefined) {
        const inner = avroValue(branch, value[keys[0]!]!, named, namespace)
        // The serializer takes the bare value where the deserializer gives it bare (`consume` prints such a union
        // wrapped only where its values would print alike, as in `["string", "bytes"]`).
        return unionShape(branches, named, namespace).unwrapped ? inner : { [keys[0]!]: inner }
      }
    }
  }
  const others = branches.filter((b) => b !== 'null')
  if (others.length === 1) return avroValue(others[0], value, named, namespace)
  const kind = jsonKindOf(value)
  const takers = others.filter((b) => jsonKindsOf(b, named, namespace).has(kind))
  return takers.length === 1 ? avroValue(takers[0], value, named, namespace) : value
}

type JsonKind = 'string' | 'number' | 'boolean' | 'array' | 'object'

function jsonKindOf(value: Exclude<ExactJson, null>): JsonKind {
  if (typeof value === 'bigint') return 'number'
  if (Array.isArray(value)) return 'array'
  return typeof value as JsonKind
}

/** The kinds of JSON value that stand for a value of this (non-union) type, as `consume --json` prints them. */
function jsonKindsOf(
  schema: unknown,
  named: Map<string, unknown>,
  namespace: string | undefined,
): ReadonlySet<JsonKind> {
  if (typeof schema === 'string') {
    switch (schema) {
      case 'null':
        return new Set()
      case 'boolean':
        return new Set(['boolean'])
      case 'int':
      case 'long':
      case 'float':
      case 'double':
        return new Set(['number'])
      case 'bytes':
      case 'string':
        return new Set(['string'])
    }
    const target = named.get(fullName(schema, namespace)) ?? named.get(schema)
    return target === undefined ? new Set() : jsonKindsOf(target, named, namespace)
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return new Set()
  const node = schema as Record<string, unknown>
  const type = node.type
  const logical = node.logicalType
  if (logical === 'timestamp-millis' || logical === 'local-timestamp-millis' || logical === 'date') {
    return new Set(['number', 'string'])
  }
  if (logical === 'decimal') return new Set(['number', 'string'])
  switch (type) {
    case 'enum':
    case 'fixed':
      return new Set(['string'])
    case 'record':
    case 'error':
    case 'map':
      return new Set(['object'])
    case 'array':
      return new Set(['array'])
  }
  return jsonKindsOf(type, named, namespace)
}

function branchName(branch: unknown, namespace: string | undefined): string | undefined {
  if (typeof branch === 'string') return PRIMITIVES.has(branch) ? branch : fullName(branch, namespace)
  if (typeof branch !== 'object' || branch === null) return undefined
  const node = branch as Record<string, unknown>
  if (typeof node.name === 'string') {
    return fullName(node.name, typeof node.namespace === 'string' ? node.namespace : namespace)
  }
  return typeof node.type === 'string' ? node.type : undefined
}

/**
 * The converter for a `.proto` (its text and the texts of what it imports, by import path, loaded as the codec loads
 * them), for the message the serializer writes: `messageType`, else the file's first message, as `ProtobufSerializer`
 * chooses. An import not among `imports` is a `MissingImportError` naming it.
 */
export function protobufInput(
  text: string,
  imports: ReadonlyMap<string, string>,
  messageType: string | undefined,
): JsonInput {
  const own = protobuf.parse(text, new protobuf.Root(), { keepCase: true })
  const { root } = loadProto(text, { readImport: (path) => imports.get(path) })
  root.resolveAll()
  const name = messageType ?? firstMessage(own.root)
  const type = name === undefined ? undefined : root.lookupType(name)
  return type === undefined ? (value) => value : (value) => protobufValue(type, value)
}

function firstMessage(namespace: protobuf.NamespaceBase): string | undefined {
  for (const nested of namespace.nestedArray) {
    if (nested instanceof protobuf.Type) return nested.fullName.replace(/^\./, '')
    if (nested instanceof protobuf.Namespace) {
      const found = firstMessage(nested)
      if (found !== undefined) return found
    }
  }
  return undefined
}

function protobufValue(type: protobuf.Type, value: ExactJson): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
  const out: Record<string, unknown> = { ...value }
  for (const field of type.fieldsArray) {
    if (!Object.hasOwn(value, field.name)) continue
    const item = value[field.name]!
    const one = (element: ExactJson): unknown => {
      if (field.type === 'bytes') return typeof element === 'string' ? base64(element) : element
      return field.resolvedType instanceof protobuf.Type
        ? protobufValue(field.resolvedType, element)
        : element
    }
    if (field instanceof protobuf.MapField || field.map) {
      if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
        setOwn(
          out,
          field.name,
          Object.fromEntries(Object.entries(item).map(([key, element]) => [key, one(element)])),
        )
      }
    } else if (field.repeated) {
      if (Array.isArray(item)) setOwn(out, field.name, item.map(one))
    } else {
      setOwn(out, field.name, item === null ? null : one(item))
    }
  }
  return out
}

function base64(text: string): Buffer | string {
  return /^[A-Za-z0-9+/]*={0,2}$/.test(text) && text.length % 4 === 0 ? Buffer.from(text, 'base64') : text
}

import { valueKindOf } from '@x/avro-serde/union-rule'
import { readErrorKind } from '@x/message-contract'
import type { IdType, SchemaId } from '@x/wire-format'
import { fullName, namedSchema } from './avro-schema-names.js'
import { type UnionShape, unionShape } from './avro-unions.js'
import type { Connection } from './connection.js'
import { setOwn } from './own-property.js'
import { referenceTexts } from './reference-texts.js'

/**
 * What `consume` prints of a value an Avro schema (its JSON text, and the texts of the artifacts it references)
 * decoded: the value itself, but in a union whose bare values would print as the same kind of JSON (`["string",
 * "bytes"]`: a string and base64 text; `["string", timestamp-millis]`: a string and ISO text) each value wrapped,
 * `{ "bytes": "AQID" }`, so that what is printed tells its branch and goes back in through `produce` as it was.
 * The identity when the schema has no such union.
 */
export function avroOutput(
  schemaText: string,
  references: Iterable<string> = [],
): (value: unknown) => unknown {
  const { schema, named } = namedSchema(schemaText, references)
  if (!hasPrintedWrapped(schema, named, undefined, new Set())) return (value) => value
  return (value) => printable(schema, value, named, undefined)
}

/**
 * {@link avroOutput} of the Avro schema with this id: its text and those of the artifacts it references. A value
 * that decoded is printed even when a reference cannot be found (then as the deserializer gave it); an outage is
 * thrown.
 */
export async function avroOutputOfId(
  connection: Pick<Connection, 'client'>,
  idType: IdType,
  id: SchemaId,
): Promise<(value: unknown) => unknown> {
  const client = connection.client
  try {
    const schema =
      idType === 'globalId' ? await client.getSchemaByGlobalId(id) : await client.getSchemaByContentId(id)
    const references = await referenceTexts(connection, id, idType)
    return avroOutput(schema.schema, references.values())
  } catch (error) {
    if (readErrorKind(error) === 'poison') return (value) => value
    throw error
  }
}

function recordNamespace(node: Record<string, unknown>, namespace: string | undefined): string | undefined {
  const full = fullName(String(node.name), typeof node.namespace === 'string' ? node.namespace : namespace)
  return full.includes('.') ? full.slice(0, full.lastIndexOf('.')) : undefined
}

/** Whether a union `printedWrapped` occurs anywhere in `schema` (each named type looked into once). */
function hasPrintedWrapped(
  schema: unknown,
  named: ReadonlyMap<string, unknown>,
  namespace: string | undefined,
  seen: Set<unknown>,
): boolean {
  if (typeof schema === 'string') {
    const target = named.get(fullName(schema, namespace)) ?? named.get(schema)
    return target !== undefined && hasPrintedWrapped(target, named, namespace, seen)
  }
  if (Array.isArray(schema)) {
    if (unionShape(schema, named, namespace).printedWrapped) return true
    return schema.some((branch) => hasPrintedWrapped(branch, named, namespace, seen))
  }
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return false
  seen.add(schema)
  const node = schema as Record<string, unknown>
  if (node.type === 'record' || node.type === 'error') {
    const ns = recordNamespace(node, namespace)
    const fields = Array.isArray(node.fields) ? (node.fields as { type?: unknown }[]) : []
    return fields.some((field) => hasPrintedWrapped(field.type, named, ns, seen))
  }
  if (node.type === 'array') return hasPrintedWrapped(node.items, named, namespace, seen)
  if (node.type === 'map') return hasPrintedWrapped(node.values, named, namespace, seen)
  return typeof node.type === 'object' && hasPrintedWrapped(node.type, named, namespace, seen)
}

function printable(
  schema: unknown,
  value: unknown,
  named: ReadonlyMap<string, unknown>,
  namespace: string | undefined,
): unknown {
  if (value === null || value === undefined) return value
  if (typeof schema === 'string') {
    const target = named.get(fullName(schema, namespace)) ?? named.get(schema)
    return target === undefined ? value : printable(target, value, named, namespace)
  }
  if (Array.isArray(schema))
    return printableUnion(unionShape(schema, named, namespace), value, named, namespace)
  if (typeof schema !== 'object' || schema === null) return value
  const node = schema as Record<string, unknown>
  if (typeof node.logicalType === 'string') return value
  switch (node.type) {
    case 'record':
    case 'error': {
      if (typeof value !== 'object' || Array.isArray(value)) return value
      const ns = recordNamespace(node, namespace)
      const record = value as Record<string, unknown>
      const out: Record<string, unknown> = { ...record }
      for (const field of (node.fields as { name: string; type: unknown }[]) ?? []) {
        if (Object.hasOwn(record, field.name))
          setOwn(out, field.name, printable(field.type, record[field.name], named, ns))
      }
      return out
    }
    case 'array':
      return Array.isArray(value) ? value.map((item) => printable(node.items, item, named, namespace)) : value
    case 'map':
      if (typeof value !== 'object' || Array.isArray(value)) return value
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([key, item]) => [
          key,
          printable(node.values, item, named, namespace),
        ]),
      )
  }
  return typeof node.type === 'object' ? printable(node.type, value, named, namespace) : value
}

function printableUnion(
  shape: UnionShape,
  value: unknown,
  named: ReadonlyMap<string, unknown>,
  namespace: string | undefined,
): unknown {
  if (!shape.unwrapped) {
    // Wrapped by the deserializer: { "<branch>": value }.
    const [name, inner] = Object.entries(value as Record<string, unknown>)[0] ?? []
    const branch = shape.branches.find((b) => b.name === name)
    return branch === undefined ? value : { [name!]: printable(branch.schema, inner, named, namespace) }
  }
  const kind = valueKindOf(value)
  const branch = shape.branches.find((b) => kind !== undefined && b.kinds?.includes(kind))
  if (branch === undefined) return value
  const inner = printable(branch.schema, value, named, namespace)
  return shape.printedWrapped ? { [branch.name]: inner } : inner
}

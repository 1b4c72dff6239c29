import { fullName, namedSchema } from './avro-schema-names.js'

const INTEGERS = new Set(['int', 'long'])
const DOUBLES = new Set(['double', 'float'])

/**
 * A record given as JSON, with each integer written where the Avro schema has a `double` or a `float` made a double
 * (`double(5)`), as the Avro serializer gives that field to the rules (Java's serde writes it `5.0`), so that
 * `rules test` gives the serializer's verdict for `{"total": 5}`. Records, lists, maps, named types (also those of
 * `references`) and unions with one double branch and no integer branch are followed; every other value is left as
 * it is.
 */
export function avroRuleDoubles(
  schemaText: string,
  references: Iterable<string>,
  record: unknown,
  double: (value: number) => unknown,
): unknown {
  const { schema, named } = namedSchema(schemaText, references)
  return walk(schema, record, named, undefined, double, 0)
}

function walk(
  schema: unknown,
  value: unknown,
  named: Map<string, unknown>,
  namespace: string | undefined,
  double: (value: number) => unknown,
  depth: number,
): unknown {
  if (value === null || value === undefined || depth > 1000) return value
  if (typeof schema === 'string') {
    if (DOUBLES.has(schema))
      return typeof value === 'number' && Number.isInteger(value) ? double(value) : value
    const type = named.get(fullName(schema, namespace)) ?? named.get(schema)
    return type === undefined ? value : walk(type, value, named, namespace, double, depth + 1)
  }
  if (Array.isArray(schema)) {
    const names = schema.map((branch) =>
      typeof branch === 'string' ? branch : (branch as { type?: unknown })?.type,
    )
    if (typeof value === 'number' && names.some((name) => INTEGERS.has(name as string))) return value
    const branches = schema.filter((branch) => branch !== 'null')
    return branches.length === 1 ? walk(branches[0], value, named, namespace, double, depth + 1) : value
  }
  if (typeof schema !== 'object' || schema === null) return value
  const node = schema as Record<string, unknown>
  if (node.logicalType !== undefined) return value
  const ns =
    typeof node.name === 'string' && (node.type === 'record' || node.type === 'error')
      ? namespaceOf(fullName(node.name, typeof node.namespace === 'string' ? node.namespace : namespace))
      : namespace
  switch (node.type) {
    case 'record':
    case 'error': {
      if (typeof value !== 'object' || Array.isArray(value) || !Array.isArray(node.fields)) return value
      const out: Record<string, unknown> = { ...(value as Record<string, unknown>) }
      for (const field of node.fields as { name: string; type: unknown }[]) {
        if (!Object.hasOwn(value, field.name)) continue
        const item = (value as Record<string, unknown>)[field.name]
        Object.defineProperty(out, field.name, {
          value: walk(field.type, item, named, ns, double, depth + 1),
          writable: true,
          enumerable: true,
          configurable: true,
        })
      }
      return out
    }
    case 'array':
      return Array.isArray(value)
        ? value.map((item) => walk(node.items, item, named, ns, double, depth + 1))
        : value
    case 'map': {
      if (typeof value !== 'object' || Array.isArray(value)) return value
      const out: Record<string, unknown> = {}
      for (const key of Object.keys(value)) {
        Object.defineProperty(out, key, {
          value: walk(node.values, (value as Record<string, unknown>)[key], named, ns, double, depth + 1),
          writable: true,
          enumerable: true,
          configurable: true,
        })
      }
      return out
    }
    default:
      return walk(node.type, value, named, ns, double, depth + 1)
  }
}

function namespaceOf(full: string): string | undefined {
  return full.includes('.') ? full.slice(0, full.lastIndexOf('.')) : undefined
}

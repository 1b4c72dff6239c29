/** The full name of an Avro named type: `name` when dotted, else `namespace.name` (just `name` without a namespace). */
export function fullName(name: string, namespace: string | undefined): string {
  return name.includes('.') || namespace === undefined || namespace === '' ? name : `${namespace}.${name}`
}

/** Adds every named type (record, error, enum, fixed) `schema` defines to `into`, by full name. */
export function collectNames(
  schema: unknown,
  namespace: string | undefined,
  into: Map<string, unknown>,
): void {
  if (Array.isArray(schema)) {
    for (const branch of schema) collectNames(branch, namespace, into)
    return
  }
  if (typeof schema !== 'object' || schema === null) return
  const node = schema as Record<string, unknown>
  let ns = namespace
  if (typeof node.name === 'string' && ['record', 'error', 'enum', 'fixed'].includes(node.type as string)) {
    const full = fullName(node.name, typeof node.namespace === 'string' ? node.namespace : namespace)
    into.set(full, node)
    ns = full.includes('.') ? full.slice(0, full.lastIndexOf('.')) : undefined
  }
  if (Array.isArray(node.fields)) {
    for (const field of node.fields) collectNames((field as { type?: unknown }).type, ns, into)
  }
  if (node.items !== undefined) collectNames(node.items, ns, into)
  if (node.values !== undefined) collectNames(node.values, ns, into)
  if (typeof node.type === 'object') collectNames(node.type, ns, into)
}

/**
 * An Avro schema (its JSON text) and the named types it can use: its own and those of the artifacts it references
 * (Java's auto-registration puts each nested record and enum in an artifact of its own), by full name.
 */
export function namedSchema(
  schemaText: string,
  references: Iterable<string> = [],
): { schema: unknown; named: Map<string, unknown> } {
  const schema = JSON.parse(schemaText) as unknown
  const named = new Map<string, unknown>()
  for (const text of references) collectNames(JSON.parse(text) as unknown, undefined, named)
  collectNames(schema, undefined, named)
  return { schema, named }
}

import { unwrapsUnion, type ValueKind } from '@x/avro-serde/union-rule'
import { fullName } from './avro-schema-names.js'
import { logicalType, primitive } from './codegen/avro-types.js'

/** One branch of an Avro union: its schema (a named type resolved), its name in the wrapped form, what it takes. */
export interface UnionBranch {
  schema: unknown
  /** `null`, `string`, `long` (also for a timestamp), `map`, or a named type's full name. */
  name: string
  /** The kinds of value `@x/avro-serde` writes with it; undefined when unknown (a type not found). */
  kinds: readonly ValueKind[] | undefined
}

/** A union as `@x/avro-serde` represents it (`unions: 'auto'`) and as `x-serde` prints it as JSON. */
export interface UnionShape {
  branches: UnionBranch[]
  /** The deserializer returns bare values: every JavaScript value is taken by at most one branch. */
  unwrapped: boolean
  /**
   * Bare values of two branches would print as the same kind of JSON (bytes, fixed, dates and strings all print as
   * strings; bigints and numbers as numbers), so that the printed value could not tell its branch: printed wrapped.
   */
  printedWrapped: boolean
}

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'])

/** The kind of JSON a value of each kind prints as (`x-serde`'s JSON: bytes as base64, dates as ISO text). */
const JSON_KIND: Record<ValueKind, string> = {
  null: 'null',
  boolean: 'boolean',
  number: 'number',
  bigint: 'number',
  string: 'string',
  bytes: 'string',
  date: 'string',
  array: 'array',
  object: 'object',
}

/** The shape of the union of `branches`, named types looked up in `named` from `namespace`. */
export function unionShape(
  branches: readonly unknown[],
  named: ReadonlyMap<string, unknown>,
  namespace: string | undefined,
): UnionShape {
  const resolved = branches.map((branch) => unionBranch(branch, named, namespace))
  const unwrapped = unwrapsUnion(resolved.map((branch) => branch.kinds))
  let printedWrapped = false
  if (unwrapped) {
    const seen = new Set<string>()
    for (const branch of resolved) {
      const kinds = new Set((branch.kinds ?? []).map((kind) => JSON_KIND[kind]))
      for (const kind of kinds) if (seen.has(kind)) printedWrapped = true
      for (const kind of kinds) seen.add(kind)
    }
  }
  return { branches: resolved, unwrapped, printedWrapped }
}

function unionBranch(
  schema: unknown,
  named: ReadonlyMap<string, unknown>,
  namespace: string | undefined,
): UnionBranch {
  if (typeof schema === 'string') {
    if (PRIMITIVES.has(schema)) {
      const rendered = primitive(schema, 'auto')
      return { schema, name: rendered.branch, kinds: rendered.kinds }
    }
    const full = named.has(fullName(schema, namespace)) ? fullName(schema, namespace) : schema
    const target = named.get(full)
    if (target === undefined) return { schema, name: full, kinds: undefined }
    return { ...unionBranch(target, named, namespace), name: full }
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { schema, name: String(schema), kinds: undefined }
  }
  const node = schema as Record<string, unknown>
  const type = node.type
  const name =
    typeof node.name === 'string' && ['record', 'error', 'enum', 'fixed'].includes(type as string)
      ? fullName(node.name, typeof node.namespace === 'string' ? node.namespace : namespace)
      : undefined
  const logical = typeof node.logicalType === 'string' ? logicalType(node, type) : undefined
  if (logical !== undefined) return { schema, name: name ?? logical.branch, kinds: logical.kinds }
  switch (type) {
    case 'record':
    case 'error':
      return { schema, name: name!, kinds: ['object'] }
    case 'enum':
      return { schema, name: name!, kinds: ['string'] }
    case 'fixed':
      return { schema, name: name!, kinds: ['bytes'] }
    case 'array':
      return { schema, name: 'array', kinds: ['array'] }
    case 'map':
      return { schema, name: 'map', kinds: ['object'] }
  }
  return unionBranch(type, named, namespace)
}

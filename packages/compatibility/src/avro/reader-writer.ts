import type { AvroType } from './schema.js'

/** Avro's kinds of incompatibility (`SchemaIncompatibilityType`). */
export type IncompatibilityKind =
  | 'NAME_MISMATCH'
  | 'FIXED_SIZE_MISMATCH'
  | 'MISSING_ENUM_SYMBOLS'
  | 'READER_FIELD_MISSING_DEFAULT_VALUE'
  | 'TYPE_MISMATCH'
  | 'MISSING_UNION_BRANCH'

/** One incompatibility as Apicurio reports it: Avro's message and the JSON-pointer-like location in the reader. */
export interface Incompatibility {
  readonly kind: IncompatibilityKind
  readonly description: string
  readonly context: string
}

type Resolved = Exclude<AvroType, { kind: 'ref' }>

/**
 * Whether data written with `writer` can be read with `reader`, as Apache Avro's
 * `SchemaCompatibility.checkReaderWriterCompatibility` decides it (which Apicurio's Avro compatibility checker
 * runs), with every incompatibility it would list, in its order and wording: `reader type: INT not compatible with
 * writer type: STRING` at `/fields/0/type`, a field without default named at `/fields/1`, `expected: com.x.R` at
 * `/name`, missing enum symbols `[C]` at `/symbols`, `expected: 4, found: 8` at `/size`, `reader union lacking
 * writer type: STRING`. Recursive types end: a pair already under check counts as compatible.
 */
export function readerWriterIncompatibilities(reader: AvroType, writer: AvroType): Incompatibility[] {
  const found: Incompatibility[] = []
  check(resolve(reader), resolve(writer), [], found, new Map())
  return found
}

/** Results per named (reader, writer) pair, `'busy'` while it is under check (Avro's memo of `ReaderWriter`s). */
type Memos = Map<string, Incompatibility[] | 'busy'>

function resolve(type: AvroType): Resolved {
  let current = type
  while (current.kind === 'ref') current = current.target as AvroType
  return current
}

function typeName(type: Resolved): string {
  switch (type.kind) {
    case 'primitive':
      return type.type.toUpperCase()
    default:
      return type.kind.toUpperCase()
  }
}

function fullName(type: { name: string; namespace: string | null }): string {
  return type.namespace === null ? type.name : `${type.namespace}.${type.name}`
}

function at(path: readonly string[]): string {
  return `/${path.join('/')}`
}

/** Numeric and text promotions Avro allows from writer to reader. */
const PROMOTIONS: Readonly<Record<string, readonly string[]>> = {
  long: ['int'],
  float: ['int', 'long'],
  double: ['int', 'long', 'float'],
  bytes: ['string'],
  string: ['bytes'],
}

function check(
  reader: Resolved,
  writer: Resolved,
  path: string[],
  found: Incompatibility[],
  memos: Memos,
): void {
  if (!('name' in reader && 'name' in writer)) {
    checkPair(reader, writer, path, found, memos)
    return
  }
  // A named pair under check already (a recursive schema) counts as compatible; one checked before gives the same
  // result (at the location where it was first met), as Avro's memo does.
  const key = `${reader.kind}\u0000${fullName(reader)}\u0000${fullName(writer)}`
  const memo = memos.get(key)
  if (memo === 'busy') return
  if (memo !== undefined) {
    found.push(...memo)
    return
  }
  memos.set(key, 'busy')
  const local: Incompatibility[] = []
  checkPair(reader, writer, path, local, memos)
  memos.set(key, local)
  found.push(...local)
}

function checkPair(
  reader: Resolved,
  writer: Resolved,
  path: string[],
  found: Incompatibility[],
  memos: Memos,
): void {
  if (
    reader.kind === writer.kind &&
    (reader.kind !== 'primitive' || reader.type === (writer as typeof reader).type)
  ) {
    sameKind(reader, writer, path, found, memos)
    return
  }
  if (writer.kind === 'union') {
    // Every branch the writer may have written must be readable.
    writer.types.forEach((branch, index) => {
      check(reader, resolve(branch), [...path, String(index)], found, memos)
    })
    return
  }
  if (reader.kind === 'union') {
    const readable = reader.types.some((branch) => {
      const probe: Incompatibility[] = []
      check(resolve(branch), writer, path, probe, memos)
      return probe.length === 0
    })
    if (!readable) {
      found.push({
        kind: 'MISSING_UNION_BRANCH',
        description: `reader union lacking writer type: ${typeName(writer)}`,
        context: at(path),
      })
    }
    return
  }
  if (
    reader.kind === 'primitive' &&
    writer.kind === 'primitive' &&
    PROMOTIONS[reader.type]?.includes(writer.type)
  ) {
    return
  }
  found.push({
    kind: 'TYPE_MISMATCH',
    description: `reader type: ${typeName(reader)} not compatible with writer type: ${typeName(writer)}`,
    context: at(path),
  })
}

function sameKind(
  reader: Resolved,
  writer: Resolved,
  path: string[],
  found: Incompatibility[],
  memos: Memos,
): void {
  switch (reader.kind) {
    case 'primitive':
      return
    case 'array':
      check(resolve(reader.items), resolve((writer as typeof reader).items), [...path, 'items'], found, memos)
      return
    case 'map':
      check(
        resolve(reader.values),
        resolve((writer as typeof reader).values),
        [...path, 'values'],
        found,
        memos,
      )
      return
    case 'union':
      ;(writer as typeof reader).types.forEach((branch, index) => {
        check(reader, resolve(branch), [...path, String(index)], found, memos)
      })
      return
    case 'fixed': {
      const w = writer as typeof reader
      checkName(reader, w, path, found)
      if (reader.size !== w.size) {
        found.push({
          kind: 'FIXED_SIZE_MISMATCH',
          description: `expected: ${String(w.size)}, found: ${String(reader.size)}`,
          context: at([...path, 'size']),
        })
      }
      return
    }
    case 'enum': {
      const w = writer as typeof reader
      checkName(reader, w, path, found)
      const readerSymbols = Array.isArray(reader.symbols) ? (reader.symbols as string[]) : []
      const missing = (Array.isArray(w.symbols) ? (w.symbols as string[]) : [])
        .filter((symbol) => !readerSymbols.includes(symbol))
        .sort()
      const hasDefault = typeof reader.default === 'string' && readerSymbols.includes(reader.default)
      if (missing.length > 0 && !hasDefault) {
        found.push({
          kind: 'MISSING_ENUM_SYMBOLS',
          description: `[${missing.join(', ')}]`,
          context: at([...path, 'symbols']),
        })
      }
      return
    }
    case 'record': {
      const w = writer as typeof reader
      checkName(reader, w, path, found)
      reader.fields.forEach((field, index) => {
        const fieldPath = [...path, 'fields', String(index)]
        const written =
          w.fields.find((candidate) => candidate.name === field.name) ??
          w.fields.find((candidate) => aliasesOf(field.aliases).includes(candidate.name))
        if (written === undefined) {
          if (field.default === undefined)
            found.push({
              kind: 'READER_FIELD_MISSING_DEFAULT_VALUE',
              description: field.name,
              context: at(fieldPath),
            })
          return
        }
        check(resolve(field.type), resolve(written.type), [...fieldPath, 'type'], found, memos)
      })
      return
    }
  }
}

/** Avro's `schemaNameEquals`: the same unqualified name, or the writer's full name among the reader's aliases. */
function checkName(
  reader: { name: string; namespace: string | null; aliases?: unknown },
  writer: { name: string; namespace: string | null },
  path: string[],
  found: Incompatibility[],
): void {
  if (reader.name === writer.name) return
  const aliases = aliasesOf(reader.aliases).map((alias) =>
    alias.includes('.') || reader.namespace === null ? alias : `${reader.namespace}.${alias}`,
  )
  if (aliases.includes(fullName(writer))) return
  found.push({
    kind: 'NAME_MISMATCH',
    description: `expected: ${fullName(writer)}`,
    context: at([...path, 'name']),
  })
}

function aliasesOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((alias): alias is string => typeof alias === 'string') : []
}

import { MAX_SCHEMA_DEPTH, SchemaDepthError, schemasTooDeep } from '../nesting.js'
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
 * writer type: STRING`. Recursive types end: a pair already under check counts as compatible. Throws a {@link SchemaDepthError} when the walk goes deeper than {@link MAX_SCHEMA_DEPTH} steps.
 */
export function readerWriterIncompatibilities(reader: AvroType, writer: AvroType): Incompatibility[] {
  const found: Incompatibility[] = []
  check(resolve(reader), resolve(writer), [], found, new Memos())
  return found
}

/**
 * Results per named (reader, writer) pair, `'busy'` while it is under check (Avro's memo of `ReaderWriter`s), and,
 * by writer full name, the readers (`kind` and full name) of the pairs under check.
 */
class Memos {
  readonly #results = new Map<string, Incompatibility[] | 'busy'>()
  readonly #busy = new Map<string, string[]>()
  #depth = 0

  /** One step further into the schemas; throws a {@link SchemaDepthError} past {@link MAX_SCHEMA_DEPTH} steps. */
  enter(): void {
    if (++this.#depth > MAX_SCHEMA_DEPTH) throw new SchemaDepthError(schemasTooDeep('The comparison'))
  }

  leave(): void {
    this.#depth--
  }

  get(key: string): Incompatibility[] | 'busy' | undefined {
    return this.#results.get(key)
  }

  start(key: string, reader: string, writer: string): void {
    this.#results.set(key, 'busy')
    const readers = this.#busy.get(writer)
    if (readers === undefined) this.#busy.set(writer, [reader])
    else readers.push(reader)
  }

  finish(key: string, writer: string, result: Incompatibility[]): void {
    this.#results.set(key, result)
    const readers = this.#busy.get(writer) as string[]
    readers.pop()
    if (readers.length === 0) this.#busy.delete(writer)
  }

  /** The readers (`kind` and full name) whose pair with the writer of this full name is under check. */
  busyReaders(writer: string): readonly string[] {
    return this.#busy.get(writer) ?? []
  }
}

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
  memos.enter()
  try {
    checkNamed(reader, writer, path, found, memos)
  } finally {
    memos.leave()
  }
}

function checkNamed(
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
  const readerKey = namedKey(reader.kind, fullName(reader))
  const writerName = fullName(writer)
  const key = `${readerKey}\u0000${writerName}`
  const memo = memos.get(key)
  if (memo === 'busy') return
  if (memo !== undefined) {
    found.push(...memo)
    return
  }
  memos.start(key, readerKey, writerName)
  const local: Incompatibility[] = []
  checkPair(reader, writer, path, local, memos)
  memos.finish(key, writerName, local)
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
    const branches = branchIndex(reader)
    const readable = candidates(branches, writer, memos).some((index) => {
      const probe: Incompatibility[] = []
      check(branches.types[index] as Resolved, writer, path, probe, memos)
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

/** A named type's memo key part: its kind and full name. */
function namedKey(kind: string, name: string): string {
  return `${kind}\u0000${name}`
}

/** The reader types each writer primitive may be promoted to, the same type first. */
const PROMOTED_FROM: ReadonlyMap<string, readonly string[]> = new Map(
  ['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'].map((writer) => [
    writer,
    [writer, ...Object.keys(PROMOTIONS).filter((reader) => PROMOTIONS[reader]?.includes(writer))],
  ]),
)

/**
 * A reader union's branches, resolved, with the positions of those that may read a writer type: by primitive type,
 * by kind and simple name (Avro matches names without their namespace), by kind and alias (a full name), by kind
 * and full name; arrays, maps and anything else (a nested union) are tried for every writer type of their kind.
 */
interface BranchIndex {
  readonly types: readonly Resolved[]
  readonly primitives: Map<string, number[]>
  readonly names: Map<string, number[]>
  readonly aliases: Map<string, number[]>
  readonly fullNames: Map<string, number[]>
  readonly arrays: number[]
  readonly maps: number[]
  readonly others: number[]
}

const BRANCH_INDEXES = new WeakMap<AvroType, BranchIndex>()

function push(map: Map<string, number[]>, key: string, index: number): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [index])
  else list.push(index)
}

function branchIndex(union: Extract<Resolved, { kind: 'union' }>): BranchIndex {
  const known = BRANCH_INDEXES.get(union)
  if (known !== undefined) return known
  const index: BranchIndex = {
    types: union.types.map(resolve),
    primitives: new Map(),
    names: new Map(),
    aliases: new Map(),
    fullNames: new Map(),
    arrays: [],
    maps: [],
    others: [],
  }
  index.types.forEach((type, at) => {
    switch (type.kind) {
      case 'primitive':
        push(index.primitives, type.type, at)
        return
      case 'array':
        index.arrays.push(at)
        return
      case 'map':
        index.maps.push(at)
        return
      case 'record':
      case 'enum':
      case 'fixed':
        push(index.names, namedKey(type.kind, type.name), at)
        push(index.fullNames, namedKey(type.kind, fullName(type)), at)
        for (const alias of qualifiedAliases(type)) push(index.aliases, namedKey(type.kind, alias), at)
        return
      default:
        index.others.push(at)
    }
  })
  BRANCH_INDEXES.set(union, index)
  return index
}

/**
 * The positions, in order, of the reader branches that may read `writer`: every other branch fails at once (a
 * different type, or a name that neither matches nor is aliased), unless its pair with `writer` is under check,
 * which counts as readable (a recursive schema).
 */
function candidates(index: BranchIndex, writer: Resolved, memos: Memos): number[] {
  const found: number[] = [...index.others]
  switch (writer.kind) {
    case 'primitive':
      for (const type of PROMOTED_FROM.get(writer.type) ?? [writer.type])
        found.push(...(index.primitives.get(type) ?? []))
      break
    case 'array':
      found.push(...index.arrays)
      break
    case 'map':
      found.push(...index.maps)
      break
    case 'record':
    case 'enum':
    case 'fixed': {
      const writerName = fullName(writer)
      found.push(...(index.names.get(namedKey(writer.kind, writer.name)) ?? []))
      found.push(...(index.aliases.get(namedKey(writer.kind, writerName)) ?? []))
      for (const reader of memos.busyReaders(writerName)) found.push(...(index.fullNames.get(reader) ?? []))
      break
    }
    default:
      break
  }
  return found.length < 2 ? found : [...new Set(found)].sort((a, b) => a - b)
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
  if (qualifiedAliases(reader).includes(fullName(writer))) return
  found.push({
    kind: 'NAME_MISMATCH',
    description: `expected: ${fullName(writer)}`,
    context: at([...path, 'name']),
  })
}

/** A named type's aliases as full names: one without a dot is in the type's namespace. */
function qualifiedAliases(type: { namespace: string | null; aliases?: unknown }): string[] {
  return aliasesOf(type.aliases).map((alias) =>
    alias.includes('.') || type.namespace === null ? alias : `${type.namespace}.${alias}`,
  )
}

function aliasesOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((alias): alias is string => typeof alias === 'string') : []
}

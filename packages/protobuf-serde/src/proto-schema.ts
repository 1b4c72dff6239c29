import type { ResolvedReference } from '@x/serde-core'
import protobuf from 'protobufjs'
import { looksSerialized, protoTextOfSerialized } from './serialized-descriptor.js'
import { WELL_KNOWN_PATHS, wellKnownJson } from './well-known.js'

/**
 * `.proto` text at run time: the main file and its imports (Apicurio artifact references, by import path) parsed into
 * one protobufjs `Root`; well-known types (`google/protobuf/*.proto`) from protobufjs itself, without a registry
 * round trip; `map_entry` messages (how Java registers maps, Wire-reformatted) turned back into maps; the messages the
 * main file declares, in order, with their Confluent message indexes.
 */

/** True for an import the engine provides itself (no registry reference needed). */
export function isWellKnownImport(path: string): boolean {
  return WELL_KNOWN_PATHS.has(path)
}

/** An import of the `.proto` text that neither the references nor the well-known types provide. */
export class MissingImportError extends Error {
  override name = 'MissingImportError'
  readonly imports: readonly string[]

  constructor(imports: readonly string[], given: boolean) {
    super(
      `it imports ${imports.map((i) => `'${i}'`).join(', ')}, which ${
        given ? 'none of its references provides' : 'needs its references'
      }`,
    )
    this.imports = imports
  }
}

/** A `.proto` text that does not parse or resolve, with protobufjs's reason. */
export class ProtoSyntaxError extends Error {
  override name = 'ProtoSyntaxError'
}

const PARSE_OPTIONS = { keepCase: true, alternateCommentMode: true } as const

function parseInto(root: protobuf.Root, text: string, what: string): protobuf.IParserResult {
  let source = text
  if (looksSerialized(text)) {
    // Confluent's serialized form (the base64 of a FileDescriptorProto), as its JavaScript serdes register it.
    try {
      source = protoTextOfSerialized(text)
    } catch (error) {
      throw new ProtoSyntaxError(
        `${what}: base64 text that is not a serialized FileDescriptorProto (${(error as Error).message})`,
      )
    }
  }
  try {
    return protobuf.parse(source, root, PARSE_OPTIONS)
  } catch (error) {
    throw new ProtoSyntaxError(`${what}: ${(error as Error).message}`)
  }
}

/** One message the main file declares: its type, and its path of indexes among messages (Confluent's). */
export interface DeclaredMessage {
  readonly type: protobuf.Type
  readonly indexes: readonly number[]
}

/** A parsed `.proto` file with its imports, resolved. */
export interface ProtoSchema {
  readonly root: protobuf.Root
  /** The main file's package (`''` without one). */
  readonly packageName: string
  /** Every message the main file declares (nested ones too), in declaration order, depth first. */
  readonly messages: readonly DeclaredMessage[]
}

/**
 * Parses a main `.proto` text with the referenced files it imports (`references`, by import path = reference name).
 * Throws `MissingImportError` when an import is neither well-known nor among the references.
 */
export function parseProto(text: string, references: readonly ResolvedReference[] = []): ProtoSchema {
  // The main file alone first: its imports and its own declarations, in order.
  const alone = new protobuf.Root()
  const main = parseInto(alone, text, 'the schema')
  const byName = new Map(references.map((reference) => [reference.name, reference]))
  const root = new protobuf.Root()
  const loaded = new Set<string>()
  const missing: string[] = []
  const load = (path: string): void => {
    if (loaded.has(path)) return
    loaded.add(path)
    const wellKnown = wellKnownJson(path)
    if (wellKnown !== undefined) {
      root.addJSON(wellKnown.nested as Record<string, protobuf.AnyNestedObject>)
      return
    }
    const reference = byName.get(path)
    if (reference === undefined) {
      missing.push(path)
      return
    }
    const parsed = parseInto(root, reference.schema, `the referenced file '${path}'`)
    for (const child of [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])]) load(child)
  }
  for (const path of [...(main.imports ?? []), ...(main.weakImports ?? [])]) load(path)
  if (missing.length > 0) throw new MissingImportError(missing, references.length > 0)
  parseInto(root, text, 'the schema')
  restoreMaps(root)
  try {
    root.resolveAll()
  } catch (error) {
    throw new ProtoSyntaxError(`the schema does not resolve: ${(error as Error).message}`)
  }
  const packageName = main.package ?? ''
  const messages: DeclaredMessage[] = []
  collectDeclared(namespaceOf(alone, packageName), root, [], messages)
  if (messages.length === 0) throw new ProtoSyntaxError('the schema declares no message')
  return { root, packageName, messages }
}

function namespaceOf(root: protobuf.Root, packageName: string): protobuf.Namespace {
  return packageName === '' ? root : (root.lookup(packageName) as protobuf.Namespace)
}

/** The main file's messages (looked up in the full root by their full names), depth first, with their indexes. */
function collectDeclared(
  namespace: protobuf.NamespaceBase,
  root: protobuf.Root,
  path: readonly number[],
  out: DeclaredMessage[],
): void {
  let index = 0
  for (const nested of namespace.nestedArray) {
    if (!(nested instanceof protobuf.Type)) continue
    const indexes = [...path, index++]
    out.push({ type: root.lookupType(nested.fullName.slice(1)), indexes })
    collectDeclared(nested, root, indexes, out)
  }
}

/**
 * Java registers maps Wire-reformatted: `map<K, V> f = n;` becomes `repeated FEntry f = n;` with a nested
 * `message FEntry { option map_entry = true; K key = 1; V value = 2; }`. The bytes are the same as a map's; turn
 * such fields back into map fields so that values are maps (protobufjs would read arrays of `{ key, value }`).
 */
function restoreMaps(namespace: protobuf.NamespaceBase): void {
  for (const nested of namespace.nestedArray) {
    if (nested instanceof protobuf.Type) {
      for (const field of [...nested.fieldsArray]) {
        if (!field.repeated || field.map) continue
        const entry = entryTypeOf(nested, field.type)
        if (entry === undefined) continue
        const key = entry.fields.key
        const value = entry.fields.value
        if (key === undefined || value === undefined) continue
        nested.remove(field)
        nested.add(new protobuf.MapField(field.name, field.id, key.type, value.type, field.options))
      }
    }
    if (nested instanceof protobuf.Namespace) restoreMaps(nested)
  }
}

function entryTypeOf(owner: protobuf.Type, typeName: string): protobuf.Type | undefined {
  // Before resolving, a field names its type as written: a nested `XxxEntry`, possibly with a leading dot and path.
  const simple = typeName.slice(typeName.lastIndexOf('.') + 1)
  const candidate = owner.nested?.[simple]
  if (!(candidate instanceof protobuf.Type)) return undefined
  return candidate.options?.map_entry === true ? candidate : undefined
}

/** The import paths of a `.proto` text. */
export function importsOf(text: string): string[] {
  const parsed = parseInto(new protobuf.Root(), text, 'the schema')
  return [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])]
}

/** The import paths of a `.proto` text that need registry references (all but the well-known ones). */
export function importsNeedingReferences(text: string): string[] {
  return importsOf(text).filter((path) => !WELL_KNOWN_PATHS.has(path))
}

/** The full names of the messages a `.proto` text declares, in order, depth first (imports are not needed). */
export function declaredMessageNames(text: string): string[] {
  const alone = new protobuf.Root()
  const parsed = parseInto(alone, text, 'the schema')
  const names: string[] = []
  const visit = (namespace: protobuf.NamespaceBase): void => {
    for (const nested of namespace.nestedArray) {
      if (!(nested instanceof protobuf.Type)) continue
      names.push(nested.fullName.slice(1))
      visit(nested)
    }
  }
  visit(namespaceOf(alone, parsed.package ?? ''))
  return names
}

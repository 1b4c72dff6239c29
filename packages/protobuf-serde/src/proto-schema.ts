import type { ResolvedReference } from '@x/serde-core'
import protobuf from 'protobufjs'
import {
  importsOfParsed,
  type LoadedProto,
  loadProto,
  MissingImportError,
  ProtoSyntaxError,
  parseInto,
} from './proto-loader.js'
import { WELL_KNOWN_PATHS } from './well-known.js'

export { MissingImportError, ProtoSyntaxError } from './proto-loader.js'

/**
 * `.proto` text at run time: the main file and its imports (Apicurio artifact references, by import path) loaded into
 * one protobufjs `Root` by the package's one import loader (`loadProto`); well-known types (`google/protobuf/*.proto`) from protobufjs itself, without a registry
 * round trip; `map_entry` messages (how Java registers maps, Wire-reformatted) turned back into maps; the messages the
 * main file declares, in order, with their Confluent message indexes.
 */

/** True for an import the engine provides itself (no registry reference needed). */
export function isWellKnownImport(path: string): boolean {
  return WELL_KNOWN_PATHS.has(path)
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
  // The main file alone: its own declarations, in order.
  const alone = new protobuf.Root()
  parseInto(alone, text, 'the schema')
  const byName = new Map(references.map((reference) => [reference.name, reference.schema]))
  let loaded: LoadedProto
  try {
    loaded = loadProto(text, { readImport: (path) => byName.get(path) })
  } catch (error) {
    if (!(error instanceof MissingImportError)) throw error
    throw new MissingImportError(
      error.imports,
      error.importers,
      references.length > 0 ? 'which none of its references provides' : 'which needs its references',
    )
  }
  const { root, packageName } = loaded
  restoreMaps(root)
  try {
    root.resolveAll()
  } catch (error) {
    throw new ProtoSyntaxError(`the schema does not resolve: ${(error as Error).message}`)
  }
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
  return importsOfParsed(parseInto(new protobuf.Root(), text, 'the schema'))
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

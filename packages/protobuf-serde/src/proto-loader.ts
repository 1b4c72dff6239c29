import protobuf from 'protobufjs'
import { looksSerialized, protoTextOfSerialized } from './serialized-descriptor.js'
import { wellKnownJson } from './well-known.js'

/**
 * The one loader of `.proto` files with their imports, used by the codec (imports from registry references), the
 * CLI's codegen and its JSON input (imports from files): the main text parsed into one protobufjs `Root` with every
 * file it imports, recursively; well-known types (`google/protobuf/*.proto`) from protobufjs itself. An import that
 * cannot be found is a {@link MissingImportError} naming it, never a type left unresolved.
 */

/** A file an import names: `name` identifies it among the files loaded (a file path, or the import path itself). */
export interface ProtoImportFile {
  /** Where the file was found: a later import is resolved from it, and a file of the same name is loaded once. */
  readonly name: string
  readonly text: string
}

/**
 * Finds the file an import names: `path` as written in the `import` statement, `importer` the name of the file that
 * imports it. A string is the file's text (its name is then `path`); `undefined` when it cannot be found.
 */
export type ProtoImportReader = (path: string, importer: string) => ProtoImportFile | string | undefined

/** Options of {@link loadProto}. */
export interface LoadProtoOptions {
  /**
   * The name of the main file (a file path, say), given to `readImport` as the importer of its imports.
   * @default 'the schema'
   */
  name?: string
  /** Finds each imported file other than the well-known types. @default none: every other import is missing */
  readImport?: ProtoImportReader
}

/** A `.proto` file loaded with its imports, not yet resolved. */
export interface LoadedProto {
  /** The main file and every file it imports, parsed, field types not yet resolved. */
  readonly root: protobuf.Root
  /** The main file's package (`''` without one). */
  readonly packageName: string
  /** The main file's own imports, as written. */
  readonly imports: readonly string[]
}

/** Imports of a `.proto` text that `readImport` could not find: each named, with the file that imports it. */
export class MissingImportError extends Error {
  override name = 'MissingImportError'
  /** The import paths not found, in the order met. */
  readonly imports: readonly string[]
  /** For each of `imports`, the name of the file that imports it. */
  readonly importers: readonly string[]

  constructor(imports: readonly string[], importers: readonly string[], detail = 'which cannot be found') {
    super(`it imports ${imports.map((i) => `'${i}'`).join(', ')}, ${detail}`)
    this.imports = imports
    this.importers = importers
  }
}

/** A `.proto` text that does not parse or resolve, with protobufjs's reason. */
export class ProtoSyntaxError extends Error {
  override name = 'ProtoSyntaxError'
}

const PARSE_OPTIONS = { keepCase: true, alternateCommentMode: true } as const

/** Parses `text` into `root`; Confluent's serialized form (base64 of a FileDescriptorProto) is taken too. */
export function parseInto(root: protobuf.Root, text: string, what: string): protobuf.IParserResult {
  let source = text
  if (looksSerialized(text)) {
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

/** The import paths of a parsed file, weak ones included. */
export function importsOfParsed(parsed: protobuf.IParserResult): string[] {
  return [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])]
}

/**
 * The paths a `.proto` text imports (`public` and `weak` ones too), as protobufjs's parser reads them: comments and
 * strings are never taken for imports. A serialized FileDescriptorProto (base64) is read too.
 *
 * @throws {@link ProtoSyntaxError} when the text does not parse.
 */
export function importsOfProto(text: string): string[] {
  return importsOfParsed(parseInto(new protobuf.Root(), text, 'the schema'))
}

/**
 * Loads a `.proto` text with every file it imports, recursively, into one `Root` (not resolved: call
 * `root.resolveAll()`). Each import is a well-known type, or what `readImport` finds; a file is loaded once.
 *
 * @throws {@link MissingImportError} naming every import that could not be found (and which file imports it).
 * @throws {@link ProtoSyntaxError} when a file does not parse.
 */
export function loadProto(text: string, options: LoadProtoOptions = {}): LoadedProto {
  const mainName = options.name ?? 'the schema'
  const readImport = options.readImport
  const root = new protobuf.Root()
  const main = parseInto(root, text, mainName)
  const loaded = new Set<string>([mainName])
  const missing: string[] = []
  const importers: string[] = []
  const visit = (importer: string, imports: readonly string[]): void => {
    for (const path of imports) {
      const wellKnown = wellKnownJson(path)
      if (wellKnown !== undefined) {
        if (loaded.has(`well-known:${path}`)) continue
        loaded.add(`well-known:${path}`)
        root.addJSON(wellKnown.nested as Record<string, protobuf.AnyNestedObject>)
        continue
      }
      const found = readImport?.(path, importer)
      if (found === undefined) {
        if (!missing.includes(path)) {
          missing.push(path)
          importers.push(importer)
        }
        continue
      }
      const file = typeof found === 'string' ? { name: path, text: found } : found
      if (loaded.has(file.name)) continue
      loaded.add(file.name)
      const parsed = parseInto(root, file.text, `the imported file '${path}'`)
      visit(file.name, importsOfParsed(parsed))
    }
  }
  const imports = importsOfParsed(main)
  visit(mainName, imports)
  if (missing.length > 0) throw new MissingImportError(missing, importers)
  return { root, packageName: main.package ?? '', imports }
}

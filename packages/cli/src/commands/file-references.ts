import { importsOfProto } from '@x/protobuf-serde'
import { UsageError } from '../usage-error.js'
import type { SchemaFile } from './register.js'

/** A schema file's use of another file given on the same command line: the reference to register with it. */
export interface FileDependency {
  /** The reference name: the import path (Protobuf), the `$ref` target (JSON Schema), the full type name (Avro). */
  name: string
  file: SchemaFile
}

/**
 * The files in the order to register them (each after the files it uses) and, for each, the references to the
 * other given files that its text implies: `.proto` imports of a given file's path, JSON Schema `$ref`s to a given
 * file's name or `$id`, Avro named types that another given file defines. What a file uses that no given file
 * provides is left to the registry (or to the config's `references`). A cycle is a `UsageError`.
 */
export function orderByDependencies(files: readonly SchemaFile[]): {
  order: SchemaFile[]
  uses: Map<SchemaFile, FileDependency[]>
} {
  const uses = new Map<SchemaFile, FileDependency[]>()
  const avroDefinitions = new Map<string, SchemaFile>()
  for (const file of files) {
    if (file.artifactType !== 'AVRO') continue
    for (const name of avroNames(file).defined)
      if (!avroDefinitions.has(name)) avroDefinitions.set(name, file)
  }
  for (const file of files) {
    const found = new Map<string, SchemaFile>()
    if (file.artifactType === 'PROTOBUF') {
      for (const path of protoImports(file.text)) {
        const target = files.find((other) => other !== file && endsWithPath(other.path, path))
        if (target !== undefined) found.set(path, target)
      }
    } else if (file.artifactType === 'JSON') {
      for (const ref of jsonRefs(file.text)) {
        const target = files.find(
          (other) =>
            other !== file &&
            other.artifactType === 'JSON' &&
            (endsWithPath(other.path, ref) || jsonId(other.text) === ref),
        )
        if (target !== undefined) found.set(ref, target)
      }
    } else {
      for (const name of avroNames(file).used) {
        const target = avroDefinitions.get(name)
        if (target !== undefined && target !== file) found.set(name, target)
      }
    }
    uses.set(
      file,
      [...found].map(([name, target]) => ({ name, file: target })),
    )
  }
  const order: SchemaFile[] = []
  const state = new Map<SchemaFile, 'visiting' | 'done'>()
  const visit = (file: SchemaFile, chain: readonly string[]): void => {
    if (state.get(file) === 'done') return
    if (state.get(file) === 'visiting')
      throw new UsageError(`The schema files use each other in a cycle: ${[...chain, file.path].join(' → ')}`)
    state.set(file, 'visiting')
    for (const dependency of uses.get(file) ?? []) visit(dependency.file, [...chain, file.path])
    state.set(file, 'done')
    order.push(file)
  }
  for (const file of files) visit(file, [])
  return { order, uses }
}

/** Whether `path` is the file `target` names (an import path, a `$ref`): the same, or ending in `/target`. */
export function endsWithPath(path: string, target: string): boolean {
  const normal = (text: string) => text.replace(/\\/g, '/').replace(/^\.\//, '')
  const a = normal(path)
  const b = normal(target)
  return a === b || a.endsWith(`/${b}`)
}

/**
 * The paths a `.proto` file imports (`import "a/b.proto";`, also `public` and `weak`), as the Protobuf parser reads
 * them: comments and strings are not imports, and several statements may share a line. A file that does not parse
 * implies no references here; registering or checking it then reports its syntax error.
 */
export function protoImports(text: string): string[] {
  try {
    return importsOfProto(text)
  } catch {
    return []
  }
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The targets of a JSON Schema's `$ref`s to other documents (the part before `#`; local `#…` refs left out). */
export function jsonRefs(text: string): string[] {
  const refs = new Set<string>()
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item)
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') {
          const target = value.split('#')[0]!
          if (target !== '') refs.add(target)
        } else walk(value)
      }
    }
  }
  walk(parsedJson(text))
  return [...refs]
}

function jsonId(text: string): string | undefined {
  const schema = parsedJson(text) as { $id?: unknown } | undefined
  return typeof schema?.$id === 'string' ? schema.$id : undefined
}

const AVRO_PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'])

/** The full names an Avro schema defines (records, enums, fixed) and the full names it uses without defining. */
export function avroNames(file: SchemaFile): { defined: Set<string>; used: Set<string> } {
  const defined = new Set<string>()
  const named = new Set<string>()
  const fullName = (name: string, namespace: string | undefined): string =>
    name.includes('.') || namespace === undefined || namespace === '' ? name : `${namespace}.${name}`
  const walk = (node: unknown, namespace: string | undefined): void => {
    if (typeof node === 'string') {
      if (!AVRO_PRIMITIVES.has(node)) named.add(fullName(node, namespace))
    } else if (Array.isArray(node)) {
      for (const branch of node) walk(branch, namespace)
    } else if (typeof node === 'object' && node !== null) {
      const schema = node as Record<string, unknown>
      let inner = namespace
      if (
        (schema.type === 'record' ||
          schema.type === 'error' ||
          schema.type === 'enum' ||
          schema.type === 'fixed') &&
        typeof schema.name === 'string'
      ) {
        const full = fullName(
          schema.name,
          typeof schema.namespace === 'string' ? schema.namespace : namespace,
        )
        defined.add(full)
        inner = full.includes('.') ? full.slice(0, full.lastIndexOf('.')) : undefined
      }
      if (Array.isArray(schema.fields)) {
        for (const field of schema.fields) walk((field as { type?: unknown }).type, inner)
      }
      if (schema.type === 'array') walk(schema.items, namespace)
      else if (schema.type === 'map') walk(schema.values, namespace)
      else if (
        typeof schema.type === 'object' ||
        (typeof schema.type === 'string' &&
          !AVRO_PRIMITIVES.has(schema.type) &&
          !['record', 'error', 'enum', 'fixed', 'array', 'map'].includes(schema.type))
      )
        walk(schema.type, namespace)
    }
  }
  walk(parsedJson(file.text), undefined)
  return { defined, used: new Set([...named].filter((name) => !defined.has(name))) }
}

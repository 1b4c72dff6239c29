import { MAX_SCHEMA_DEPTH, schemasTooDeep } from '../nesting.js'
import {
  type EnumElement,
  type ExtendElement,
  type FieldElement,
  type MessageElement,
  type ProtoFileElement,
  ProtoSyntaxError,
  parseProto,
} from './proto-parser.js'
import { SCALARS } from './scalars.js'
import { WELL_KNOWN_FILES } from './well-known-files.js'

/**
 * What Apicurio's Protobuf `VALIDITY` rule refuses in a file that parses: it links the file as Square Wire's schema
 * loader and protobuf-java's `FileDescriptor.buildFrom` do, so a type must be defined in the file or in a file it
 * imports (a well-known one, or one of the references by its import path), names and numbers must be unique, numbers
 * must be usable, and options must fit their fields.
 */

type SymbolKind = 'package' | 'message' | 'enum' | 'service' | 'field' | 'rpc'

type SymbolTable = Map<string, SymbolKind>

const NUMERIC = new Set(
  [...SCALARS].filter((type) => type !== 'bool' && type !== 'string' && type !== 'bytes'),
)
const FIRST_RESERVED = 19_000
const LAST_RESERVED = 19_999
const MAIN = ''

function join(scope: string, name: string): string {
  return scope === '' ? name : `${scope}.${name}`
}

function parentOf(scope: string): string {
  const dot = scope.lastIndexOf('.')
  return dot === -1 ? '' : scope.slice(0, dot)
}

/** The problems of one .proto text, each a sentence without its final full stop; empty when it links. */
export function protoLinkProblems(text: string, references: Readonly<Record<string, string>>): string[] {
  const problems: string[] = []
  const files = new Map<string, ProtoFileElement>([[MAIN, parseProto(text)]])
  const pending = [MAIN]
  while (pending.length > 0) {
    const file = files.get(pending.pop() as string) as ProtoFileElement
    for (const { path } of file.imports) {
      if (Object.hasOwn(WELL_KNOWN_FILES, path) || files.has(path)) continue
      const imported = Object.hasOwn(references, path) ? references[path] : undefined
      if (imported === undefined) {
        problems.push(
          `it imports ${JSON.stringify(path)}, which is neither a well-known file nor a reference`,
        )
        continue
      }
      try {
        files.set(path, parseProto(imported))
        pending.push(path)
      } catch (error) {
        if (!(error instanceof ProtoSyntaxError)) throw error
        problems.push(`the reference ${JSON.stringify(path)} is not valid Protobuf: ${error.message}`)
      }
    }
  }
  const own = new Map<string, SymbolTable>()
  for (const [path, file] of files) own.set(path, definedSymbols(file, problems))
  for (const [path, file] of files) {
    const table: SymbolTable = new Map(own.get(path))
    for (const item of file.imports) addVisible(item.path, files, own, table, new Set(), 0)
    new FileChecker(file, table, problems).check()
  }
  return [...new Set(problems)]
}

/** Adds the symbols of an imported file, and of the files it imports publicly, to `table`. */
function addVisible(
  path: string,
  files: ReadonlyMap<string, ProtoFileElement>,
  own: ReadonlyMap<string, SymbolTable>,
  table: SymbolTable,
  seen: Set<string>,
  depth: number,
): void {
  if (seen.has(path)) return
  if (depth >= MAX_SCHEMA_DEPTH) throw new ProtoSyntaxError(schemasTooDeep('the chain of public imports'))
  seen.add(path)
  const known = Object.hasOwn(WELL_KNOWN_FILES, path) ? WELL_KNOWN_FILES[path] : undefined
  if (known !== undefined) {
    addPackage(table, known.packageName)
    for (const name of known.messages) table.set(join(known.packageName, name), 'message')
    for (const name of known.enums) table.set(join(known.packageName, name), 'enum')
    return
  }
  const symbols = own.get(path)
  if (symbols === undefined) return
  for (const [name, kind] of symbols) if (!table.has(name)) table.set(name, kind)
  for (const item of files.get(path)?.imports ?? []) {
    if (item.isPublic) addVisible(item.path, files, own, table, seen, depth + 1)
  }
}

function addPackage(table: SymbolTable, packageName: string): void {
  if (packageName === '') return
  const parts = packageName.split('.')
  for (let i = 1; i <= parts.length; i++) {
    const name = parts.slice(0, i).join('.')
    if (!table.has(name)) table.set(name, 'package')
  }
}

/** `foo_bar` → `FooBarEntry`, the name of the message a map field stands for. */
function mapEntryName(field: string): string {
  return `${field
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}Entry`
}

/** The JSON name protobuf gives a field: underscores dropped, the letter after each one upper-cased. */
function jsonNameOf(field: FieldElement): string {
  if (field.jsonName !== null) return field.jsonName
  return field.name.replace(/_+(.?)/g, (_all, next: string) => next.toUpperCase())
}

/** The symbols one file defines, by full name; a name defined twice is a problem. */
function definedSymbols(file: ProtoFileElement, problems: string[]): SymbolTable {
  const table: SymbolTable = new Map()
  addPackage(table, file.packageName)
  const enumValues = new Map<string, string>()
  const add = (name: string, kind: SymbolKind): void => {
    if (table.has(name)) problems.push(`${name} is defined more than once`)
    else table.set(name, kind)
  }
  const addEnum = (scope: string, item: EnumElement): void => {
    const name = join(scope, item.name)
    add(name, 'enum')
    for (const [constant] of item.constants) {
      // enum constants are siblings of their enum: two enums of one scope cannot share a constant name
      const key = join(scope, constant)
      const owner = enumValues.get(key)
      if (owner !== undefined)
        problems.push(`the enum constant ${constant} is defined in both ${owner} and ${name}`)
      else enumValues.set(key, name)
    }
  }
  const addFields = (scope: string, fields: readonly FieldElement[]): void => {
    for (const field of fields) {
      add(join(scope, field.name), 'field')
      if (field.type.startsWith('map<')) add(join(scope, mapEntryName(field.name)), 'message')
    }
  }
  const addExtends = (scope: string, items: readonly ExtendElement[]): void => {
    for (const item of items) addFields(scope, item.fields)
  }
  const addMessage = (scope: string, message: MessageElement): void => {
    const name = join(scope, message.name)
    add(name, 'message')
    addFields(name, message.fields)
    for (const nested of message.messages) addMessage(name, nested)
    for (const item of message.enums) addEnum(name, item)
    addExtends(name, message.extends)
  }
  for (const message of file.messages) addMessage(file.packageName, message)
  for (const item of file.enums) addEnum(file.packageName, item)
  addExtends(file.packageName, file.extends)
  for (const service of file.services) {
    const name = join(file.packageName, service.name)
    add(name, 'service')
    for (const rpc of service.rpcs) add(join(name, rpc.name), 'rpc')
  }
  return table
}

/** Finds a type name as protobuf does: from the innermost scope out, a dotted name by its first part. */
function resolve(table: SymbolTable, name: string, scope: string): SymbolKind | undefined {
  if (name.startsWith('.')) return table.get(name.slice(1))
  const dot = name.indexOf('.')
  const first = dot === -1 ? name : name.slice(0, dot)
  let at = scope
  for (;;) {
    const kind = table.get(join(at, first))
    if (dot === -1) {
      if (kind === 'message' || kind === 'enum') return kind
    } else if (kind !== undefined && kind !== 'field' && kind !== 'rpc') {
      // the first part names a package or a type: the rest must be found there, not further out
      return table.get(join(at, name))
    }
    if (at === '') return undefined
    at = parentOf(at)
  }
}

class FileChecker {
  readonly #file: ProtoFileElement
  readonly #table: SymbolTable
  readonly #problems: string[]

  constructor(file: ProtoFileElement, table: SymbolTable, problems: string[]) {
    this.#file = file
    this.#table = table
    this.#problems = problems
  }

  check(): void {
    const scope = this.#file.packageName
    for (const message of this.#file.messages) this.#message(scope, message)
    for (const item of this.#file.enums) this.#enum(scope, item)
    this.#extends(scope, this.#file.extends)
    for (const service of this.#file.services) {
      const name = join(scope, service.name)
      for (const rpc of service.rpcs) {
        for (const type of [rpc.requestType, rpc.responseType]) {
          const kind = resolve(this.#table, type, name)
          if (kind !== 'message')
            this.#problems.push(
              `the type ${type} of the rpc ${join(name, rpc.name)} is not a defined message`,
            )
        }
      }
    }
  }

  #message(scope: string, message: MessageElement): void {
    const name = join(scope, message.name)
    const byNumber = new Map<number, string>()
    const jsonNames = new Map<string, string>()
    for (const field of message.fields) {
      const where = `the field ${join(name, field.name)}`
      if (field.tag >= FIRST_RESERVED && field.tag <= LAST_RESERVED)
        this.#problems.push(`${where} uses the number ${field.tag}, which protobuf reserves for itself`)
      const other = byNumber.get(field.tag)
      if (other !== undefined && other !== field.name)
        this.#problems.push(`the fields ${other} and ${field.name} of ${name} share the number ${field.tag}`)
      byNumber.set(field.tag, field.name)
      for (const item of message.reserved) {
        if (typeof item === 'string' ? item === field.name : field.tag >= item[0] && field.tag <= item[1]) {
          this.#problems.push(
            `${where} uses the reserved ${typeof item === 'string' ? 'name' : 'number'} ${typeof item === 'string' ? item : field.tag}`,
          )
        }
      }
      if (this.#file.syntax === 'proto3') {
        const json = jsonNameOf(field)
        const clash = jsonNames.get(json)
        if (clash !== undefined && clash !== field.name)
          this.#problems.push(`the fields ${clash} and ${field.name} of ${name} share the JSON name ${json}`)
        jsonNames.set(json, field.name)
      }
      this.#field(name, field, where)
    }
    for (const nested of message.messages) this.#message(name, nested)
    for (const item of message.enums) this.#enum(name, item)
    this.#extends(name, message.extends)
  }

  #field(scope: string, field: FieldElement, where: string): void {
    const map = /^map<(.+), (.+)>$/.exec(field.type)
    if (map !== null && field.label !== null) this.#problems.push(`${where} is a map and cannot have a label`)
    // a map's key is not looked up (an undefined key type is let through, as the registry lets it through)
    const type = map === null ? field.type : (map[2] as string)
    const kind = SCALARS.has(type) ? 'scalar' : resolve(this.#table, type, scope)
    if (kind !== 'scalar' && kind !== 'message' && kind !== 'enum')
      this.#problems.push(`the type ${type} of ${where.slice(4)} is not a defined message or enum`)
    if (field.defaultValue !== null) {
      if (this.#file.syntax === 'proto3') this.#problems.push(`${where} has a default, which proto3 forbids`)
      else if (!fitsDefault(type, field.defaultValue, field.defaultQuoted))
        this.#problems.push(
          `the default ${field.defaultValue} of ${where.slice(4)} does not fit its type ${type}`,
        )
    }
    if (
      field.options.some((option) => option.startsWith('OptionElement(name=packed, kind=BOOLEAN, value=true'))
    ) {
      const packable = map === null && (NUMERIC.has(type) || type === 'bool' || kind === 'enum')
      if (field.label !== 'REPEATED' || !packable)
        this.#problems.push(`${where} is packed, which only a repeated number, bool or enum can be`)
    }
  }

  #enum(scope: string, item: EnumElement): void {
    const name = join(scope, item.name)
    const first = item.constants[0]
    if (first === undefined) {
      this.#problems.push(`the enum ${name} has no constants`)
      return
    }
    if (this.#file.syntax === 'proto3' && first[1] !== 0)
      this.#problems.push(`the first constant of the enum ${name} is not 0, which proto3 requires`)
    const byNumber = new Map<number, string>()
    for (const [constant, number] of item.constants) {
      const other = byNumber.get(number)
      if (other !== undefined && !item.allowAlias)
        this.#problems.push(`the constants ${other} and ${constant} of ${name} share the number ${number}`)
      byNumber.set(number, constant)
      for (const reserved of item.reserved) {
        if (
          typeof reserved === 'string'
            ? reserved === constant
            : number >= reserved[0] && number <= reserved[1]
        )
          this.#problems.push(`the constant ${join(name, constant)} is reserved`)
      }
    }
  }

  #extends(scope: string, items: readonly ExtendElement[]): void {
    for (const item of items) {
      if (resolve(this.#table, item.target, scope) !== 'message')
        this.#problems.push(`the extended type ${item.target} is not a defined message`)
      for (const field of item.fields) this.#field(scope, field, `the field ${join(scope, field.name)}`)
    }
  }
}

/** Whether a proto2 default can be read as a value of the field's type (an enum's constants are not checked). */
function fitsDefault(type: string, value: string, quoted: boolean): boolean {
  if (type === 'bool') return !quoted && (value === 'true' || value === 'false')
  if (NUMERIC.has(type)) return !quoted && /^[-+]?(?:[0-9.]|inf$|nan$)/i.test(value)
  return true
}

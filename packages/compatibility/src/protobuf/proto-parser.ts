/**
 * A .proto reader that keeps what Apicurio's parser (Square Wire's `ProtoParser`) keeps and refuses what it refuses:
 * fields as written (duplicates included, the last one winning in the indexes), their labels and 1-based positions,
 * `reserved`, enums, services, imports and `extend` blocks; `group` fields, extension ranges and most options are
 * read over and not indexed. Imports are listed, not followed.
 */

import { MAX_SCHEMA_DEPTH, schemasTooDeep } from '../nesting.js'

/** A .proto text Wire cannot parse. */
export class ProtoSyntaxError extends Error {
  override readonly name = 'ProtoSyntaxError'
}

/** One field declaration. */
export interface FieldElement {
  readonly name: string
  readonly tag: number
  /** As written, a map as `map<K, V>`. */
  readonly type: string
  readonly label: 'REQUIRED' | 'OPTIONAL' | 'REPEATED' | null
  /** `line:column`, both 1-based. */
  readonly location: string
  readonly defaultValue: string | null
  /** Whether the default was written as a quoted string. */
  readonly defaultQuoted: boolean
  readonly jsonName: string | null
  /** The other options, each as Wire prints an option element. */
  readonly options: readonly string[]
}

/** One message, its nested types included. */
export interface MessageElement {
  readonly name: string
  /** Fields outside and inside `oneof`s, in order. */
  readonly fields: FieldElement[]
  /** Reserved names and number ranges (both ends included). */
  readonly reserved: (string | [number, number])[]
  readonly messages: MessageElement[]
  readonly enums: EnumElement[]
  /** The `oneof` names, in order. */
  readonly oneofs: string[]
  /** The `extend` blocks declared inside the message. */
  readonly extends: ExtendElement[]
}

/** One enum: its constants in order. */
export interface EnumElement {
  readonly name: string
  readonly constants: [name: string, tag: number][]
  /** Whether `option allow_alias = true;` is set. */
  readonly allowAlias: boolean
  /** Reserved names and number ranges (both ends included). */
  readonly reserved: (string | [number, number])[]
}

/** One `extend` block: the extended type as written and the fields it adds. */
export interface ExtendElement {
  readonly target: string
  readonly fields: FieldElement[]
}

/** One `import`: the path and whether it is `public`. */
export interface ImportElement {
  readonly path: string
  readonly isPublic: boolean
}

/** One RPC: request and response types as written. */
export interface RpcElement {
  readonly name: string
  readonly requestType: string
  readonly requestStreaming: boolean
  readonly responseType: string
  readonly responseStreaming: boolean
}

/** A parsed .proto file. */
export interface ProtoFileElement {
  /** `proto2` when the file declares none. */
  readonly syntax: 'proto2' | 'proto3'
  readonly packageName: string
  readonly messages: MessageElement[]
  readonly enums: EnumElement[]
  readonly services: { name: string; rpcs: RpcElement[] }[]
  readonly imports: ImportElement[]
  readonly extends: ExtendElement[]
}

interface Token {
  readonly text: string
  readonly kind: 'word' | 'string' | 'symbol'
  readonly line: number
  readonly column: number
}

const WORD = /[A-Za-z0-9_.\-+]/

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let line = 1
  let lineStart = 0
  let at = 0
  while (at < text.length) {
    const c = text[at] as string
    if (c === '\n') {
      line++
      at++
      lineStart = at
    } else if (/\s/.test(c)) {
      at++
    } else if (c === '/' && text[at + 1] === '/') {
      while (at < text.length && text[at] !== '\n') at++
    } else if (c === '/' && text[at + 1] === '*') {
      const end = text.indexOf('*/', at + 2)
      if (end === -1) throw new ProtoSyntaxError(`unterminated comment at ${line}:${at - lineStart + 1}`)
      for (let i = at; i < end; i++) {
        if (text[i] === '\n') {
          line++
          lineStart = i + 1
        }
      }
      at = end + 2
    } else if (c === '"' || c === "'") {
      const column = at - lineStart + 1
      let value = ''
      at++
      while (at < text.length && text[at] !== c) {
        if (text[at] === '\n') throw new ProtoSyntaxError(`unterminated string at ${line}:${column}`)
        if (text[at] === '\\') {
          value += text[at + 1] ?? ''
          at += 2
        } else {
          value += text[at]
          at++
        }
      }
      if (at >= text.length) throw new ProtoSyntaxError(`unterminated string at ${line}:${column}`)
      at++
      tokens.push({ text: value, kind: 'string', line, column })
    } else if (WORD.test(c)) {
      const start = at
      while (at < text.length && WORD.test(text[at] as string)) at++
      tokens.push({ text: text.slice(start, at), kind: 'word', line, column: start - lineStart + 1 })
    } else if ('{}[]()<>=;,:'.includes(c)) {
      tokens.push({ text: c, kind: 'symbol', line, column: at - lineStart + 1 })
      at++
    } else {
      throw new ProtoSyntaxError(`unexpected character ${JSON.stringify(c)} at ${line}:${at - lineStart + 1}`)
    }
  }
  return tokens
}

const MAX_TAG = 536_870_911

function parseInteger(text: string, where: Token): number {
  const negative = text.startsWith('-')
  const body = negative ? text.slice(1) : text
  let value: number
  if (/^0[xX][0-9a-fA-F]+$/.test(body)) value = Number.parseInt(body.slice(2), 16)
  else if (/^0[0-7]+$/.test(body)) value = Number.parseInt(body.slice(1), 8)
  else if (/^(0|[1-9][0-9]*)$/.test(body)) value = Number(body)
  else throw new ProtoSyntaxError(`expected an integer but was ${text} at ${where.line}:${where.column}`)
  return negative ? -value : value
}

class Parser {
  readonly #tokens: Token[]
  #at = 0
  syntax: 'proto2' | 'proto3' | undefined

  constructor(tokens: Token[]) {
    this.#tokens = tokens
  }

  get done(): boolean {
    return this.#at >= this.#tokens.length
  }

  peek(offset = 0): Token | undefined {
    return this.#tokens[this.#at + offset]
  }

  next(): Token {
    const token = this.#tokens[this.#at]
    if (token === undefined) throw new ProtoSyntaxError('unexpected end of file')
    this.#at++
    return token
  }

  expect(text: string): Token {
    const token = this.next()
    if (token.kind === 'string' || token.text !== text) {
      throw new ProtoSyntaxError(
        `expected '${text}' but was '${token.text}' at ${token.line}:${token.column}`,
      )
    }
    return token
  }

  word(): Token {
    const token = this.next()
    if (token.kind !== 'word')
      throw new ProtoSyntaxError(`expected a word but was '${token.text}' at ${token.line}:${token.column}`)
    return token
  }

  accept(text: string): boolean {
    const token = this.peek()
    if (token !== undefined && token.kind !== 'string' && token.text === text) {
      this.#at++
      return true
    }
    return false
  }

  /** Skips to the end of a statement (`;`), over any nested braces or brackets. */
  skipStatement(): void {
    let depth = 0
    for (;;) {
      const token = this.next()
      if (token.kind !== 'symbol') continue
      if (token.text === '{' || token.text === '[' || token.text === '(') depth++
      else if (token.text === '}' || token.text === ']' || token.text === ')') depth--
      else if (token.text === ';' && depth <= 0) return
      if (depth < 0) throw new ProtoSyntaxError(`unbalanced '${token.text}' at ${token.line}:${token.column}`)
    }
  }

  /** Skips a `{ … }` block whose `{` comes next. */
  skipBlock(): void {
    this.expect('{')
    let depth = 1
    while (depth > 0) {
      const token = this.next()
      if (token.kind !== 'symbol') continue
      if (token.text === '{') depth++
      else if (token.text === '}') depth--
    }
  }

  /** A type name, `map<K, V>` written back as Wire writes it. */
  dataType(first: Token): string {
    if (first.text === 'map' && this.peek()?.text === '<') {
      this.expect('<')
      const key = this.dataType(this.word())
      this.expect(',')
      const value = this.dataType(this.word())
      this.expect('>')
      return `map<${key}, ${value}>`
    }
    return first.text
  }
}

function parseOptions(parser: Parser): {
  defaultValue: string | null
  defaultQuoted: boolean
  jsonName: string | null
  options: string[]
} {
  let defaultValue: string | null = null
  let defaultQuoted = false
  let jsonName: string | null = null
  const options: string[] = []
  if (!parser.accept('[')) return { defaultValue, defaultQuoted, jsonName, options }
  for (;;) {
    let name = ''
    let parenthesized = false
    if (parser.accept('(')) {
      parenthesized = true
      while (!parser.accept(')')) name += parser.next().text
      while (parser.peek()?.kind === 'word' && parser.peek()?.text.startsWith('.')) name += parser.next().text
    } else {
      name = parser.word().text
    }
    parser.expect('=')
    const value = parser.next()
    if (value.text === '{' && value.kind === 'symbol') {
      let depth = 1
      while (depth > 0) {
        const token = parser.next()
        if (token.kind === 'symbol' && token.text === '{') depth++
        else if (token.kind === 'symbol' && token.text === '}') depth--
      }
    }
    if (name === 'default' && !parenthesized) {
      defaultValue = value.text
      defaultQuoted = value.kind === 'string'
    } else if (name === 'json_name' && !parenthesized) jsonName = value.text
    else {
      const kind =
        value.kind === 'string'
          ? 'STRING'
          : value.text === 'true' || value.text === 'false'
            ? 'BOOLEAN'
            : /^[-+]?[0-9.]/.test(value.text)
              ? 'NUMBER'
              : 'ENUM'
      options.push(
        `OptionElement(name=${name}, kind=${kind}, value=${value.text}, isParenthesized=${parenthesized})`,
      )
    }
    if (parser.accept(']')) break
    parser.expect(',')
  }
  return { defaultValue, defaultQuoted, jsonName, options }
}

const LABELS = { required: 'REQUIRED', optional: 'OPTIONAL', repeated: 'REPEATED' } as const

/** A field (or a group, read over: `null`), its first word already read. */
function parseField(parser: Parser, first: Token, inOneof: boolean): FieldElement | null {
  let label: FieldElement['label'] = null
  let typeToken = first
  if (Object.hasOwn(LABELS, first.text) && parser.peek()?.kind === 'word') {
    if (first.text === 'required' && parser.syntax === 'proto3') {
      throw new ProtoSyntaxError(
        `'required' label forbidden in proto3 field declarations at ${first.line}:${first.column}`,
      )
    }
    label = LABELS[first.text as keyof typeof LABELS]
    typeToken = parser.word()
  } else if (
    parser.syntax !== 'proto3' &&
    !inOneof &&
    !(first.text === 'map' && parser.peek()?.text === '<')
  ) {
    throw new ProtoSyntaxError(`unexpected label: ${first.text} at ${first.line}:${first.column}`)
  }
  if (typeToken.text === 'group') {
    parser.word()
    parser.expect('=')
    parser.word()
    parseOptions(parser)
    parser.skipBlock()
    return null
  }
  const type = parser.dataType(typeToken)
  const name = parser.word().text
  parser.expect('=')
  const tagToken = parser.word()
  const tag = parseInteger(tagToken.text, tagToken)
  if (tag < 1 || tag > MAX_TAG)
    throw new ProtoSyntaxError(`field tag ${tag} out of range at ${tagToken.line}:${tagToken.column}`)
  const { defaultValue, defaultQuoted, jsonName, options } = parseOptions(parser)
  parser.expect(';')
  return {
    name,
    tag,
    type,
    label,
    location: `${first.line}:${first.column}`,
    defaultValue,
    defaultQuoted,
    jsonName,
    options,
  }
}

function parseReserved(parser: Parser): (string | [number, number])[] {
  const out: (string | [number, number])[] = []
  for (;;) {
    const token = parser.next()
    if (token.kind === 'string') out.push(token.text)
    else {
      const from = parseInteger(token.text, token)
      let to = from
      if (parser.accept('to')) {
        const end = parser.word()
        to = end.text === 'max' ? MAX_TAG : parseInteger(end.text, end)
      }
      out.push([from, to])
    }
    if (parser.accept(';')) return out
    parser.expect(',')
  }
}

function parseEnum(parser: Parser): EnumElement {
  const name = parser.word().text
  parser.expect('{')
  const constants: [string, number][] = []
  const reserved: (string | [number, number])[] = []
  let allowAlias = false
  while (!parser.accept('}')) {
    const first = parser.next()
    if (first.kind === 'symbol' && first.text === ';') continue
    if (first.text === 'option') {
      if (parser.peek()?.text === 'allow_alias' && parser.peek(1)?.text === '=') {
        allowAlias = parser.peek(2)?.text === 'true'
      }
      parser.skipStatement()
      continue
    }
    if (first.text === 'reserved') {
      reserved.push(...parseReserved(parser))
      continue
    }
    parser.expect('=')
    const value = parser.word()
    constants.push([first.text, parseInteger(value.text, value)])
    parseOptions(parser)
    parser.expect(';')
  }
  return { name, constants, allowAlias, reserved }
}

/** An `extend` block, `extend` already read. */
function parseExtend(parser: Parser): ExtendElement {
  const target = parser.word().text
  const fields: FieldElement[] = []
  parser.expect('{')
  while (!parser.accept('}')) {
    const first = parser.next()
    if (first.kind === 'symbol' && first.text === ';') continue
    const field = parseField(parser, first, false)
    if (field !== null) fields.push(field)
  }
  return { target, fields }
}

function parseMessage(parser: Parser): MessageElement {
  const name = parser.word().text
  const message: MessageElement = {
    name,
    fields: [],
    reserved: [],
    messages: [],
    enums: [],
    oneofs: [],
    extends: [],
  }
  parser.expect('{')
  parseMessageBody(parser, message, false)
  return message
}

function parseMessageBody(parser: Parser, message: MessageElement, inOneof: boolean): void {
  while (!parser.accept('}')) {
    const first = parser.next()
    if (first.kind === 'symbol' && first.text === ';') continue
    if (first.kind !== 'word')
      throw new ProtoSyntaxError(`unexpected '${first.text}' at ${first.line}:${first.column}`)
    switch (first.text) {
      case 'message':
        if (inOneof) break
        message.messages.push(parseMessage(parser))
        continue
      case 'enum':
        if (inOneof) break
        message.enums.push(parseEnum(parser))
        continue
      case 'oneof':
        if (inOneof) break
        message.oneofs.push(parser.word().text)
        parser.expect('{')
        parseMessageBody(parser, message, true)
        continue
      case 'reserved':
        if (inOneof) break
        message.reserved.push(...parseReserved(parser))
        continue
      case 'extensions':
      case 'option':
        parser.skipStatement()
        continue
      case 'extend':
        if (inOneof) break
        message.extends.push(parseExtend(parser))
        continue
      default:
        break
    }
    const field = parseField(parser, first, inOneof)
    if (field !== null) message.fields.push(field)
  }
}

/** Reads `stream` before an RPC's type (a type named `stream` is read as the type). */
function streaming(parser: Parser): boolean {
  if (parser.peek()?.text !== 'stream' || parser.peek(1)?.kind !== 'word') return false
  parser.next()
  return true
}

function parseService(parser: Parser): { name: string; rpcs: RpcElement[] } {
  const name = parser.word().text
  const rpcs: RpcElement[] = []
  parser.expect('{')
  while (!parser.accept('}')) {
    const first = parser.next()
    if (first.kind === 'symbol' && first.text === ';') continue
    if (first.text === 'option') {
      parser.skipStatement()
      continue
    }
    if (first.text !== 'rpc')
      throw new ProtoSyntaxError(`unexpected '${first.text}' at ${first.line}:${first.column}`)
    const rpcName = parser.word().text
    parser.expect('(')
    const requestStreaming = streaming(parser)
    const requestType = parser.word().text
    parser.expect(')')
    parser.expect('returns')
    parser.expect('(')
    const responseStreaming = streaming(parser)
    const responseType = parser.word().text
    parser.expect(')')
    if (parser.peek()?.text === '{') parser.skipBlock()
    else parser.expect(';')
    rpcs.push({ name: rpcName, requestType, requestStreaming, responseType, responseStreaming })
  }
  return { name, rpcs }
}

/**
 * The paths a .proto text imports (`public` and `weak` ones too), in order, read from its tokens: a top-level
 * `import` statement counts wherever it stands on its line, and one inside a comment or a string does not. Throws a
 * {@link ProtoSyntaxError} when the text cannot be read into tokens (an unterminated string or comment).
 */
export function importPaths(text: string): string[] {
  const tokens = tokenize(text)
  const paths: string[] = []
  let depth = 0
  let statementStart = true
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token
    if (token.kind === 'symbol') {
      if (token.text === '{') depth++
      else if (token.text === '}') depth--
      statementStart = token.text === ';' || token.text === '{' || token.text === '}'
      continue
    }
    if (depth === 0 && statementStart && token.kind === 'word' && token.text === 'import') {
      let at = i + 1
      const modifier = tokens[at]
      if (modifier?.kind === 'word' && (modifier.text === 'public' || modifier.text === 'weak')) at++
      const path = tokens[at]
      const end = tokens[at + 1]
      if (path?.kind === 'string' && end?.kind === 'symbol' && end.text === ';') paths.push(path.text)
    }
    statementStart = false
  }
  return paths
}

/** Throws a {@link ProtoSyntaxError} when blocks and brackets nest deeper than {@link MAX_SCHEMA_DEPTH} levels. */
function checkNesting(tokens: readonly Token[]): void {
  let depth = 0
  for (const token of tokens) {
    if (token.kind !== 'symbol') continue
    if (token.text === '{' || token.text === '[' || token.text === '(' || token.text === '<') {
      if (++depth > MAX_SCHEMA_DEPTH)
        throw new ProtoSyntaxError(`${schemasTooDeep('the file')} at ${token.line}:${token.column}`)
    } else if (token.text === '}' || token.text === ']' || token.text === ')' || token.text === '>') {
      depth--
    }
  }
}

/**
 * Parses a .proto text as Wire does for Apicurio's comparison. Throws a {@link ProtoSyntaxError} for a text Wire
 * refuses, and for one whose blocks and brackets nest deeper than {@link MAX_SCHEMA_DEPTH} levels.
 */
export function parseProto(text: string): ProtoFileElement {
  const tokens = tokenize(text)
  checkNesting(tokens)
  const parser = new Parser(tokens)
  let packageName = ''
  const messages: MessageElement[] = []
  const enums: EnumElement[] = []
  const services: { name: string; rpcs: RpcElement[] }[] = []
  const imports: ImportElement[] = []
  const extendElements: ExtendElement[] = []
  while (!parser.done) {
    const first = parser.next()
    if (first.kind === 'symbol' && first.text === ';') continue
    switch (first.text) {
      case 'syntax': {
        parser.expect('=')
        const value = parser.next()
        if (value.kind !== 'string' || (value.text !== 'proto2' && value.text !== 'proto3')) {
          throw new ProtoSyntaxError(`unexpected syntax: ${value.text}`)
        }
        parser.syntax = value.text
        parser.expect(';')
        break
      }
      case 'package':
        packageName = parser.word().text
        parser.expect(';')
        break
      case 'import': {
        const kind = parser.peek()
        const isPublic = kind?.kind === 'word' && kind.text === 'public'
        if (kind?.kind === 'word' && (kind.text === 'public' || kind.text === 'weak')) parser.next()
        const path = parser.next()
        if (path.kind !== 'string')
          throw new ProtoSyntaxError(
            `expected a string but was '${path.text}' at ${path.line}:${path.column}`,
          )
        parser.expect(';')
        imports.push({ path: path.text, isPublic })
        break
      }
      case 'option':
      case 'edition':
        parser.skipStatement()
        break
      case 'message':
        messages.push(parseMessage(parser))
        break
      case 'enum':
        enums.push(parseEnum(parser))
        break
      case 'service':
        services.push(parseService(parser))
        break
      case 'extend':
        extendElements.push(parseExtend(parser))
        break
      default:
        throw new ProtoSyntaxError(`unexpected label: ${first.text} at ${first.line}:${first.column}`)
    }
  }
  return {
    syntax: parser.syntax ?? 'proto2',
    packageName,
    messages,
    enums,
    services,
    imports,
    extends: extendElements,
  }
}

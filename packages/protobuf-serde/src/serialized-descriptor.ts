import { createRequire } from 'node:module'
import type DescriptorExtension from 'protobufjs/ext/descriptor.js'

const require = createRequire(import.meta.url)

/**
 * protobufjs's descriptor types, loaded at the first serialized schema: building them from `descriptor.json` costs a
 * process about 14 ms of CPU and 1.3 MB allocated (0.5 MB kept), which a consumer of `.proto` text never needs.
 */
let descriptorTypes: typeof DescriptorExtension | undefined

function descriptorExtension(): typeof DescriptorExtension {
  if (descriptorTypes === undefined)
    descriptorTypes = require('protobufjs/ext/descriptor.js') as typeof DescriptorExtension
  return descriptorTypes
}

/**
 * Confluent's "serialized" Protobuf schemas: `@confluentinc/schemaregistry` registers a Protobuf schema as the base64
 * of its `FileDescriptorProto`, not as `.proto` text, and Apicurio's Confluent-compatible API stores that text as the
 * artifact's content. Such content is turned back into `.proto` text here, so that it parses like any other schema
 * (messages, nested messages and enums in declaration order, which Confluent's message indexes count; maps as their
 * `map_entry` messages, which the parser turns back into maps).
 */

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/** True for schema text that is base64 (a `.proto` file always has spaces or semicolons; base64 has neither). */
export function looksSerialized(text: string): boolean {
  const trimmed = text.trim()
  return trimmed.length >= 4 && trimmed.length % 4 === 0 && BASE64.test(trimmed)
}

interface Field {
  name: string
  number: number
  label?: string
  type?: string
  typeName?: string
  oneofIndex?: number
  proto3Optional?: boolean
  options?: { packed?: boolean }
}

interface Message {
  name: string
  field?: Field[]
  nestedType?: Message[]
  enumType?: Enum[]
  oneofDecl?: { name: string }[]
  options?: { mapEntry?: boolean }
}

interface Enum {
  name: string
  value?: { name: string; number: number }[]
}

interface File {
  name?: string
  package?: string
  dependency?: string[]
  messageType?: Message[]
  enumType?: Enum[]
  syntax?: string
}

function scalar(type: string): string {
  return type.slice('TYPE_'.length).toLowerCase()
}

function fieldLine(field: Field, proto3: boolean, inOneof: boolean): string {
  let label = ''
  if (!inOneof) {
    if (field.label === 'LABEL_REPEATED') label = 'repeated '
    else if (field.label === 'LABEL_REQUIRED') label = 'required '
    else if (!proto3 || field.proto3Optional) label = 'optional '
  }
  const type =
    field.type === 'TYPE_MESSAGE' || field.type === 'TYPE_ENUM' || field.type === 'TYPE_GROUP'
      ? field.typeName!
      : scalar(field.type ?? 'TYPE_STRING')
  const packed = field.options?.packed === undefined ? '' : ` [packed = ${field.options.packed}]`
  return `${label}${type} ${field.name} = ${field.number}${packed};`
}

function enumText(e: Enum, indent: string): string {
  const values = (e.value ?? []).map((v) => `${indent}  ${v.name} = ${v.number};`)
  return [`${indent}enum ${e.name} {`, ...values, `${indent}}`].join('\n')
}

function messageText(m: Message, proto3: boolean, indent: string): string {
  const lines = [`${indent}message ${m.name} {`]
  if (m.options?.mapEntry) lines.push(`${indent}  option map_entry = true;`)
  const oneofs = new Map<number, string[]>()
  for (const field of m.field ?? []) {
    const real = field.oneofIndex !== undefined && !field.proto3Optional
    if (real) {
      const list = oneofs.get(field.oneofIndex!) ?? []
      list.push(`${indent}    ${fieldLine(field, proto3, true)}`)
      oneofs.set(field.oneofIndex!, list)
    } else {
      lines.push(`${indent}  ${fieldLine(field, proto3, false)}`)
    }
  }
  for (const [index, fields] of oneofs) {
    lines.push(`${indent}  oneof ${m.oneofDecl![index]!.name} {`, ...fields, `${indent}  }`)
  }
  for (const nested of m.nestedType ?? []) lines.push(messageText(nested, proto3, `${indent}  `))
  for (const e of m.enumType ?? []) lines.push(enumText(e, `${indent}  `))
  lines.push(`${indent}}`)
  return lines.join('\n')
}

/**
 * The `.proto` text of a base64 `FileDescriptorProto` (Confluent's serialized form). Messages come before enums at
 * each level, as a descriptor lists them, so the message order (and Confluent's message indexes) is kept.
 * @throws Error when the text is not the base64 of a `FileDescriptorProto`.
 */
export function protoTextOfSerialized(text: string): string {
  const bytes = Buffer.from(text.trim(), 'base64')
  const descriptor = descriptorExtension()
  const decoded = descriptor.FileDescriptorProto.decode(bytes)
  const file = descriptor.FileDescriptorProto.toObject(decoded, { enums: String, longs: Number }) as File
  const syntax = file.syntax === 'proto3' ? 'proto3' : 'proto2'
  const proto3 = syntax === 'proto3'
  const lines = [`syntax = "${syntax}";`]
  if (file.package) lines.push(`package ${file.package};`)
  for (const dependency of file.dependency ?? []) lines.push(`import "${dependency}";`)
  for (const m of file.messageType ?? []) lines.push(messageText(m, proto3, ''))
  for (const e of file.enumType ?? []) lines.push(enumText(e, ''))
  return `${lines.join('\n')}\n`
}

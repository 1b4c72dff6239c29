import { type EnumElement, type FieldElement, type MessageElement, parseProto } from './proto-parser.js'
import { NameNumberSet } from './reserved-set.js'

/**
 * The indexes Apicurio's `ProtobufFile` builds from one .proto file, by message and enum name relative to the
 * package (`Order`, `Order.Line`).
 */
export interface ProtoIndex {
  readonly syntax: 'proto2' | 'proto3'
  readonly packageName: string
  /** Fields by message, `oneof` members included; every message is present, even one without fields. */
  readonly fields: Map<string, Map<string, FieldElement>>
  /** Field names by number, for messages with fields. */
  readonly fieldsById: Map<string, Map<number, string>>
  /** Reserved names and numbers, for messages that reserve any. */
  readonly reserved: Map<string, NameNumberSet>
  /** The names and numbers each message's fields use. */
  readonly used: Map<string, NameNumberSet>
  /** Enum constants by enum (enums with constants only): name → number. */
  readonly enumConstants: Map<string, Map<string, number>>
  readonly enumById: Map<string, Map<number, string>>
  /** RPC signatures (`Request:false->Response:true`) by name, by service, for services with RPCs. */
  readonly rpcs: Map<string, Map<string, string>>
}

/** Parses one .proto text into Apicurio's indexes; imports are not read (Apicurio's comparison does not read them). */
export function indexProto(text: string): ProtoIndex {
  const file = parseProto(text)
  const index: ProtoIndex = {
    syntax: file.syntax,
    packageName: file.packageName,
    fields: new Map(),
    fieldsById: new Map(),
    reserved: new Map(),
    used: new Map(),
    enumConstants: new Map(),
    enumById: new Map(),
    rpcs: new Map(),
  }
  for (const message of file.messages) addMessage(index, '', message)
  for (const item of file.enums) addEnum(index, '', item)
  for (const service of file.services) {
    const rpcs = new Map<string, string>()
    for (const rpc of service.rpcs) {
      rpcs.set(
        rpc.name,
        `${rpc.requestType}:${rpc.requestStreaming}->${rpc.responseType}:${rpc.responseStreaming}`,
      )
    }
    if (rpcs.size > 0) index.rpcs.set(service.name, rpcs)
  }
  return index
}

function addMessage(index: ProtoIndex, scope: string, message: MessageElement): void {
  const name = `${scope}${message.name}`
  const reserved = new NameNumberSet()
  for (const item of message.reserved) {
    if (typeof item === 'string') reserved.addName(item)
    else reserved.addRange(item[0], item[1])
  }
  if (message.reserved.length > 0) index.reserved.set(name, reserved)
  const fields = new Map<string, FieldElement>()
  const byId = new Map<number, string>()
  const used = new NameNumberSet()
  for (const field of message.fields) {
    fields.set(field.name, field)
    byId.set(field.tag, field.name)
    used.addName(field.name)
    used.addRange(field.tag, field.tag)
  }
  index.fields.set(name, fields)
  if (byId.size > 0) index.fieldsById.set(name, byId)
  index.used.set(name, used)
  for (const nested of message.messages) addMessage(index, `${name}.`, nested)
  for (const item of message.enums) addEnum(index, `${name}.`, item)
}

function addEnum(index: ProtoIndex, scope: string, item: EnumElement): void {
  const name = `${scope}${item.name}`
  const constants = new Map<string, number>()
  const byId = new Map<number, string>()
  for (const [constant, number] of item.constants) {
    constants.set(constant, number)
    byId.set(number, constant)
  }
  if (constants.size > 0) {
    index.enumConstants.set(name, constants)
    index.enumById.set(name, byId)
  }
}

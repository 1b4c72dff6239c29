import { fieldPath } from '@x/errors'
import type { CompatibilityIssue } from '../format-checker.js'
import type { ProtoIndex } from './proto-file.js'
import type { FieldElement } from './proto-parser.js'
import { NameNumberSet } from './reserved-set.js'
import { SCALARS } from './scalars.js'

/** The path of a message (`Order.Line`) or one of its fields in the data-error notation. */
function pathOf(message: string, field?: string): string {
  let path = ''
  for (const part of message.split('.')) path = fieldPath(path, part)
  return field === undefined ? path : fieldPath(path, field)
}

/**
 * One difference: Apicurio's description (the registry's cause), the context it derives from it (`/` and the name
 * after "message "), and our sentence.
 */
function issue(description: string, path: string, sentence: string): CompatibilityIssue {
  return { path, message: sentence, cause: { description, context: contextOf(description) } }
}

function contextOf(description: string): string {
  const at = description.indexOf('message ')
  if (at === -1) return '/'
  const start = at + 'message '.length
  const comma = description.indexOf(',', start)
  return `/${description.slice(start, comma === -1 ? undefined : comma).trim()}`
}

function typeExists(file: ProtoIndex, name: string): boolean {
  return file.fields.has(name) || file.enumConstants.has(name)
}

function qualified(file: ProtoIndex, path: string): string {
  return file.packageName === '' ? `.${path}` : `.${file.packageName}.${path}`
}

/** A field's type resolved as Apicurio resolves it before comparing: from the innermost message scope outwards. */
function normalizeType(file: ProtoIndex, type: string, message: string): string {
  if (type.startsWith('map<') || type.startsWith('.') || SCALARS.has(type)) return type
  if (type.includes('.')) return `.${type}`
  const scopes = message.split('.')
  for (let depth = scopes.length; depth > 0; depth--) {
    const candidate = `${scopes.slice(0, depth).join('.')}.${type}`
    if (typeExists(file, candidate)) return qualified(file, candidate)
  }
  return qualified(file, type)
}

function describeField(field: FieldElement): string {
  return `FieldElement(location=:${field.location}, label=${field.label ?? 'null'}, type=${field.type}, name=${field.name}, defaultValue=${field.defaultValue ?? 'null'}, jsonName=${field.jsonName ?? 'null'}, tag=${field.tag}, documentation=, options=[${field.options.join(', ')}])`
}

/**
 * The differences Apicurio's `ProtobufCompatibilityCheckerLibrary` finds from `before` to `after`, in its order:
 * reserved names or numbers used again, reservations removed, fields removed without reservation, field numbers,
 * types and labels changed, fields renamed (enum constants included), RPCs removed or changed, and — when `before`
 * is proto2 — required fields added.
 */
export function protobufDifferences(before: ProtoIndex, after: ProtoIndex): CompatibilityIssue[] {
  return [
    ...reservedUsed(before, after),
    ...reservedRemoved(before, after),
    ...removedWithoutReservation(before, after),
    ...numbersChanged(before, after),
    ...typesChanged(before, after),
    ...namesChanged(before, after),
    ...rpcsRemoved(before, after),
    ...rpcsChanged(before, after),
    ...(before.syntax === 'proto2' ? requiredAdded(before, after) : []),
  ]
}

function reservedUsed(before: ProtoIndex, after: ProtoIndex): CompatibilityIssue[] {
  const out: CompatibilityIssue[] = []
  for (const [message, used] of after.used) {
    const reserved = before.reserved.get(message)
    if (reserved === undefined) continue
    const shared = used.sharedWith(reserved)
    if (shared > 0) {
      out.push(
        issue(
          `Conflict of reserved ${shared} fields, message ${message}`,
          pathOf(message),
          `The message ${message} uses ${shared} field name(s) or number(s) that were reserved.`,
        ),
      )
    }
  }
  return out
}

function reservedRemoved(before: ProtoIndex, after: ProtoIndex): CompatibilityIssue[] {
  const out: CompatibilityIssue[] = []
  for (const [message, reserved] of before.reserved) {
    const kept = after.reserved.get(message)
    const removed = kept === undefined ? reserved.size : reserved.size - reserved.sharedWith(kept)
    if (removed !== 0) {
      out.push(
        issue(
          `${removed} reserved fields were removed, message ${message}`,
          pathOf(message),
          `The message ${message} no longer reserves ${removed} field name(s) or number(s).`,
        ),
      )
    }
  }
  return out
}

function removedWithoutReservation(before: ProtoIndex, after: ProtoIndex): CompatibilityIssue[] {
  const out: CompatibilityIssue[] = []
  for (const [message, fields] of before.fields) {
    const kept = after.fields.get(message)
    const removed = [...fields.keys()].filter((name) => kept === undefined || !kept.has(name))
    const reserved = after.reserved.get(message) ?? new NameNumberSet()
    const used = after.used.get(message) ?? new NameNumberSet()
    let count = removed.filter((name) => !reserved.has(name)).length
    for (const field of fields.values()) {
      if (removed.includes(field.name) && !(reserved.has(field.tag) || used.has(field.tag))) count++
    }
    if (count > 0) {
      const names = removed.map((name) => JSON.stringify(name)).join(', ')
      out.push(
        issue(
          `${count} fields removed without reservation, message ${message}`,
          pathOf(message),
          `The message ${message} lost the field(s) ${names} without reserving their names and numbers.`,
        ),
      )
    }
  }
  return out
}

function numbersChanged(before: ProtoIndex, after: ProtoIndex): CompatibilityIssue[] {
  const out: CompatibilityIssue[] = []
  for (const [message, fields] of before.fields) {
    const kept = after.fields.get(message)
    if (kept === undefined) continue
    for (const [name, field] of fields) {
      const now = kept.get(name)
      if (now !== undefined && now.tag !== field.tag) {
        out.push(
          issue(
            `Conflict, field id changed, message ${message} , before: ${field.tag} , after ${now.tag}`,
            pathOf(message, name),
            `The field ${name} of ${message} changed its number from ${field.tag} to ${now.tag}.`,
          ),
        )
      }
    }
  }
  for (const [item, constants] of before.enumConstants) {
    const kept = after.enumConstants.get(item)
    if (kept === undefined) continue
    for (const [name, number] of constants) {
      const now = kept.get(name)
      if (now !== undefined && now !== number) {
        out.push(
          issue(
            `Conflict, field id changed, message ${item} , before: ${number} , after ${now}`,
            pathOf(item, name),
            `The constant ${name} of the enum ${item} changed its number from ${number} to ${now}.`,
          ),
        )
      }
    }
  }
  return out
}

function typesChanged(before: ProtoIndex, after: ProtoIndex): CompatibilityIssue[] {
  const out: CompatibilityIssue[] = []
  for (const [message, fields] of before.fields) {
    const kept = after.fields.get(message)
    if (kept === undefined) continue
    for (const [name, field] of fields) {
      const now = kept.get(name)
      if (now === undefined) continue
      if (normalizeType(before, field.type, message) !== normalizeType(after, now.type, message)) {
        out.push(
          issue(
            `Field type changed, message ${message} , before: ${field.type} , after ${now.type}`,
            pathOf(message, name),
            `The field ${name} of ${message} changed its type from ${field.type} to ${now.type}.`,
          ),
        )
      }
      if (field.label !== now.label) {
        out.push(
          issue(
            `Field label changed, message ${message} , before: ${field.label ?? 'null'} , after ${now.label ?? 'null'}`,
            pathOf(message, name),
            `The field ${name} of ${message} changed its label from ${labelWord(field.label)} to ${labelWord(now.label)}.`,
          ),
        )
      }
    }
  }
  return out
}

function labelWord(label: FieldElement['label']): string {
  return label === null ? 'none' : label.toLowerCase()
}

function namesChanged(before: ProtoIndex, after: ProtoIndex): CompatibilityIssue[] {
  const out: CompatibilityIssue[] = []
  const beforeIds = new Map([...before.fieldsById, ...before.enumById])
  const afterIds = new Map([...after.fieldsById, ...after.enumById])
  for (const [owner, names] of beforeIds) {
    const kept = afterIds.get(owner)
    if (kept === undefined) continue
    const reserved = after.reserved.get(owner) ?? new NameNumberSet()
    for (const [id, name] of names) {
      const now = kept.get(id)
      if (now === name) continue
      if (now === undefined && (reserved.has(id) || reserved.has(name))) continue
      out.push(
        issue(
          `Field name changed, message ${owner} , before: ${name} , after ${now ?? 'null'}`,
          pathOf(owner, name),
          now === undefined
            ? `Number ${id} of ${owner} (${name}) is gone and not reserved.`
            : `Number ${id} of ${owner} was renamed from ${name} to ${now}.`,
        ),
      )
    }
  }
  return out
}

function rpcsRemoved(before: ProtoIndex, after: ProtoIndex): CompatibilityIssue[] {
  const out: CompatibilityIssue[] = []
  for (const [service, rpcs] of before.rpcs) {
    const kept = after.rpcs.get(service)
    const removed = [...rpcs.keys()].filter((name) => kept === undefined || !kept.has(name))
    if (removed.length > 0) {
      out.push(
        issue(
          `${removed.length} rpc services removed, message ${service}`,
          pathOf(service),
          `The service ${service} lost the RPC(s) ${removed.join(', ')}.`,
        ),
      )
    }
  }
  return out
}

function rpcsChanged(before: ProtoIndex, after: ProtoIndex): CompatibilityIssue[] {
  const out: CompatibilityIssue[] = []
  for (const [service, rpcs] of before.rpcs) {
    const kept = after.rpcs.get(service)
    if (kept === undefined) continue
    for (const [name, signature] of rpcs) {
      const now = kept.get(name)
      if (now !== signature) {
        out.push(
          issue(
            `rpc service signature changed, message ${service} , before ${signature} , after ${now ?? 'null'}`,
            pathOf(service, name),
            `The RPC ${name} of ${service} changed its signature from ${signature} to ${now ?? 'nothing'}.`,
          ),
        )
      }
    }
  }
  return out
}

function requiredAdded(before: ProtoIndex, after: ProtoIndex): CompatibilityIssue[] {
  const out: CompatibilityIssue[] = []
  for (const [message, fields] of after.fields) {
    const old = before.fields.get(message)
    if (old === undefined) continue
    for (const [name, field] of fields) {
      if (!old.has(name) && field.label === 'REQUIRED') {
        out.push(
          issue(
            `required field added in new version, message ${message}, after ${describeField(field)}`,
            pathOf(message, name),
            `The required field ${name} was added to ${message}; data written without it cannot be read.`,
          ),
        )
      }
    }
  }
  return out
}

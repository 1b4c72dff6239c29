import { invalidConfigError, messageOf } from '@x/errors'
import {
  QualifiedRecordIdStrategy as RecordNameStrategy,
  TopicRecordIdStrategy as TopicRecordNameStrategy,
} from '@x/serde-core'
import { declaredMessageNames } from './proto-schema.js'

/** The full name of `messageType`, or of the first message of the `.proto` text when it is not given. */
export function messageNameOf(proto: string, messageType: string | undefined, strategy: string): string {
  if (typeof proto !== 'string') throw invalidConfigError(`${strategy} needs the .proto text of the schema`)
  let names: string[]
  try {
    names = declaredMessageNames(proto)
  } catch (error) {
    throw invalidConfigError(`${strategy} needs valid .proto text: ${messageOf(error)}`, error)
  }
  if (names.length === 0) throw invalidConfigError(`${strategy}: the .proto text declares no message`)
  if (messageType === undefined) return names[0]!
  if (!names.includes(messageType)) {
    throw invalidConfigError(
      `${strategy}: messageType '${messageType}' is no message of the schema (${names.join(', ')})`,
    )
  }
  return messageType
}

/** The full name of a message of the `.proto` given at construction, whatever the topic: `com.example.Order`. */
export class QualifiedRecordIdStrategy extends RecordNameStrategy {
  /**
   * @param proto - The `.proto` text.
   * @param messageType - The message's full name; default the file's first message (as the serializer writes).
   * @throws `TypeError` (code `INVALID_CONFIG`) for text that does not parse or an unknown `messageType`.
   */
  constructor(proto: string, messageType?: string) {
    super(messageNameOf(proto, messageType, 'QualifiedRecordIdStrategy'))
  }
}

/** `<topic>-<full name>` of a message of the `.proto` given at construction, e.g. `orders-com.example.Order`. */
export class TopicRecordIdStrategy extends TopicRecordNameStrategy {
  /**
   * @param proto - The `.proto` text.
   * @param messageType - The message's full name; default the file's first message.
   * @throws `TypeError` (code `INVALID_CONFIG`) for text that does not parse or an unknown `messageType`.
   */
  constructor(proto: string, messageType?: string) {
    super(messageNameOf(proto, messageType, 'TopicRecordIdStrategy'))
  }
}

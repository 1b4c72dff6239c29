import type { AvroEncoding } from '@x/avro-serde'
import { UsageError } from './usage-error.js'

/**
 * `--encoding` of the commands that read messages: how an Avro payload without an `apicurio.<key|value>.encoding`
 * header is read (the header, when there is one, decides).
 */
export function encodingOf(flag: string | undefined): AvroEncoding {
  const encoding = flag ?? 'binary'
  if (encoding !== 'binary' && encoding !== 'json' && encoding !== 'auto') {
    throw new UsageError(`--encoding must be binary, json or auto, got ${encoding}`)
  }
  return encoding
}

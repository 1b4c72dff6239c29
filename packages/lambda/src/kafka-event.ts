import { invalidDataError } from '@x/errors'

/**
 * One record of a Kafka event, as Lambda's event source mapping hands it over (the shape of `@types/aws-lambda`'s
 * `MSKEventRecord` and `SelfManagedKafkaRecord`): its key and value base64, its headers a list of
 * `{ name: bytes }` objects, in their order.
 */
export interface KafkaEventRecord {
  topic: string
  partition: number
  offset: number
  timestamp: number
  timestampType: string
  /** The key, base64; absent, `null` or empty for a record without one. */
  key?: string | null
  /** The value, base64; `null` (or absent) for a tombstone. */
  value?: string | null
  /** The headers in their order, each `{ name: bytes }`; a repeated header appears once per value. */
  headers?: readonly Readonly<Record<string, readonly number[]>>[] | null
}

/**
 * An Amazon MSK (`eventSource: 'aws:kafka'`) or self-managed Kafka (`'SelfManagedKafka'`) event: records grouped by
 * `"topic-partition"`, each group in offset order.
 */
export interface KafkaEvent {
  eventSource?: string
  eventSourceArn?: string
  bootstrapServers?: string
  records: Readonly<Record<string, readonly KafkaEventRecord[]>>
}

/**
 * The records of an event, group by group in the event's order.
 *
 * @throws TypeError (code `INVALID_DATA`) for an event without `records` grouped in arrays, or a record without its
 *   topic, partition and offset.
 */
export function eventRecords(event: KafkaEvent): KafkaEventRecord[] {
  const groups = (event as { records?: unknown } | null | undefined)?.records
  if (typeof groups !== 'object' || groups === null || Array.isArray(groups)) {
    throw invalidDataError(
      'Not a Kafka event: expected an object whose "records" group records by "topic-partition"',
      ['records'],
    )
  }
  const records: KafkaEventRecord[] = []
  for (const [group, list] of Object.entries(groups as Record<string, unknown>)) {
    if (!Array.isArray(list)) {
      throw invalidDataError(`Not a Kafka event: records["${group}"] must be an array of records`, [
        `records.${group}`,
      ])
    }
    for (const record of list as KafkaEventRecord[]) {
      if (
        typeof record?.topic !== 'string' ||
        !Number.isInteger(record.partition) ||
        !Number.isInteger(record.offset)
      ) {
        throw invalidDataError(
          `Not a Kafka event: every record of records["${group}"] needs its topic, partition and offset`,
          [`records.${group}`],
        )
      }
      records.push(record)
    }
  }
  return records
}

import { EVENT_RECORD } from '../event-record.js'
import type { Format } from './types.js'

/** The records the end-to-end rows write: loading this module loads no engine (a producer process imports it). */

export type Event = typeof EVENT_RECORD

/** Message `seq` of the bench record (one object per message, as an application makes them). */
export function ourRecord(seq: number): Event {
  return { ...EVENT_RECORD, seq }
}

/**
 * The record as the peers take it. Their Protobuf encoders (protobufjs `create` + `encode`, no `fromObject`) need the
 * enum as its number; Avro and JSON take the record as it is.
 */
export function peerRecord(format: Format, seq: number): Record<string, unknown> {
  return format === 'protobuf' ? { ...EVENT_RECORD, seq, kind: 1 } : { ...EVENT_RECORD, seq }
}

/** Reading JSON, every peer validates (Platformatic's and kafkajs-SR's readers always do): ours is set to as well. */
export const OUR_READER_OPTIONS = { validate: true }

import type { FormatChecker } from '../format-checker.js'
import { indexProto } from './proto-file.js'
import { ProtoSyntaxError } from './proto-parser.js'
import { protobufDifferences } from './protobuf-differences.js'

/**
 * Protobuf, as Apicurio 3.3's `ProtobufCompatibilityChecker` decides it: each .proto text parsed on its own (imports
 * and references are not read), and the differences its checker library lists from the existing file to the proposed
 * one. The forward direction is the same comparison from the proposed file to the existing one, so adding a field is
 * refused under `FORWARD` unless the older version reserved it.
 */
export const protobufChecker: FormatChecker = {
  validate(schema) {
    try {
      indexProto(schema)
      return []
    } catch (error) {
      if (!(error instanceof ProtoSyntaxError)) throw error
      return [{ path: '', message: `${error.message.replace(/\.$/, '')}.` }]
    }
  },
  backwardIssues(existing, proposed) {
    return protobufDifferences(indexProto(existing), indexProto(proposed))
  },
}

import type { FormatChecker } from '../format-checker.js'
import { ParseCache } from '../parse-cache.js'
import { indexProto, type ProtoIndex } from './proto-file.js'
import { protoLinkProblems } from './proto-linker.js'
import { ProtoSyntaxError } from './proto-parser.js'
import { protobufDifferences } from './protobuf-differences.js'

/**
 * Protobuf, as Apicurio 3.3's `ProtobufCompatibilityChecker` decides it: each .proto text parsed on its own (imports
 * and references are not read), and the differences its checker library lists from the existing file to the proposed
 * one. The forward direction is the same comparison from the proposed file to the existing one, so adding a field is
 * refused under `FORWARD` unless the older version reserved it.
 */
const INDEXED = new ParseCache<ProtoIndex>(2048)

/** The file's indexes; indexing the same text again reuses them. */
function indexOf(text: string): ProtoIndex {
  return INDEXED.get(text, () => indexProto(text))
}

export const protobufChecker: FormatChecker = {
  validate(schema, references) {
    try {
      indexProto(schema)
      return protoLinkProblems(schema, references).map((problem) => ({
        path: '',
        message: `The schema is not valid Protobuf: ${problem}.`,
      }))
    } catch (error) {
      if (!(error instanceof ProtoSyntaxError)) throw error
      return [{ path: '', message: `The schema is not valid Protobuf: ${error.message.replace(/\.$/, '')}.` }]
    }
  },
  backwardIssues(existing, proposed) {
    return protobufDifferences(indexOf(existing), indexOf(proposed))
  },
}

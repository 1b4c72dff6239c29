import type { FormatChecker } from '../format-checker.js'

/** The Protobuf checker. */
export const protobufChecker: FormatChecker = {
  validate() {
    throw new Error('not implemented yet')
  },
  backwardIssues() {
    throw new Error('not implemented yet')
  },
}

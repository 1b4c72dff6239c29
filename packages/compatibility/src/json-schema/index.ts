import type { FormatChecker } from '../format-checker.js'

/** The JSON Schema checker. */
export const jsonSchemaChecker: FormatChecker = {
  validate() {
    throw new Error('not implemented yet')
  },
  backwardIssues() {
    throw new Error('not implemented yet')
  },
}

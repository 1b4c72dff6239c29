/** The registry's answer to one VALIDITY case. */
export interface ValidityVerdict {
  status: number
  title?: string
  causes: { description: string; context: string }[]
  /** Why the case could not be set up (the artifact or its rule was refused). */
  setupFailed?: string
}

/** A VALIDITY case as sent: the schema, its format, the rule's level and the referenced schemas by name. */
export interface ValidityRequest {
  id: string
  format: 'AVRO' | 'JSON' | 'PROTOBUF'
  level?: 'SYNTAX_ONLY' | 'FULL'
  schema: string
  references?: Readonly<Record<string, string>>
}

export function validityVerdictOf(
  base: string,
  group: string,
  testCase: ValidityRequest,
  cache: Map<string, string>,
  nonce: string,
): Promise<ValidityVerdict>

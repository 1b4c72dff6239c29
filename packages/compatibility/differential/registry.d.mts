/** One cause of a registry's refusal. */
export interface RegistryVerdictCause {
  description: string
  context: string
}

/** The registry's answer to one case. */
export interface RegistryVerdict {
  compatible: boolean
  status: number
  causes: RegistryVerdictCause[]
}

/** A case with its schema texts. */
export interface DifferentialCase {
  id: string
  format: 'AVRO' | 'JSON' | 'PROTOBUF'
  level: string
  existing: string[]
  proposed: string
  references?: Record<string, string>
}

export function askRegistry(
  url: string,
  group: string,
  testCase: DifferentialCase,
  artifactId?: string,
): Promise<RegistryVerdict>

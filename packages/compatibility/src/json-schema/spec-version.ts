/** The JSON Schema drafts everit-json-schema loads. */
export type SpecVersion = 'DRAFT_4' | 'DRAFT_6' | 'DRAFT_7'

const META_SCHEMAS: readonly [SpecVersion, readonly string[]][] = [
  ['DRAFT_4', ['http://json-schema.org/draft-04/schema', 'https://json-schema.org/draft-04/schema']],
  ['DRAFT_6', ['http://json-schema.org/draft-06/schema', 'https://json-schema.org/draft-06/schema']],
  ['DRAFT_7', ['http://json-schema.org/draft-07/schema', 'https://json-schema.org/draft-07/schema']],
]

/** The draft whose meta-schema URL starts `url`, as everit looks it up. */
export function specVersionOf(url: string): SpecVersion | undefined {
  for (const [version, urls] of META_SCHEMAS)
    if (urls.some((prefix) => url.startsWith(prefix))) return version
  return undefined
}

/** Whether `version` is `lowest` or a later draft. */
export function isAtLeast(version: SpecVersion, lowest: SpecVersion): boolean {
  const order: readonly SpecVersion[] = ['DRAFT_4', 'DRAFT_6', 'DRAFT_7']
  return order.indexOf(version) >= order.indexOf(lowest)
}

/** The keyword naming a schema's base URI: `id` in draft 4, `$id` later. */
export function idKeyword(version: SpecVersion): string {
  return version === 'DRAFT_4' ? 'id' : '$id'
}

/** The keywords that make everit load an object schema. */
export function objectKeywords(version: SpecVersion): readonly string[] {
  const v4 = ['properties', 'required', 'minProperties', 'maxProperties', 'dependencies', 'patternProperties']
  return version === 'DRAFT_4'
    ? [...v4, 'additionalProperties']
    : [...v4, 'additionalProperties', 'propertyNames']
}

/** The keywords that make everit load an array schema. */
export function arrayKeywords(version: SpecVersion): readonly string[] {
  const v4 = ['items', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems']
  return version === 'DRAFT_4' ? v4 : [...v4, 'contains']
}

/** The keywords of a number schema. */
export const NUMBER_KEYWORDS: readonly string[] = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
]

/** The keywords of a string schema. */
export const STRING_KEYWORDS: readonly string[] = ['minLength', 'maxLength', 'pattern', 'format']

const V4_FORMATS = ['date-time', 'uri', 'email', 'ipv4', 'ipv6', 'hostname']
const V6_FORMATS = [...V4_FORMATS, 'json-pointer', 'uri-reference', 'uri-template']
const V7_FORMATS = [...V6_FORMATS, 'date', 'time', 'regex', 'relative-json-pointer']

/** The formats everit has a validator for in `version`; a schema's other formats are dropped when loading. */
export function knownFormats(version: SpecVersion): ReadonlySet<string> {
  return new Set(version === 'DRAFT_4' ? V4_FORMATS : version === 'DRAFT_6' ? V6_FORMATS : V7_FORMATS)
}

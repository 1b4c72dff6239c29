import type { DiffContext } from './diff-context.js'
import { diffSchema } from './diff-schema.js'
import {
  addedRemoved,
  booleanTransition,
  integerChanged,
  schemaOrTrue,
  setChanged,
  subschemasAdded,
  subschemasRemoved,
} from './diff-util.js'
import type { CombinedNode, LoadedSchema, ObjectNode } from './schema-model.js'

/** The differences between two object schemas, keyword by keyword in the order Apicurio visits them. */
export function diffObject(ctx: DiffContext, before: ObjectNode, after: ObjectNode): void {
  setChanged(
    ctx.sub('required'),
    new Set(before.required),
    new Set(after.required),
    'OBJECT_TYPE_REQUIRED_PROPERTIES_CHANGED',
    'OBJECT_TYPE_REQUIRED_PROPERTIES_MEMBER_ADDED',
    'OBJECT_TYPE_REQUIRED_PROPERTIES_MEMBER_REMOVED',
  )
  if (after.propertyNames !== undefined) {
    const sub = ctx.sub('properties')
    if (
      addedRemoved(
        sub,
        before.propertyNames,
        after.propertyNames,
        'OBJECT_TYPE_PROPERTY_SCHEMA_ADDED',
        'OBJECT_TYPE_PROPERTY_SCHEMA_REMOVED',
      )
    ) {
      diffSchema(sub, before.propertyNames as LoadedSchema, after.propertyNames)
    }
  }
  integerChanged(ctx.sub('minProperties'), before.minProperties, after.minProperties, [
    'OBJECT_TYPE_MIN_PROPERTIES_ADDED',
    'OBJECT_TYPE_MIN_PROPERTIES_REMOVED',
    'OBJECT_TYPE_MIN_PROPERTIES_INCREASED',
    'OBJECT_TYPE_MIN_PROPERTIES_DECREASED',
  ])
  integerChanged(ctx.sub('maxProperties'), before.maxProperties, after.maxProperties, [
    'OBJECT_TYPE_MAX_PROPERTIES_ADDED',
    'OBJECT_TYPE_MAX_PROPERTIES_REMOVED',
    'OBJECT_TYPE_MAX_PROPERTIES_INCREASED',
    'OBJECT_TYPE_MAX_PROPERTIES_DECREASED',
  ])
  setChanged(
    ctx.sub('dependencies'),
    new Set(before.propertyDependencies.keys()),
    new Set(after.propertyDependencies.keys()),
    'OBJECT_TYPE_PROPERTY_DEPENDENCIES_KEYS_CHANGED',
    'OBJECT_TYPE_PROPERTY_DEPENDENCIES_KEYS_MEMBER_ADDED',
    'OBJECT_TYPE_PROPERTY_DEPENDENCIES_KEYS_MEMBER_REMOVED',
  )
  for (const [name, needed] of after.propertyDependencies) {
    const old = before.propertyDependencies.get(name)
    if (old === undefined) continue
    setChanged(
      ctx.sub(`dependencies/${name}`),
      old,
      needed,
      'OBJECT_TYPE_PROPERTY_DEPENDENCIES_VALUE_MEMBER_CHANGED',
      'OBJECT_TYPE_PROPERTY_DEPENDENCIES_VALUE_MEMBER_ADDED',
      'OBJECT_TYPE_PROPERTY_DEPENDENCIES_VALUE_MEMBER_REMOVED',
    )
  }
  const additionalKept = booleanTransition(
    ctx.sub('additionalProperties'),
    before.additionalProperties,
    after.additionalProperties,
    [
      'OBJECT_TYPE_ADDITIONAL_PROPERTIES_FALSE_TO_TRUE',
      'OBJECT_TYPE_ADDITIONAL_PROPERTIES_TRUE_TO_FALSE',
      'OBJECT_TYPE_ADDITIONAL_PROPERTIES_BOOLEAN_UNCHANGED',
    ],
  )
  if (additionalKept && after.additionalProperties) {
    schemaOrTrue(
      ctx.sub('schemaOfAdditionalItems'),
      before.schemaOfAdditionalProperties,
      after.schemaOfAdditionalProperties,
      [
        'OBJECT_TYPE_ADDITIONAL_PROPERTIES_SCHEMA_UNCHANGED',
        'OBJECT_TYPE_ADDITIONAL_PROPERTIES_EXTENDED',
        'OBJECT_TYPE_ADDITIONAL_PROPERTIES_NARROWED',
        'OBJECT_TYPE_ADDITIONAL_PROPERTIES_SCHEMA_CHANGED',
      ],
    )
  }
  setChanged(
    ctx.sub('patternProperties'),
    new Set(before.patternProperties.keys()),
    new Set(after.patternProperties.keys()),
    'OBJECT_TYPE_PATTERN_PROPERTY_KEYS_CHANGED',
    'OBJECT_TYPE_PATTERN_PROPERTY_KEYS_MEMBER_ADDED',
    'OBJECT_TYPE_PATTERN_PROPERTY_KEYS_MEMBER_REMOVED',
  )
  for (const [pattern, schema] of after.patternProperties) {
    const old = before.patternProperties.get(pattern)
    if (old !== undefined) diffSchema(ctx.sub(`patternProperties/${pattern}`), old, schema)
  }
  setChanged(
    ctx.sub('dependencies'),
    new Set(before.schemaDependencies.keys()),
    new Set(after.schemaDependencies.keys()),
    'OBJECT_TYPE_SCHEMA_DEPENDENCIES_CHANGED',
    'OBJECT_TYPE_SCHEMA_DEPENDENCIES_MEMBER_ADDED',
    'OBJECT_TYPE_SCHEMA_DEPENDENCIES_MEMBER_REMOVED',
  )
  for (const [name, schema] of after.schemaDependencies) {
    const old = before.schemaDependencies.get(name)
    if (old !== undefined) diffSchema(ctx.sub(`dependencies/${name}`), old, schema)
  }
  diffProperties(ctx, before, after)
}

function diffProperties(ctx: DiffContext, before: ObjectNode, after: ObjectNode): void {
  const added: LoadedSchema[] = []
  const removed: LoadedSchema[] = []
  for (const name of new Set([...before.properties.keys(), ...after.properties.keys()])) {
    const old = before.properties.get(name)
    const current = after.properties.get(name)
    if (old === undefined && current !== undefined) added.push(current)
    else if (old !== undefined && current === undefined) removed.push(old)
    else if (old !== undefined && current !== undefined) {
      diffSchema(
        ctx.sub(`properties/${name}`),
        old.kind === 'string' && current.kind === 'combined' ? anyOf(old) : old,
        current,
      )
    }
  }
  if (added.length > 0) {
    subschemasAdded(
      ctx.sub('propertySchemasAdded'),
      added,
      before.additionalProperties,
      before.schemaOfAdditionalProperties,
      after.additionalProperties,
      [
        'OBJECT_TYPE_PROPERTY_SCHEMAS_EXTENDED',
        'OBJECT_TYPE_PROPERTY_SCHEMAS_NARROWED',
        'OBJECT_TYPE_PROPERTY_SCHEMAS_CHANGED',
      ],
    )
  }
  if (removed.length > 0) {
    subschemasRemoved(
      ctx.sub('propertySchemasRemoved'),
      removed,
      after.additionalProperties,
      after.schemaOfAdditionalProperties,
      [
        'OBJECT_TYPE_PROPERTY_SCHEMAS_NARROWED',
        'OBJECT_TYPE_PROPERTY_SCHEMAS_NARROWED_COMPATIBLE_WITH_ADDITIONAL_PROPERTIES',
        'OBJECT_TYPE_PROPERTY_SCHEMAS_EXTENDED',
        'OBJECT_TYPE_PROPERTY_SCHEMAS_CHANGED',
      ],
    )
  }
}

/** A string property that became a combination is compared as `anyOf` of the old string alone. */
function anyOf(schema: LoadedSchema): CombinedNode {
  return {
    kind: 'combined',
    raw: { anyOf: [schema.raw] },
    tag: 'anyOf',
    location: schema.location,
    unprocessed: {},
    criterion: 'anyOf',
    subschemas: [schema],
    synthetic: false,
  }
}

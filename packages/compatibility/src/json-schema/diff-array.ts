import type { DiffContext } from './diff-context.js'
import { diffSchema } from './diff-schema.js'
import {
  addedRemoved,
  booleanTransition,
  integerChanged,
  schemaOrTrue,
  subschemasAdded,
  subschemasRemoved,
} from './diff-util.js'
import type { ArrayNode } from './schema-model.js'

/** The differences between two array schemas, keyword by keyword in the order Apicurio visits them. */
export function diffArray(ctx: DiffContext, before: ArrayNode, after: ArrayNode): void {
  integerChanged(ctx.sub('minItems'), before.minItems, after.minItems, [
    'ARRAY_TYPE_MIN_ITEMS_ADDED',
    'ARRAY_TYPE_MIN_ITEMS_REMOVED',
    'ARRAY_TYPE_MIN_ITEMS_INCREASED',
    'ARRAY_TYPE_MIN_ITEMS_DECREASED',
  ])
  integerChanged(ctx.sub('maxItems'), before.maxItems, after.maxItems, [
    'ARRAY_TYPE_MAX_ITEMS_ADDED',
    'ARRAY_TYPE_MAX_ITEMS_REMOVED',
    'ARRAY_TYPE_MAX_ITEMS_INCREASED',
    'ARRAY_TYPE_MAX_ITEMS_DECREASED',
  ])
  booleanTransition(ctx.sub('uniqueItems'), before.uniqueItems, after.uniqueItems, [
    'ARRAY_TYPE_UNIQUE_ITEMS_FALSE_TO_TRUE',
    'ARRAY_TYPE_UNIQUE_ITEMS_TRUE_TO_FALSE',
    'ARRAY_TYPE_UNIQUE_ITEMS_BOOLEAN_UNCHANGED',
  ])
  if (after.allItems !== undefined) {
    const sub = ctx.sub('allItemSchema')
    if (
      addedRemoved(
        sub,
        before.allItems,
        after.allItems,
        'ARRAY_TYPE_ALL_ITEM_SCHEMA_ADDED',
        'ARRAY_TYPE_ALL_ITEM_SCHEMA_REMOVED',
      )
    ) {
      diffSchema(sub, before.allItems as NonNullable<ArrayNode['allItems']>, after.allItems)
    }
  }
  const additionalKept = booleanTransition(
    ctx.sub('additionalItems'),
    before.additionalItems,
    after.additionalItems,
    [
      'ARRAY_TYPE_ADDITIONAL_ITEMS_FALSE_TO_TRUE',
      'ARRAY_TYPE_ADDITIONAL_ITEMS_TRUE_TO_FALSE',
      'ARRAY_TYPE_ADDITIONAL_ITEMS_BOOLEAN_UNCHANGED',
    ],
  )
  if (additionalKept && after.additionalItems) {
    schemaOrTrue(
      ctx.sub('schemaOfAdditionalItems'),
      before.schemaOfAdditionalItems,
      after.schemaOfAdditionalItems,
      [
        'ARRAY_TYPE_SCHEMA_OF_ADDITIONAL_ITEMS_UNCHANGED',
        'ARRAY_TYPE_ADDITIONAL_ITEMS_EXTENDED',
        'ARRAY_TYPE_ADDITIONAL_ITEMS_NARROWED',
        'ARRAY_TYPE_SCHEMA_OF_ADDITIONAL_ITEMS_CHANGED',
      ],
    )
  }
  if (after.items !== undefined) diffTuple(ctx, before, after, after.items)
  if (after.contains !== undefined) {
    const sub = ctx.sub('containedItemSchema')
    if (
      addedRemoved(
        sub,
        before.contains,
        after.contains,
        'ARRAY_TYPE_CONTAINED_ITEM_SCHEMA_ADDED',
        'ARRAY_TYPE_CONTAINED_ITEM_SCHEMA_REMOVED',
      )
    ) {
      diffSchema(sub, before.contains as NonNullable<ArrayNode['contains']>, after.contains)
    }
  }
}

function diffTuple(
  ctx: DiffContext,
  before: ArrayNode,
  after: ArrayNode,
  items: NonNullable<ArrayNode['items']>,
): void {
  const old = before.items ?? []
  const shared = Math.min(old.length, items.length)
  for (let index = 0; index < shared; index++) {
    diffSchema(
      ctx.sub(`items/${index}`),
      old[index] as (typeof old)[number],
      items[index] as (typeof items)[number],
    )
  }
  if (items.length > shared) {
    subschemasAdded(
      ctx.sub('addItemSchema'),
      items.slice(shared),
      before.additionalItems,
      before.schemaOfAdditionalItems,
      after.additionalItems,
      [
        'ARRAY_TYPE_ITEM_SCHEMAS_EXTENDED',
        'ARRAY_TYPE_ITEM_SCHEMAS_NARROWED',
        'ARRAY_TYPE_ITEM_SCHEMAS_CHANGED',
      ],
    )
  }
  if (old.length > shared) {
    subschemasRemoved(
      ctx.sub('removeItemSchema'),
      old.slice(shared),
      after.additionalItems,
      after.schemaOfAdditionalItems,
      [
        'ARRAY_TYPE_ITEM_SCHEMAS_NARROWED',
        'ARRAY_TYPE_ITEM_SCHEMAS_NARROWED_COMPATIBLE_WITH_ADDITIONAL_PROPERTIES',
        'ARRAY_TYPE_ITEM_SCHEMAS_EXTENDED',
        'ARRAY_TYPE_ITEM_SCHEMAS_CHANGED',
      ],
    )
  }
}

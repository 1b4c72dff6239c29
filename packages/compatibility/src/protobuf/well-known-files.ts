/**
 * The files Apicurio Registry 3.3 gives every Protobuf schema to import without a reference (protobuf's well-known
 * types, the Google API types it bundles, and its own `metadata` and `additionalTypes` files), each with its package and
 * the messages and enums it defines, named relative to the package. A type from one of them can be used only where
 * its file is imported.
 */
export interface WellKnownFile {
  readonly packageName: string
  readonly messages: readonly string[]
  readonly enums: readonly string[]
}

export const WELL_KNOWN_FILES: Readonly<Record<string, WellKnownFile>> = {
  'google/protobuf/any.proto': {
    packageName: 'google.protobuf',
    messages: ['Any'],
    enums: [],
  },
  'google/protobuf/api.proto': {
    packageName: 'google.protobuf',
    messages: ['Api', 'Method', 'Mixin'],
    enums: [],
  },
  'google/protobuf/descriptor.proto': {
    packageName: 'google.protobuf',
    messages: [
      'FileDescriptorSet',
      'FileDescriptorProto',
      'DescriptorProto',
      'DescriptorProto.ExtensionRange',
      'DescriptorProto.ReservedRange',
      'ExtensionRangeOptions',
      'ExtensionRangeOptions.Declaration',
      'FieldDescriptorProto',
      'OneofDescriptorProto',
      'EnumDescriptorProto',
      'EnumDescriptorProto.EnumReservedRange',
      'EnumValueDescriptorProto',
      'ServiceDescriptorProto',
      'MethodDescriptorProto',
      'FileOptions',
      'MessageOptions',
      'FieldOptions',
      'FieldOptions.EditionDefault',
      'FieldOptions.FeatureSupport',
      'OneofOptions',
      'EnumOptions',
      'EnumValueOptions',
      'ServiceOptions',
      'MethodOptions',
      'UninterpretedOption',
      'UninterpretedOption.NamePart',
      'FeatureSet',
      'FeatureSet.VisibilityFeature',
      'FeatureSet.ProtoLimitsFeature',
      'FeatureSetDefaults',
      'FeatureSetDefaults.FeatureSetEditionDefault',
      'SourceCodeInfo',
      'SourceCodeInfo.Location',
      'GeneratedCodeInfo',
      'GeneratedCodeInfo.Annotation',
    ],
    enums: [
      'Edition',
      'ExtensionRangeOptions.VerificationState',
      'FieldDescriptorProto.Type',
      'FieldDescriptorProto.Label',
      'FileOptions.OptimizeMode',
      'FieldOptions.CType',
      'FieldOptions.JSType',
      'FieldOptions.OptionRetention',
      'FieldOptions.OptionTargetType',
      'MethodOptions.IdempotencyLevel',
      'FeatureSet.FieldPresence',
      'FeatureSet.EnumType',
      'FeatureSet.RepeatedFieldEncoding',
      'FeatureSet.Utf8Validation',
      'FeatureSet.MessageEncoding',
      'FeatureSet.JsonFormat',
      'FeatureSet.EnforceNamingStyle',
      'FeatureSet.VisibilityFeature.DefaultSymbolVisibility',
      'FeatureSet.ProtoLimitsFeature.EnforceProtoLimits',
      'GeneratedCodeInfo.Annotation.Semantic',
      'SymbolVisibility',
    ],
  },
  'google/protobuf/duration.proto': {
    packageName: 'google.protobuf',
    messages: ['Duration'],
    enums: [],
  },
  'google/protobuf/empty.proto': {
    packageName: 'google.protobuf',
    messages: ['Empty'],
    enums: [],
  },
  'google/protobuf/field_mask.proto': {
    packageName: 'google.protobuf',
    messages: ['FieldMask'],
    enums: [],
  },
  'google/protobuf/source_context.proto': {
    packageName: 'google.protobuf',
    messages: ['SourceContext'],
    enums: [],
  },
  'google/protobuf/struct.proto': {
    packageName: 'google.protobuf',
    messages: ['Struct', 'Value', 'ListValue'],
    enums: ['NullValue'],
  },
  'google/protobuf/timestamp.proto': {
    packageName: 'google.protobuf',
    messages: ['Timestamp'],
    enums: [],
  },
  'google/protobuf/type.proto': {
    packageName: 'google.protobuf',
    messages: ['Type', 'Field', 'Enum', 'EnumValue', 'Option'],
    enums: ['Field.Kind', 'Field.Cardinality', 'Syntax'],
  },
  'google/protobuf/wrappers.proto': {
    packageName: 'google.protobuf',
    messages: [
      'DoubleValue',
      'FloatValue',
      'Int64Value',
      'UInt64Value',
      'Int32Value',
      'UInt32Value',
      'BoolValue',
      'StringValue',
      'BytesValue',
    ],
    enums: [],
  },
  'google/type/money.proto': {
    packageName: 'google.type',
    messages: ['Money'],
    enums: [],
  },
  'google/type/timeofday.proto': {
    packageName: 'google.type',
    messages: ['TimeOfDay'],
    enums: [],
  },
  'google/type/date.proto': {
    packageName: 'google.type',
    messages: ['Date'],
    enums: [],
  },
  'google/type/calendar_period.proto': {
    packageName: 'google.type',
    messages: [],
    enums: ['CalendarPeriod'],
  },
  'google/type/color.proto': {
    packageName: 'google.type',
    messages: ['Color'],
    enums: [],
  },
  'google/type/dayofweek.proto': {
    packageName: 'google.type',
    messages: [],
    enums: ['DayOfWeek'],
  },
  'google/type/latlng.proto': {
    packageName: 'google.type',
    messages: ['LatLng'],
    enums: [],
  },
  'google/type/fraction.proto': {
    packageName: 'google.type',
    messages: ['Fraction'],
    enums: [],
  },
  'google/type/month.proto': {
    packageName: 'google.type',
    messages: [],
    enums: ['Month'],
  },
  'google/type/phone_number.proto': {
    packageName: 'google.type',
    messages: ['PhoneNumber', 'PhoneNumber.ShortCode'],
    enums: [],
  },
  'google/type/postal_address.proto': {
    packageName: 'google.type',
    messages: ['PostalAddress'],
    enums: [],
  },
  'google/type/localized_text.proto': {
    packageName: 'google.type',
    messages: ['LocalizedText'],
    enums: [],
  },
  'google/type/interval.proto': {
    packageName: 'google.type',
    messages: ['Interval'],
    enums: [],
  },
  'google/type/expr.proto': {
    packageName: 'google.type',
    messages: ['Expr'],
    enums: [],
  },
  'google/type/quaternion.proto': {
    packageName: 'google.type',
    messages: ['Quaternion'],
    enums: [],
  },
  'additionalTypes/decimal.proto': {
    packageName: 'additionalTypes',
    messages: ['Decimal'],
    enums: [],
  },
  'metadata/metadata.proto': {
    packageName: 'metadata',
    messages: [],
    enums: [],
  },
}

// `@x/serde/json-schema`: the JSON Schema serde (@x/jsonschema-serde), on its own subpath so that users of Avro
// alone never load ajv. The root keeps exactly the Avro API.
export * from '@x/jsonschema-serde'

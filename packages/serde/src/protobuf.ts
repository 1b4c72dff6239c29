// `@x/serde/protobuf`: the Protobuf serde (@x/protobuf-serde), on its own subpath so that users of Avro alone never
// load protobufjs. The root keeps exactly the Avro API.
export * from '@x/protobuf-serde'

// `@x/serde/kafka`: the serdes inside the Kafka clients (@x/kafka), on its own subpath: a reader of any format loads
// each format's library only when a message of that format arrives, and the root keeps exactly the Avro API.
export * from '@x/kafka'

// The same records through Powertools for AWS Lambda's kafkaConsumer, the Avro schema given inline (it reads no
// registry), as its documentation configures it.
import { kafkaConsumer } from '@aws-lambda-powertools/kafka'

export const handler = kafkaConsumer(
  (event) => ({
    records: event.records.map(({ topic, partition, offset, value }) => ({
      topic,
      partition,
      offset,
      value,
    })),
  }),
  { value: { type: 'avro', schema: process.env.AVRO_SCHEMA } },
)

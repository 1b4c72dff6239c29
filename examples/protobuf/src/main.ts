// Protobuf messages as Apicurio's Java ProtobufKafkaSerializer writes them: 0x00, the 4-byte id, a Ref naming the
// message type, then the message. The schema imports another .proto (an artifact reference, by import path) and a
// well-known type; `framing: 'confluent'` writes Confluent's message indexes instead of the Ref.
import { RegistryClient, SerializationContext } from '@x/serde'
import { ProtobufDeserializer, ProtobufSerializer } from '@x/serde/protobuf'
import { InMemoryRegistry } from '@x/serde/testing'

const money = `syntax = "proto3";
package shop.common;
message Money { string currency = 1; int64 units = 2; }
`
const payment = `syntax = "proto3";
package shop;
import "common/money.proto";
import "google/protobuf/timestamp.proto";
message Payment {
  int64 id = 1;
  shop.common.Money amount = 2;
  google.protobuf.Timestamp at = 3;
  Method method = 4;
  enum Method { CARD = 0; TRANSFER = 1; }
}
`

const registry = process.env.REGISTRY_URL ? undefined : await InMemoryRegistry.start()
try {
  await using client = new RegistryClient({
    url: process.env.REGISTRY_URL ?? registry!.url,
    groupId: 'default',
  })
  const common = await client.registerSchema('shop-common-money', money, { artifactType: 'PROTOBUF' })
  const references = [
    { name: 'common/money.proto', artifactId: 'shop-common-money', version: common.version! },
  ]
  const ctx = new SerializationContext('payments')
  const value = {
    id: 9007199254740993n,
    amount: { currency: 'EUR', units: 1250 },
    at: { seconds: 1767225600, nanos: 0 },
    method: 'TRANSFER',
  }

  for (const framing of ['apicurio', 'confluent'] as const) {
    const serializer = new ProtobufSerializer(client, 'payments-value', {
      autoRegister: true,
      schema: payment,
      references,
      framing,
    })
    const bytes = await serializer.serialize(value, ctx)
    console.log(`${framing}: ${Buffer.from(bytes).toString('hex')}`)
    console.log('value:', await new ProtobufDeserializer(client, { framing }).deserialize(bytes, ctx))
  }
} finally {
  await registry?.close()
}

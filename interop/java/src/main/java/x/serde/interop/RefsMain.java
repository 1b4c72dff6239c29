package x.serde.interop;

import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces interop/fixtures/account.avsc records with Apicurio's Kafka Avro serde (3.1.7), auto-registering: the
 * serde registers the nested record {@code Owner} and its enum {@code Tier} as artifacts of their own, which the
 * value's artifact references.
 *
 * <pre>
 *   refs-produce &lt;brokers&gt; &lt;registryUrl&gt; &lt;topic&gt; &lt;mode&gt; &lt;count&gt;   writes account(0 .. count-1), keyed by id
 * </pre>
 *
 * <p>{@code mode} is one of {@link Main}'s serde configurations; {@code Main consume} reads the records back.
 */
final class RefsMain {
  private RefsMain() {}

  static Schema schema() {
    try (InputStream in = RefsMain.class.getResourceAsStream("/account.avsc")) {
      if (in == null) throw new IllegalStateException("account.avsc is not on the classpath");
      return new Schema.Parser().parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read account.avsc", e);
    }
  }

  private static GenericRecord owner(Schema schema, int i, int n) {
    GenericRecord owner = new GenericData.Record(schema);
    owner.put("name", "owner-" + i + "-" + n);
    // 2024-01-01T00:00:00.000Z plus i days and n ms.
    owner.put("since", 1_704_067_200_000L + i * 86_400_000L + n);
    // Days since 1970-01-01: 2024-01-01 plus i, and a day before 1970 for record 2.
    owner.put("birthday", i == 2 ? -365 - n : 19_723 + i + n);
    owner.put("seenMicros", 1_704_067_200_000_123L + i + n);
    owner.put("avatar", ByteBuffer.wrap(new byte[] {(byte) 0x80, (byte) i, (byte) 0xff, (byte) n}));
    owner.put("tier", new GenericData.EnumSymbol(schema.getField("tier").schema(), (i + n) % 2 == 0 ? "FREE" : "PRO"));
    // ["null", "int", "bytes"]: null, an int or bytes by turns.
    int badge = (i + n) % 3;
    owner.put("badge", badge == 0 ? null : badge == 1 ? (Object) (i * 10 + n) : ByteBuffer.wrap(new byte[] {(byte) i, (byte) 0xfe, (byte) n}));
    // ["null", "string", "bytes"]: bytes, a string or null by turns.
    int note = (i + n) % 3;
    owner.put("note", note == 0 ? ByteBuffer.wrap(new byte[] {(byte) n, (byte) i}) : note == 1 ? "note-" + i + "-" + n : null);
    return owner;
  }

  /** Record {@code i}; the same rule as {@code expectedAccount(i)} in interop/src/refs-fixtures.ts. */
  static GenericRecord account(Schema schema, int i) {
    Schema ownerSchema = schema.getField("owner").schema();
    GenericRecord r = new GenericData.Record(schema);
    r.put("id", "acct-" + i + "-\u00fc\u20ac");
    r.put("balance", 9_007_199_254_740_993L + i);
    r.put("created", 1_700_000_000_000L + i * 1_001L);
    r.put("token", ByteBuffer.wrap(new byte[] {(byte) i, 0, (byte) 0xff, (byte) 0xfb, (byte) 0xef, (byte) 0xbe}));
    r.put("owner", owner(ownerSchema, i, 0));
    r.put("backup", i % 2 == 0 ? null : owner(ownerSchema, i, 1));
    // ["null", "Owner", timestamp-millis]: a timestamp, null, or a record by turns.
    r.put("when", i % 3 == 0 ? (Object) (1_690_000_000_000L + i) : i % 3 == 1 ? null : owner(ownerSchema, i, 2));
    // ["null", "string", timestamp-millis]: a timestamp or a string by turns.
    r.put("memo", i % 2 == 0 ? (Object) (1_600_000_000_000L + i) : "memo-" + i);
    return r;
  }

  static int run(String[] args) throws Exception {
    if (args.length != 6 || !args[0].equals("refs-produce")) {
      System.err.println("usage: refs-produce <brokers> <registryUrl> <topic> <mode> <count>");
      return 2;
    }
    Map<String, Object> serde = Main.serdeConfig(args[2], args[4]);
    int count = Integer.parseInt(args[5]);
    if (serde == null || count < 0) {
      System.err.println("unknown mode " + args[4] + " or negative count " + args[5]);
      return 2;
    }
    Properties props = new Properties();
    props.putAll(serde);
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args[1]);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, AvroKafkaSerializer.class.getName());
    Schema schema = schema();
    try (KafkaProducer<String, GenericRecord> producer = new KafkaProducer<>(props)) {
      for (int i = 0; i < count; i++) {
        GenericRecord account = account(schema, i);
        producer.send(new ProducerRecord<>(args[3], account.get("id").toString(), account)).get();
      }
      producer.flush();
    }
    System.out.println("{\"produced\":" + count + "}");
    return 0;
  }
}

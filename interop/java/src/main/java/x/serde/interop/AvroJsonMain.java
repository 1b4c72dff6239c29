package x.serde.interop;

import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces or consumes interop/fixtures/json-event.avsc records with Apicurio's Kafka Avro serde (3.1.7) configured
 * {@code apicurio.registry.avro.encoding=JSON}.
 *
 * <pre>
 *   avro-json-produce &lt;brokers&gt; &lt;registryUrl&gt; &lt;topic&gt; json|json-headers &lt;count&gt;
 *   avro-json-consume &lt;brokers&gt; &lt;registryUrl&gt; &lt;topic&gt; json|json-headers|binary &lt;count&gt;
 * </pre>
 *
 * <p>{@code json}: the 3.x defaults (contentId in a 4-byte frame) with the JSON encoding; {@code json-headers}: the
 * same with {@code apicurio.registry.headers.enabled=true}; {@code binary} (consume only): headers mode with the
 * default BINARY encoding, to show that a message's encoding header wins. A consumed record prints as {@code
 * {"offset":n,"headers":{name:hex},"json":"<the record Java decoded, written again with Avro's JsonEncoder>"}}.
 */
final class AvroJsonMain {
  private static final Duration CONSUME_TIMEOUT = Duration.ofSeconds(60);
  private static final String[] KINDS = {"CREATED", "UPDATED", "DELETED"};

  private AvroJsonMain() {}

  static Schema schema() {
    try (InputStream in = AvroJsonMain.class.getResourceAsStream("/json-event.avsc")) {
      if (in == null) throw new IllegalStateException("json-event.avsc is not on the classpath");
      return new Schema.Parser().parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read json-event.avsc", e);
    }
  }

  /** Record {@code i}; the same rule as {@code expectedJsonEvent(i)} in interop/src/avro-json-fixtures.ts. */
  static GenericRecord event(Schema schema, int i) {
    GenericRecord r = new GenericData.Record(schema);
    r.put("id", "ev-" + i + "-\u00fc\u20ac\u0001\"");
    r.put("big", 9_007_199_254_740_993L + i);
    r.put("amount", i * 1.5 - 0.125);
    r.put("at", 1_700_000_000_000L + i);
    r.put("price", ByteBuffer.wrap(BigInteger.valueOf(12345 + i * 100L).toByteArray()));
    r.put("kind", new GenericData.EnumSymbol(schema.getField("kind").schema(), KINDS[i % 3]));
    List<String> tags = new ArrayList<>();
    for (int k = 0; k < i % 3; k++) tags.add("tag-" + i + "-" + k);
    r.put("tags", tags);
    Map<String, Long> attrs = new LinkedHashMap<>();
    attrs.put("a", (long) i);
    attrs.put("b", -9_007_199_254_740_993L - i);
    r.put("attrs", attrs);
    r.put("note", i % 2 == 0 ? null : "note " + i);
    Schema point = schema.getField("choice").schema().getTypes().get(2);
    Object choice = null;
    if (i % 3 == 1) choice = 9_007_199_254_740_993L * 2 + i;
    if (i % 3 == 2) {
      GenericRecord p = new GenericData.Record(point);
      p.put("x", i);
      p.put("y", -i);
      choice = p;
    }
    r.put("choice", choice);
    r.put("payload", ByteBuffer.wrap(new byte[] {(byte) i, 0, (byte) 0xff, (byte) 0x80, 0x1f}));
    return r;
  }

  static int run(String[] args) throws Exception {
    if (args.length != 6) {
      System.err.println("usage: avro-json-produce|avro-json-consume <brokers> <registryUrl> <topic> <json|json-headers|binary> <count>");
      return 2;
    }
    Map<String, Object> serde = new HashMap<>();
    serde.put("apicurio.registry.url", args[2]);
    serde.put("apicurio.registry.auto-register", "true");
    switch (args[4]) {
      case "json" -> serde.put("apicurio.registry.avro.encoding", "JSON");
      case "json-headers" -> {
        serde.put("apicurio.registry.avro.encoding", "JSON");
        serde.put("apicurio.registry.headers.enabled", "true");
      }
      case "binary" -> serde.put("apicurio.registry.headers.enabled", "true");
      default -> {
        System.err.println("unknown mode " + args[4]);
        return 2;
      }
    }
    int count = Integer.parseInt(args[5]);
    return switch (args[0]) {
      case "avro-json-produce" -> produce(args[1], args[3], serde, count);
      case "avro-json-consume" -> consume(args[1], args[3], serde, count);
      default -> {
        System.err.println("unknown command " + args[0]);
        yield 2;
      }
    };
  }

  private static int produce(String brokers, String topic, Map<String, Object> serde, int count) throws Exception {
    Properties props = new Properties();
    props.putAll(serde);
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, AvroKafkaSerializer.class.getName());
    Schema schema = schema();
    try (KafkaProducer<String, GenericRecord> producer = new KafkaProducer<>(props)) {
      for (int i = 0; i < count; i++) {
        producer.send(new ProducerRecord<>(topic, "k" + i, event(schema, i))).get();
      }
      producer.flush();
    }
    System.out.println("{\"produced\":" + count + "}");
    return 0;
  }

  private static String jsonOf(GenericRecord value) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    JsonEncoder encoder = EncoderFactory.get().jsonEncoder(value.getSchema(), out);
    new GenericDatumWriter<GenericRecord>(value.getSchema()).write(value, encoder);
    encoder.flush();
    return out.toString(StandardCharsets.UTF_8);
  }

  private static int consume(String brokers, String topic, Map<String, Object> serde, int count) throws IOException {
    Properties props = new Properties();
    props.putAll(serde);
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, AvroKafkaDeserializer.class.getName());
    HexFormat hex = HexFormat.of();
    int seen = 0;
    long deadline = System.nanoTime() + CONSUME_TIMEOUT.toNanos();
    try (KafkaConsumer<String, GenericRecord> consumer = new KafkaConsumer<>(props)) {
      TopicPartition partition = new TopicPartition(topic, 0);
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      while (seen < count && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, GenericRecord> record : consumer.poll(Duration.ofMillis(200))) {
          StringBuilder line = new StringBuilder("{\"offset\":").append(record.offset()).append(",\"headers\":{");
          boolean first = true;
          for (Header h : record.headers()) {
            if (!first) line.append(',');
            first = false;
            CanonicalJson.string(line, h.key());
            line.append(':');
            CanonicalJson.string(line, h.value() == null ? "" : hex.formatHex(h.value()));
          }
          line.append("},\"json\":");
          CanonicalJson.string(line, jsonOf(record.value()));
          System.out.println(line.append('}'));
          if (++seen == count) break;
        }
      }
    }
    if (seen < count) {
      System.err.println("interop: consumed " + seen + " of " + count + " records from " + topic);
      return 3;
    }
    return 0;
  }
}

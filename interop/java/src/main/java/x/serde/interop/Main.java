package x.serde.interop;

import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces or consumes the interop records with Apicurio Registry's own Kafka Avro serde (3.1.7).
 *
 * <pre>
 *   produce &lt;brokers&gt; &lt;registryUrl&gt; &lt;topic&gt; &lt;mode&gt; &lt;count&gt;   writes Events.event(0 .. count-1)
 *   consume &lt;brokers&gt; &lt;registryUrl&gt; &lt;topic&gt; &lt;mode&gt; &lt;count&gt;   prints count records as JSON lines
 * </pre>
 *
 * <p>{@code mode} picks the serde configuration: {@code default} (the 3.x defaults: contentId in a 4-byte frame,
 * TopicIdStrategy), {@code globalId} ({@code apicurio.registry.use-id=globalId}) or {@code headers}
 * ({@code apicurio.registry.headers.enabled=true}); {@code id8} and {@code id8-globalId} (the 8-byte
 * {@code Legacy8ByteIdHandler}, contentId or globalId) and {@code id-auto} ({@code OptimisticFallbackIdHandler}). The
 * producer auto-registers in every mode.
 *
 * <p>A consumed record prints as {@code {"offset":n,"headers":{name:hex},"value":<canonical JSON>}}. Exit code 0 on
 * success, 1 on a serde or Kafka error (message on stderr), 2 on bad arguments, 3 when the records did not arrive in
 * time.
 */
public final class Main {
  private static final Duration CONSUME_TIMEOUT = Duration.ofSeconds(60);

  private Main() {}

  public static void main(String[] args) {
    // kafka-clients logs through slf4j-nop; the registry client warns through java.util.logging: keep stdout/stderr
    // for the records and real errors only.
    java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.SEVERE);
    int code;
    try {
      code = run(args);
    } catch (Throwable e) {
      System.err.println("interop: " + e);
      for (Throwable c = e.getCause(); c != null; c = c.getCause()) System.err.println("  caused by: " + c);
      code = 1;
    }
    System.out.flush();
    // The registry client's Vert.x threads must not keep the JVM alive.
    System.exit(code);
  }

  private static int run(String[] args) throws Exception {
    if (args.length > 0 && args[0].startsWith("json-")) return JsonMain.run(args);
    if (args.length > 0 && args[0].startsWith("avro-json-")) return AvroJsonMain.run(args);
    if (args.length > 0 && args[0].startsWith("proto-")) return ProtoMain.run(args);
    if (args.length > 0 && args[0].startsWith("refs-")) return RefsMain.run(args);
    if (args.length != 6) {
      System.err.println("usage: produce|produce-long-keys|consume <brokers> <registryUrl> <topic> <default|globalId|headers> <count>");
      return 2;
    }
    String brokers = args[1];
    String registryUrl = args[2];
    String topic = args[3];
    Map<String, Object> serde = serdeConfig(registryUrl, args[4]);
    int count = Integer.parseInt(args[5]);
    if (serde == null || count < 0) {
      System.err.println("unknown mode " + args[4] + " or negative count " + args[5]);
      return 2;
    }
    return switch (args[0]) {
      case "produce" -> produce(brokers, topic, serde, count, false);
      // Keys written by Kafka's LongSerializer (42L + i: 8 bytes big-endian), values as produce writes them.
      case "produce-long-keys" -> produce(brokers, topic, serde, count, true);
      case "consume" -> consume(brokers, topic, serde, count);
      default -> {
        System.err.println("unknown command " + args[0]);
        yield 2;
      }
    };
  }

  static Map<String, Object> serdeConfig(String registryUrl, String mode) {
    Map<String, Object> config = new HashMap<>();
    config.put("apicurio.registry.url", registryUrl);
    config.put("apicurio.registry.auto-register", "true");
    switch (mode) {
      case "default" -> {}
      case "globalId" -> config.put("apicurio.registry.use-id", "globalId");
      case "headers" -> config.put("apicurio.registry.headers.enabled", "true");
      // 8-byte ids (Apicurio 2.x's frame): the contentId (3.x's default use-id), or the globalId as 2.x wrote it.
      case "id8" -> config.put("apicurio.registry.id-handler", "io.apicurio.registry.serde.Legacy8ByteIdHandler");
      case "id8-globalId" -> {
        config.put("apicurio.registry.id-handler", "io.apicurio.registry.serde.Legacy8ByteIdHandler");
        config.put("apicurio.registry.use-id", "globalId");
      }
      // Reads 4-byte and 8-byte frames alike (contentIds), as a consumer in a 2.x -> 3.x migration does.
      case "id-auto" -> config.put("apicurio.registry.id-handler", "io.apicurio.registry.serde.OptimisticFallbackIdHandler");
      default -> {
        return null;
      }
    }
    return config;
  }

  private static int produce(String brokers, String topic, Map<String, Object> serde, int count, boolean longKeys)
      throws Exception {
    Properties props = new Properties();
    props.putAll(serde);
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(
        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
        (longKeys ? LongSerializer.class : StringSerializer.class).getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, AvroKafkaSerializer.class.getName());
    Schema schema = Events.schema();
    try (KafkaProducer<Object, GenericRecord> producer = new KafkaProducer<>(props)) {
      for (int i = 0; i < count; i++) {
        Object key = longKeys ? (Object) (42L + i) : "k" + i;
        producer.send(new ProducerRecord<>(topic, key, Events.event(schema, i))).get();
      }
      producer.flush();
    }
    System.out.println("{\"produced\":" + count + "}");
    return 0;
  }

  private static int consume(String brokers, String topic, Map<String, Object> serde, int count) {
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
      // No consumer group: read partition 0 from the start (the broker makes one partition per topic).
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
          GenericRecord value = record.value();
          line.append("},\"value\":").append(CanonicalJson.write(value.getSchema(), value)).append('}');
          System.out.println(line);
          if (++seen == count) break;
        }
      }
    }
    if (seen < count) {
      System.err.println("interop: consumed " + seen + " of " + count + " records from " + topic + " in "
          + CONSUME_TIMEOUT.toSeconds() + " s");
      return 3;
    }
    return 0;
  }
}

package x.serde.interop;

import com.fasterxml.jackson.databind.JsonNode;
import io.apicurio.registry.serde.jsonschema.JsonSchemaKafkaDeserializer;
import io.apicurio.registry.serde.jsonschema.JsonSchemaKafkaSerializer;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
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
 * Produces or consumes JSON Schema records with Apicurio Registry's own Kafka JSON Schema serde (3.1.7).
 *
 * <pre>
 *   json-produce &lt;brokers&gt; &lt;registryUrl&gt; &lt;topic&gt; &lt;mode&gt; &lt;count&gt;   writes order(0 .. count-1)
 *   json-consume &lt;brokers&gt; &lt;registryUrl&gt; &lt;topic&gt; &lt;mode&gt; &lt;count&gt;   prints count records
 * </pre>
 *
 * <p>The producer registers interop/fixtures/order.json (from the classpath, {@code
 * apicurio.registry.artifact.schema.location}) under {@code <topic>-value}. A consumed record prints as {@code
 * {"offset":n,"headers":{name:hex},"text":"<the JSON Java decoded, as Jackson writes it>"}}: the text is kept as a
 * string so that a long beyond 2^53 reaches the test exactly.
 */
final class JsonMain {
  private static final Duration CONSUME_TIMEOUT = Duration.ofSeconds(60);

  private JsonMain() {}

  /** Order {@code i}; the same rule as {@code expectedOrder(i)} in interop/src/json-fixtures.ts. */
  static Map<String, Object> order(int i) {
    Map<String, Object> order = new LinkedHashMap<>();
    order.put("id", 9007199254740993L + i);
    order.put("sku", "SKU-" + i);
    order.put("qty", i + 1);
    order.put("price", 12.5 + i);
    order.put("tags", List.of("t" + i, "x"));
    order.put("gift", i % 2 == 0);
    order.put("note", "é \"quoted\" " + i);
    return order;
  }

  static int run(String[] args) throws Exception {
    if (args.length != 6) {
      System.err.println("usage: json-produce|json-consume <brokers> <registryUrl> <topic> <default|globalId|headers> <count>");
      return 2;
    }
    Map<String, Object> serde = Main.serdeConfig(args[2], args[4]);
    int count = Integer.parseInt(args[5]);
    if (serde == null || count < 0) {
      System.err.println("unknown mode " + args[4] + " or negative count " + args[5]);
      return 2;
    }
    serde.put("apicurio.registry.artifact.schema.location", "order.json");
    return switch (args[0]) {
      case "json-produce" -> produce(args[1], args[3], serde, count);
      case "json-consume" -> consume(args[1], args[3], serde, count);
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
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, JsonSchemaKafkaSerializer.class.getName());
    try (KafkaProducer<String, Map<String, Object>> producer = new KafkaProducer<>(props)) {
      for (int i = 0; i < count; i++) producer.send(new ProducerRecord<>(topic, "k" + i, order(i))).get();
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
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, JsonSchemaKafkaDeserializer.class.getName());
    HexFormat hex = HexFormat.of();
    int seen = 0;
    long deadline = System.nanoTime() + CONSUME_TIMEOUT.toNanos();
    try (KafkaConsumer<String, JsonNode> consumer = new KafkaConsumer<>(props)) {
      TopicPartition partition = new TopicPartition(topic, 0);
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      while (seen < count && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, JsonNode> record : consumer.poll(Duration.ofMillis(200))) {
          StringBuilder line = new StringBuilder("{\"offset\":").append(record.offset()).append(",\"headers\":{");
          boolean first = true;
          for (Header h : record.headers()) {
            if (!first) line.append(',');
            first = false;
            CanonicalJson.string(line, h.key());
            line.append(':');
            CanonicalJson.string(line, h.value() == null ? "" : hex.formatHex(h.value()));
          }
          line.append("},\"text\":");
          CanonicalJson.string(line, record.value().toString());
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

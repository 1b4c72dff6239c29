package x.serde.interop.legacy;

import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
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
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces or consumes Avro records with Apicurio Registry 2.6's Kafka serde, as producers did before a 2.x -> 3.x
 * migration: by default its id handler writes the 8-byte globalId, in a message header (2.x's default
 * {@code apicurio.registry.headers.enabled=true}) or, with headers disabled, in the frame.
 *
 * <pre>
 *   produce &lt;brokers&gt; &lt;v2RegistryUrl&gt; &lt;topic&gt; &lt;framed|headers&gt; &lt;count&gt;   writes record(0 .. count-1)
 *   consume &lt;brokers&gt; &lt;v2RegistryUrl&gt; &lt;topic&gt; &lt;framed|headers&gt; &lt;count&gt;   prints count records
 * </pre>
 *
 * <p>A consumed record prints as {@code {"offset":n,"headers":{name:hex},"id":"r0","n":"9007199254740993"}}. Exit 0
 * on success, 1 on an error, 2 on bad arguments, 3 when the records did not arrive in time.
 */
public final class Legacy {
  static final String SCHEMA =
      "{\"type\":\"record\",\"name\":\"Legacy\",\"namespace\":\"x.serde.interop\",\"fields\":["
          + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"n\",\"type\":\"long\"}]}";

  private Legacy() {}

  public static void main(String[] args) {
    java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.SEVERE);
    int code;
    try {
      code = run(args);
    } catch (Throwable e) {
      System.err.println("interop2: " + e);
      for (Throwable c = e.getCause(); c != null; c = c.getCause()) System.err.println("  caused by: " + c);
      code = 1;
    }
    System.out.flush();
    System.exit(code);
  }

  private static int run(String[] args) throws Exception {
    if (args.length != 6 || !(args[4].equals("framed") || args[4].equals("headers"))) {
      System.err.println("usage: produce|consume <brokers> <v2RegistryUrl> <topic> <framed|headers> <count>");
      return 2;
    }
    Properties props = new Properties();
    props.put("apicurio.registry.url", args[2]);
    props.put("apicurio.registry.auto-register", "true");
    props.put("apicurio.registry.headers.enabled", String.valueOf(args[4].equals("headers")));
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args[1]);
    int count = Integer.parseInt(args[5]);
    return switch (args[0]) {
      case "produce" -> produce(props, args[3], count);
      case "consume" -> consume(props, args[3], count);
      default -> 2;
    };
  }

  static GenericRecord record(Schema schema, int i) {
    GenericRecord rec = new GenericData.Record(schema);
    rec.put("id", "r" + i);
    rec.put("n", 9007199254740993L + i);
    return rec;
  }

  private static int produce(Properties props, String topic, int count) throws Exception {
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, AvroKafkaSerializer.class.getName());
    Schema schema = new Schema.Parser().parse(SCHEMA);
    try (KafkaProducer<String, GenericRecord> producer = new KafkaProducer<>(props)) {
      for (int i = 0; i < count; i++) producer.send(new ProducerRecord<>(topic, "k" + i, record(schema, i))).get();
      producer.flush();
    }
    System.out.println("{\"produced\":" + count + "}");
    return 0;
  }

  private static int consume(Properties props, String topic, int count) {
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, AvroKafkaDeserializer.class.getName());
    HexFormat hex = HexFormat.of();
    int seen = 0;
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    try (KafkaConsumer<String, GenericRecord> consumer = new KafkaConsumer<>(props)) {
      TopicPartition partition = new TopicPartition(topic, 0);
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      while (seen < count && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, GenericRecord> r : consumer.poll(Duration.ofMillis(200))) {
          StringBuilder line = new StringBuilder("{\"offset\":").append(r.offset()).append(",\"headers\":{");
          boolean first = true;
          for (Header h : r.headers()) {
            if (!first) line.append(',');
            first = false;
            line.append('"').append(h.key()).append("\":\"").append(h.value() == null ? "" : hex.formatHex(h.value())).append('"');
          }
          GenericRecord value = r.value();
          line.append("},\"id\":\"").append(value.get("id")).append("\",\"n\":\"").append(value.get("n")).append("\"}");
          System.out.println(line);
          if (++seen == count) break;
        }
      }
    }
    if (seen < count) {
      System.err.println("interop2: consumed " + seen + " of " + count + " records from " + topic);
      return 3;
    }
    return 0;
  }
}

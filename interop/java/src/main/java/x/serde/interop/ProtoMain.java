package x.serde.interop;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import io.apicurio.registry.serde.protobuf.ProtobufKafkaDeserializer;
import io.apicurio.registry.serde.protobuf.ProtobufKafkaSerializer;
import java.time.Duration;
import java.util.HexFormat;
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
import x.serde.interop.proto.common.Address;
import x.serde.interop.proto.shop.Order;

/**
 * Produces or consumes Protobuf records with Apicurio Registry's own Kafka Protobuf serde (3.1.7), with the classes
 * protoc generated from interop/fixtures/proto.
 *
 * <pre>
 *   proto-produce &lt;brokers&gt; &lt;registryUrl&gt; &lt;topic&gt; &lt;mode&gt; &lt;count&gt;   writes order(0 .. count-1)
 *   proto-consume &lt;brokers&gt; &lt;registryUrl&gt; &lt;topic&gt; &lt;mode&gt; &lt;count&gt;   prints count records
 * </pre>
 *
 * <p>{@code mode}: {@code default} (the 3.x defaults: contentId frame, a Ref before the message), {@code indexes}
 * ({@code send-type-ref=false}, {@code send-indexes=true}; read with {@code read-type-ref=false},
 * {@code read-indexes=true}) or {@code headers} ({@code headers.enabled=true}). The producer auto-registers. A consumed
 * record prints as {@code {"offset":n,"headers":{name:hex},"json":"<the Order in proto3 JSON>"}}.
 */
final class ProtoMain {
  private static final Duration CONSUME_TIMEOUT = Duration.ofSeconds(60);

  private ProtoMain() {}

  /** Order {@code i}; the same rule as {@code expectedOrder(i)} in interop/src/proto-fixtures.ts. */
  static Order order(int i) {
    Order.Builder order = Order.newBuilder()
        .setId(9007199254740993L + i)
        .setSku("SKU-" + i)
        .addAllLines(List.of(i, i + 1, 300))
        .putCounts("a", i)
        .putCounts("big", 9007199254740993L + i)
        .setShip(Address.newBuilder().setCity("C" + i).setZip(12345))
        .setAt(Timestamp.newBuilder().setSeconds(1767225600L + i).setNanos(500))
        .setStatus(Order.Status.PAID)
        .setCustomer(Order.Customer.newBuilder().setName("N" + i).setPoints(-1L))
        .setBlob(ByteString.copyFrom(new byte[] {0, (byte) i, (byte) 255}));
    if (i % 2 == 0) order.setCard("card-" + i);
    else order.setIban("DE" + i);
    return order.build();
  }

  static Map<String, Object> config(String registryUrl, String mode) {
    Map<String, Object> config = Main.serdeConfig(registryUrl, mode.equals("indexes") ? "default" : mode);
    if (config == null) return null;
    if (mode.equals("indexes")) {
      config.put("apicurio.registry.serde.send-type-ref", "false");
      config.put("apicurio.registry.serde.send-indexes", "true");
      config.put("apicurio.registry.serde.read-type-ref", "false");
      config.put("apicurio.registry.serde.read-indexes", "true");
    }
    config.put("apicurio.registry.deserializer.value.return-class", Order.class.getName());
    return config;
  }

  static int run(String[] args) throws Exception {
    if (args.length != 6) {
      System.err.println("usage: proto-produce|proto-consume <brokers> <registryUrl> <topic> <default|indexes|headers|globalId> <count>");
      return 2;
    }
    Map<String, Object> serde = config(args[2], args[4]);
    int count = Integer.parseInt(args[5]);
    if (serde == null || count < 0) {
      System.err.println("unknown mode " + args[4] + " or negative count " + args[5]);
      return 2;
    }
    return switch (args[0]) {
      case "proto-produce" -> produce(args[1], args[3], serde, count);
      case "proto-consume" -> consume(args[1], args[3], serde, count);
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
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ProtobufKafkaSerializer.class.getName());
    try (KafkaProducer<String, Order> producer = new KafkaProducer<>(props)) {
      for (int i = 0; i < count; i++) producer.send(new ProducerRecord<>(topic, "k" + i, order(i))).get();
      producer.flush();
    }
    System.out.println("{\"produced\":" + count + "}");
    return 0;
  }

  private static int consume(String brokers, String topic, Map<String, Object> serde, int count) throws Exception {
    Properties props = new Properties();
    props.putAll(serde);
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ProtobufKafkaDeserializer.class.getName());
    JsonFormat.Printer printer = JsonFormat.printer().omittingInsignificantWhitespace().preservingProtoFieldNames();
    HexFormat hex = HexFormat.of();
    int seen = 0;
    long deadline = System.nanoTime() + CONSUME_TIMEOUT.toNanos();
    try (KafkaConsumer<String, Message> consumer = new KafkaConsumer<>(props)) {
      TopicPartition partition = new TopicPartition(topic, 0);
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      while (seen < count && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, Message> record : consumer.poll(Duration.ofMillis(200))) {
          StringBuilder line = new StringBuilder("{\"offset\":").append(record.offset()).append(",\"headers\":{");
          boolean first = true;
          for (Header h : record.headers()) {
            if (!first) line.append(',');
            first = false;
            CanonicalJson.string(line, h.key());
            line.append(':');
            CanonicalJson.string(line, h.value() == null ? "" : hex.formatHex(h.value()));
          }
          line.append("},\"type\":");
          CanonicalJson.string(line, record.value().getDescriptorForType().getFullName());
          line.append(",\"json\":");
          CanonicalJson.string(line, printer.print(record.value()));
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

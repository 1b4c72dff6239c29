package x.serde.interop;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The fixed interop records. Record {@code i} follows the same rule as {@code expectedEvent(i)} in
 * interop/src/fixtures.ts and {@code event(i)} in interop/python/events.py.
 */
final class Events {
  private static final String[] KINDS = {"CREATED", "UPDATED", "DELETED"};

  private Events() {}

  /** The schema of interop/fixtures/event.avsc, which the build copies onto the classpath. */
  static Schema schema() {
    try (InputStream in = Events.class.getResourceAsStream("/event.avsc")) {
      if (in == null) throw new IllegalStateException("event.avsc is not on the classpath");
      return new Schema.Parser().parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read event.avsc", e);
    }
  }

  static GenericRecord event(Schema schema, int i) {
    Schema originSchema = schema.getField("origin").schema();
    Schema kindSchema = schema.getField("kind").schema();
    GenericRecord origin = new GenericData.Record(originSchema);
    origin.put("host", "host-" + i);
    origin.put("port", 9000 + i);
    List<String> tags = new ArrayList<>();
    for (int k = 0; k < i % 3; k++) tags.add("tag-" + i + "-" + k);
    Map<String, Integer> attrs = new HashMap<>();
    attrs.put("i", i);
    attrs.put("neg", -i - 1);
    GenericRecord r = new GenericData.Record(schema);
    r.put("id", "ev-" + i + "-\u00fc\u20ac");
    r.put("seq", i * 7 - 3);
    r.put("ts", 1_700_000_000_000L + i);
    r.put("big", 9_007_199_254_740_993L + i);
    r.put("score", i * 1.5 - 0.125);
    r.put("active", i % 2 == 0);
    r.put("kind", new GenericData.EnumSymbol(kindSchema, KINDS[i % 3]));
    r.put("tags", tags);
    r.put("attrs", attrs);
    r.put("note", i % 2 == 0 ? null : "note " + i);
    r.put("origin", origin);
    r.put("payload", ByteBuffer.wrap(new byte[] {(byte) i, 0, (byte) 0xff, (byte) 0x80}));
    return r;
  }
}

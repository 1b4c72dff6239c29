package x.serde.interop;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Writes an Avro datum as the interop suites' canonical JSON: a long as a decimal string (exact beyond 2^53), bytes
 * as lowercase hex, an enum as its symbol, a union as the bare value, map keys sorted. Every suite compares this
 * form, whatever language produced it.
 */
final class CanonicalJson {
  private CanonicalJson() {}

  static String write(Schema schema, Object value) {
    StringBuilder out = new StringBuilder();
    append(out, schema, value);
    return out.toString();
  }

  private static void append(StringBuilder out, Schema schema, Object value) {
    switch (schema.getType()) {
      case NULL -> out.append("null");
      case BOOLEAN, INT, DOUBLE, FLOAT -> out.append(value);
      case LONG -> string(out, value.toString());
      case STRING, ENUM -> string(out, value.toString());
      case BYTES -> {
        ByteBuffer buf = ((ByteBuffer) value).duplicate();
        StringBuilder hex = new StringBuilder();
        while (buf.hasRemaining()) hex.append(String.format("%02x", buf.get() & 0xff));
        string(out, hex.toString());
      }
      case ARRAY -> {
        out.append('[');
        boolean first = true;
        for (Object item : (Collection<?>) value) {
          if (!first) out.append(',');
          first = false;
          append(out, schema.getElementType(), item);
        }
        out.append(']');
      }
      case MAP -> {
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, ?> e : sorted((Map<?, ?>) value).entrySet()) {
          if (!first) out.append(',');
          first = false;
          string(out, e.getKey());
          out.append(':');
          append(out, schema.getValueType(), e.getValue());
        }
        out.append('}');
      }
      case RECORD -> {
        GenericRecord record = (GenericRecord) value;
        out.append('{');
        boolean first = true;
        for (Schema.Field f : schema.getFields()) {
          if (!first) out.append(',');
          first = false;
          string(out, f.name());
          out.append(':');
          append(out, f.schema(), record.get(f.name()));
        }
        out.append('}');
      }
      // The branch Avro itself writes the value with (a union may have several branches besides null).
      case UNION -> append(out, schema.getTypes().get(GenericData.get().resolveUnion(schema, value)), value);
      default -> throw new IllegalArgumentException("unsupported Avro type " + schema.getType());
    }
  }

  private static Map<String, Object> sorted(Map<?, ?> map) {
    Map<String, Object> result = new TreeMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) result.put(e.getKey().toString(), e.getValue());
    return result;
  }

  static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
        }
      }
    }
    out.append('"');
  }
}

"""Deserializes hex frames (one per stdin line) with apicurio-serdes' AvroDeserializer; prints canonical JSON lines.

    consume.py <registryUrl> <groupId> <globalId|contentId>
"""

from __future__ import annotations

import sys

from apicurio_serdes import ApicurioRegistryClient
from apicurio_serdes.avro import AvroDeserializer
from apicurio_serdes.serialization import MessageField, SerializationContext

import events


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    url, group, use_id = argv
    schema = events.schema()
    ctx = SerializationContext(topic="interop", field=MessageField.VALUE)
    with ApicurioRegistryClient(url=url, group_id=group, max_retries=1) as client:
        deserializer = AvroDeserializer(client, use_id=use_id)
        for line in sys.stdin:
            line = line.strip()
            if line:
                print(events.dumps(events.canonical(schema, deserializer(bytes.fromhex(line), ctx))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

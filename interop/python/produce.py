"""Serializes the interop records with apicurio-serdes' AvroSerializer; prints one hex frame per line.

    produce.py <registryUrl> <groupId> <artifactId> <globalId|contentId> [count=3]

The serializer auto-registers the fixture schema: against a real v3 registry apicurio-serdes 0.5.0 cannot look up an
existing artifact (it asks for `/versions/latest/content`, which v3 reads as a version literally named "latest"), so
its 404 always leads to a registration with ifExists=FIND_OR_CREATE_VERSION.
"""

from __future__ import annotations

import sys

from apicurio_serdes import ApicurioRegistryClient
from apicurio_serdes.avro import AvroSerializer
from apicurio_serdes.serialization import MessageField, SerializationContext

import events


def main(argv: list[str]) -> int:
    if len(argv) not in (4, 5):
        print(__doc__, file=sys.stderr)
        return 2
    url, group, artifact_id, use_id = argv[:4]
    count = int(argv[4]) if len(argv) == 5 else 3
    with ApicurioRegistryClient(url=url, group_id=group, max_retries=1) as client:
        serializer = AvroSerializer(
            client, artifact_id=artifact_id, schema=events.schema(), auto_register=True, use_id=use_id
        )
        ctx = SerializationContext(topic=artifact_id, field=MessageField.VALUE)
        for i in range(count):
            print(serializer(events.event(i), ctx).hex())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

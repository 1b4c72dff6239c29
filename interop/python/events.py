"""The interop records and their canonical JSON form.

Record ``i`` follows the same rule as ``expectedEvent(i)`` in interop/src/fixtures.ts and ``Events.event`` in
interop/java. The canonical JSON form is the one every suite compares: a long as a decimal string, bytes as lowercase
hex, an enum as its symbol, a union as the bare value, map keys sorted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "fixtures" / "event.avsc"
KINDS = ("CREATED", "UPDATED", "DELETED")
PRIMITIVES = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"}


def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def event(i: int) -> dict[str, Any]:
    return {
        "id": f"ev-{i}-\u00fc\u20ac",
        "seq": i * 7 - 3,
        "ts": 1_700_000_000_000 + i,
        "big": 9_007_199_254_740_993 + i,
        "score": i * 1.5 - 0.125,
        "active": i % 2 == 0,
        "kind": KINDS[i % 3],
        "tags": [f"tag-{i}-{k}" for k in range(i % 3)],
        "attrs": {"i": i, "neg": -i - 1},
        "note": None if i % 2 == 0 else f"note {i}",
        "origin": {"host": f"host-{i}", "port": 9000 + i},
        "payload": bytes([i & 0xFF, 0x00, 0xFF, 0x80]),
    }


def canonical(schema_: Any, value: Any, names: dict[str, Any] | None = None, namespace: str = "") -> Any:
    names = {} if names is None else names
    if isinstance(schema_, str):
        if schema_ in PRIMITIVES:
            schema_ = {"type": schema_}
        else:
            full = schema_ if "." in schema_ else f"{namespace}.{schema_}" if namespace else schema_
            return canonical(names[full], value, names, namespace)
    if isinstance(schema_, list):
        branch = next(s for s in schema_ if (s == "null") == (value is None))
        return canonical(branch, value, names, namespace)
    kind = schema_["type"]
    if kind in ("record", "enum", "fixed"):
        namespace = schema_.get("namespace", namespace)
        name = schema_["name"]
        names[name if "." in name else f"{namespace}.{name}" if namespace else name] = schema_
    if kind == "record":
        return {f["name"]: canonical(f["type"], value[f["name"]], names, namespace) for f in schema_["fields"]}
    if kind == "array":
        return [canonical(schema_["items"], v, names, namespace) for v in value]
    if kind == "map":
        return {k: canonical(schema_["values"], value[k], names, namespace) for k in sorted(value)}
    if kind == "long":
        return str(value)
    if kind in ("bytes", "fixed"):
        return bytes(value).hex()
    if isinstance(kind, (dict, list)):
        return canonical(kind, value, names, namespace)
    return value


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

#!/usr/bin/env python3
"""Regenerate decks/cards/pool.csv (card facts only) from a card dump.

Accepted inputs (auto-detected, several files may be given and are merged):
  * JSON Lines in the flat shape of ../shared/data/altered-cards.jsonl
    (ref, name_en, faction, rarity, type, subtypes, hand_cost, ...);
  * the official card API shape (https://api.altered.gg/cards): a JSON array,
    a `hydra:member` page, or JSON Lines of objects with `reference`,
    `cardType.reference`, `mainFaction.reference`, `rarity.reference`,
    `cardSubTypes[].reference`, `name` (string or {en: ...}) and `elements`
    (MAIN_COST, RECALL_COST, FOREST_POWER, MOUNTAIN_POWER, OCEAN_POWER,
    MAIN_EFFECT, ECHO_EFFECT, RESERVE, PERMANENT).

Card texts are NOT written out. Each row carries `text_hash`, a 64-bit FNV-1a
hash of the English main + support text, so the simulator can (a) share one
ability encoding between reprints with the same text and (b) flag an encoding
as stale when a refreshed pool changes a card's text.

Usage: scripts/import_cards.py INPUT [INPUT ...] [-o decks/cards/pool.csv]
"""
import argparse
import csv
import json
import re
import sys

COLUMNS = [
    "reference", "set", "name", "faction", "rarity", "type", "subtypes",
    "hand_cost", "reserve_cost", "forest", "mountain", "ocean",
    "reserve_limit", "landmark_limit", "text_hash",
]

# CORE prints landmarks as PERMANENT; later sets say LANDMARK_PERMANENT.
TYPE_ALIASES = {"PERMANENT": "LANDMARK_PERMANENT"}


def fnv1a64(text):
    h = 0xCBF29CE484222325
    for b in text.encode("utf-8"):
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def text_hash(main, echo):
    return fnv1a64((main or "") + "\n" + (echo or ""))


def num(value):
    """'#4#', '4', 4, None -> int or None."""
    if value is None or value == "":
        return None
    if isinstance(value, int):
        return value
    m = re.search(r"-?\d+", str(value))
    return int(m.group(0)) if m else None


def english(value):
    if isinstance(value, dict):
        return value.get("en") or value.get("en-us") or value.get("en_US")
    return value


def ref_of(obj):
    return obj.get("reference") if isinstance(obj, dict) else obj


def set_from_reference(reference):
    parts = reference.split("_")
    return parts[1] if len(parts) > 2 else ""


def from_flat(c):
    return {
        "reference": c["ref"],
        "set": c.get("set") or set_from_reference(c["ref"]),
        "name": c["name_en"],
        "faction": c.get("faction") or "",
        "rarity": c.get("rarity") or "",
        "type": c["type"],
        "subtypes": c.get("subtypes") or [],
        "hand_cost": c.get("hand_cost"),
        "reserve_cost": c.get("reserve_cost"),
        "forest": c.get("forest"),
        "mountain": c.get("mountain"),
        "ocean": c.get("ocean"),
        "reserve_limit": c.get("reserve_limit"),
        "landmark_limit": c.get("landmark_limit"),
        "text_hash": text_hash(c.get("main_effect_en"), c.get("echo_effect_en")),
    }


def from_api(c):
    el = c.get("elements") or {}
    reference = c["reference"] if "reference" in c else c["id"]
    card_set = ref_of(c.get("cardSet")) or set_from_reference(reference)
    card_type = ref_of(c.get("cardType")) or c.get("type")
    return {
        "reference": reference,
        "set": card_set,
        "name": english(c.get("name")),
        "faction": ref_of(c.get("mainFaction")) or "",
        "rarity": ref_of(c.get("rarity")) or "",
        "type": card_type,
        "subtypes": [ref_of(s) for s in (c.get("cardSubTypes") or c.get("subtypes") or [])],
        "hand_cost": num(el.get("MAIN_COST")),
        "reserve_cost": num(el.get("RECALL_COST")),
        "forest": num(el.get("FOREST_POWER")),
        "mountain": num(el.get("MOUNTAIN_POWER")),
        "ocean": num(el.get("OCEAN_POWER")),
        "reserve_limit": num(el.get("RESERVE")),
        "landmark_limit": num(el.get("PERMANENT")),
        "text_hash": text_hash(english(el.get("MAIN_EFFECT")), english(el.get("ECHO_EFFECT"))),
    }


def records(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    stripped = text.lstrip()
    if stripped.startswith("[") or (stripped.startswith("{") and "\n{" not in stripped.strip()):
        data = json.loads(text)
        if isinstance(data, dict):
            data = data.get("hydra:member") or data.get("member") or list(data.values())
        for item in data:
            yield item
    else:
        for lineno, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as e:
                    sys.exit(f"{path}:{lineno}: not valid JSON: {e}")


def convert(c):
    row = from_flat(c) if "ref" in c else from_api(c)
    row["type"] = TYPE_ALIASES.get(row["type"], row["type"])
    if not row["reference"] or not row["name"] or not row["type"]:
        raise ValueError(f"card without reference, English name or type: {c!r:.200}")
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("-o", "--output", default="decks/cards/pool.csv")
    args = ap.parse_args()
    rows = {}
    for path in args.inputs:
        for c in records(path):
            try:
                row = convert(c)
            except (KeyError, ValueError) as e:
                sys.exit(f"{path}: {e}")
            rows[row["reference"]] = row
    with open(args.output, "w", newline="", encoding="utf-8") as f:
        f.write("# generated by scripts/import_cards.py from the official card data; do not edit by hand.\n")
        f.write("# Card content belongs to Equinox. Facts only: no card texts (text_hash = FNV-1a 64 of the English texts).\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        for ref in sorted(rows):
            r = rows[ref]
            out = []
            for col in COLUMNS:
                v = r[col]
                if col == "subtypes":
                    v = ";".join(v)
                out.append("" if v is None else v)
            w.writerow(out)
    print(f"wrote {len(rows)} cards to {args.output}")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""validate.py SCHEMA REPORT...: validate SARIF reports against the official
SARIF 2.1.0 JSON schema (tests/sarif/sarif-schema-2.1.0.json) with Debian's
python3-jsonschema, formats checked (python3-rfc3987 gives "uri"); every
artifactLocation.uri is also checked as an RFC 3986 URI reference, which the
draft-04 format checker leaves out.  Prints one line per problem; exit 0
when every report is valid, 1 otherwise, 77 when a module is missing."""
import json
import sys

try:
    import jsonschema
    import rfc3987
except ImportError as e:
    print(f"SKIP: {e} (apt-get install python3-jsonschema python3-rfc3987)")
    sys.exit(77)


def artifact_uris(node):
    if isinstance(node, dict):
        loc = node.get("artifactLocation")
        if isinstance(loc, dict) and "uri" in loc:
            yield loc["uri"]
        for v in node.values():
            yield from artifact_uris(v)
    elif isinstance(node, list):
        for v in node:
            yield from artifact_uris(v)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.Draft4Validator(
        schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    if "uri" not in jsonschema.Draft4Validator.FORMAT_CHECKER.checkers:
        print("SKIP: jsonschema has no 'uri' format checker")
        sys.exit(77)
    bad = 0
    for path in sys.argv[2:]:
        with open(path, "rb") as f:
            raw = f.read()
        try:
            doc = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            print(f"{path}: not JSON in UTF-8: {e}")
            bad += 1
            continue
        for err in sorted(validator.iter_errors(doc), key=str):
            where = "/".join(str(p) for p in err.absolute_path)
            print(f"{path}: {where}: {err.message}")
            bad += 1
        for uri in artifact_uris(doc):
            try:
                rfc3987.parse(uri, rule="URI_reference")
            except ValueError:
                print(f"{path}: artifactLocation.uri {uri!r} is not a URI reference")
                bad += 1
    sys.exit(1 if bad else 0)


main()

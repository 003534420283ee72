#!/usr/bin/env python3
"""Checks Springframe scene files against schema/scene.schema.json.

usage: python3 schema/check.py FILE...

Prints `FILE: JSON.PATH: message` for every problem (paths written as the
renderer writes them, e.g. `layers[3].stroke.width`), and exits 0 when every
file is valid, 1 otherwise (2 for a usage error).

Besides the schema, it reads JSON as strictly as the renderer does:
duplicate keys, NaN/Infinity, numbers out of the double range and unpaired
surrogates are errors. It cannot check what only the renderer knows (that an
animation or transition string parses, that ids named by the timeline
exist, that asset and font files exist, that gradient stops are sorted…):
`render validate` remains the reference.

Needs the `jsonschema` module (4.x, Draft 2020-12), e.g. /usr/bin/python3.
"""
import difflib
import json
import math
import os
import re
import sys

try:
    from jsonschema import Draft202012Validator, ValidationError, validators
except ImportError:  # pragma: no cover
    sys.stderr.write("check.py: error: needs the jsonschema module (try /usr/bin/python3)\n")
    sys.exit(2)

SCHEMA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scene.schema.json")


class JSONError(Exception):
    pass


# ---------------------------------------------------------------- reading

def _pairs(pairs):
    seen = set()
    for k, _ in pairs:
        if k in seen:
            raise JSONError("duplicate key '%s'" % k)
        seen.add(k)
    return dict(pairs)


def _constant(name):
    raise JSONError("invalid JSON: %s is not a JSON value" % name)


def _float(text):
    value = float(text)
    if not math.isfinite(value):
        raise JSONError("number '%s' is out of range" % text)
    return value


def _int(text):
    value = int(text)
    try:
        float(value)
    except OverflowError:
        raise JSONError("number '%s' is out of range" % text)
    return value


def _check_strings(value):
    """What the renderer's parser rejects and Python's lets through: unpaired
    surrogates, and arrays and objects nested more than 256 deep."""
    stack = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        strings = []
        if isinstance(v, str):
            strings = [v]
        elif isinstance(v, (dict, list)):
            if depth >= 256:
                raise JSONError("invalid JSON: nesting deeper than the limit of 256 levels")
            if isinstance(v, dict):
                strings = list(v.keys())
                stack.extend((x, depth + 1) for x in v.values())
            else:
                stack.extend((x, depth + 1) for x in v)
        for s in strings:
            try:
                s.encode("utf-8")
            except UnicodeEncodeError:
                raise JSONError("invalid JSON: unpaired surrogate in \\u escape")


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise JSONError("invalid JSON: not UTF-8 (byte %d)" % e.start)
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant,
                           parse_float=_float, parse_int=_int)
    except json.JSONDecodeError as e:
        raise JSONError("invalid JSON: %s (line %d, column %d)" % (e.msg, e.lineno, e.colno))
    except RecursionError:
        raise JSONError("invalid JSON: nested too deeply")
    except ValueError as e:
        raise JSONError("invalid JSON: %s" % e)
    _check_strings(value)
    return value


# ---------------------------------------------------------------- messages

_IDENTIFIER = re.compile(r"^[^\W\d][\w-]*\Z")


def format_path(components):
    """A JSON path as the renderer prints it: `layers[3].stroke.width`."""
    out = ""
    for c in components:
        if isinstance(c, int):
            out += "[%d]" % c
        elif _IDENTIFIER.match(c):
            out += ("." if out else "") + c
        else:
            out += "[%s]" % json.dumps(c, ensure_ascii=False)
    return out or "(root)"


def short(instance):
    text = json.dumps(instance, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _number(n):
    return json.dumps(n)


_RANGE = {
    "minimum": "%s or more",
    "exclusiveMinimum": "greater than %s",
    "maximum": "at most %s",
    "exclusiveMaximum": "less than %s",
}
_TYPE_NAMES = {"object": "an object", "array": "a list", "string": "a string", "number": "a number",
               "integer": "a whole number", "boolean": "true or false", "null": "null"}


def _type_names(t):
    if isinstance(t, list):
        return " or ".join(_TYPE_NAMES.get(x, x) for x in t)
    return _TYPE_NAMES.get(t, t)


def _described(error, fallback="is not valid here"):
    description = error.schema.get("description") if isinstance(error.schema, dict) else None
    return "%s %s%s" % (short(error.instance), fallback, ": " + description if description else "")


def _allowed_names(error):
    """The keys the object at an `unevaluatedProperties: false` error may
    have, by name (whatever their values): the schema's `properties` and
    those of every `then` whose `if` holds (a layer's type). None: any."""
    schema = error.schema
    allowed = set(schema.get("properties", {}))
    validator = SceneValidator(schema_root)
    for sub in schema.get("allOf", []):
        if "if" in sub and "then" in sub and validator.evolve(schema=sub["if"]).is_valid(error.instance):
            if sub["then"].get("unevaluatedProperties") is True:
                return None
            allowed |= set(sub["then"].get("properties", {}))
    return allowed


def _unknown_keys(error):
    """(unknown keys, known keys) at an additionalProperties /
    unevaluatedProperties: false error. jsonschema counts a key whose value
    is invalid as unevaluated too; that key is not unknown (its own error
    says what is wrong), so keys are judged by name only."""
    schema = error.schema
    if error.validator == "additionalProperties":
        known = set(schema.get("properties", {}))
        patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
        return [k for k in error.instance if k not in known and not any(p.search(k) for p in patterns)], sorted(known)
    known = _allowed_names(error)
    if known is None:
        return [], []
    return [k for k in error.instance if k not in known], sorted(known)


# A branch of an anyOf that fails on one of these at its own level does not
# have the shape of the value: the other branches explain the problem better.
_MISMATCH = {"type", "const", "enum", "required", "pattern"}


def _mismatched(errors, kinds):
    return any(not e.relative_path and e.validator in kinds and "dependentSchemas" not in e.relative_schema_path
               and "propertyNames" not in e.relative_schema_path for e in errors)


def explain(error):
    """[(path components, message)] for one jsonschema error."""
    path = list(error.absolute_path)
    v = error.validator
    if v in ("anyOf", "oneOf") and error.context:
        branches = {}
        for e in error.context:
            branches.setdefault(e.relative_schema_path[0], []).append(e)
        if all(isinstance(sub, dict) and set(sub) == {"required"} for sub in error.validator_value):
            names = [k for sub in error.validator_value for k in sub.get("required", [])]
            return [(path, "needs at least one of %s" % ", ".join(names))]
        for mismatch in (_MISMATCH, {"type"}):
            relevant = [errs for errs in branches.values() if not _mismatched(errs, mismatch)]
            if len(relevant) == 1:
                out = []
                for e in relevant[0]:
                    out += explain(e)
                return out
            if relevant:
                break
        return [(path, _described(error))]
    if "dependentSchemas" in error.relative_schema_path and v == "enum":
        i = list(error.relative_schema_path).index("dependentSchemas")
        first = list(error.relative_schema_path)[i + 1]
        others = [x for x in error.validator_value if x != first]
        return [(path + [error.instance], "'%s' cannot be written with '%s': one call per object, then only %s"
                 % (error.instance, first, ", ".join(others)))]
    if v in ("additionalProperties", "unevaluatedProperties") and error.validator_value is False:
        unknown, known = _unknown_keys(error)
        out = []
        for k in unknown:
            hint = difflib.get_close_matches(k, known, n=1)
            out.append((path + [k], "unknown key '%s'%s" % (k, " (did you mean '%s'?)" % hint[0] if hint else "")))
        return out
    if v == "required":
        missing = [k for k in error.validator_value if isinstance(error.instance, dict) and k not in error.instance]
        return [(path, "missing required key '%s'" % k) for k in missing] or [(path, error.message)]
    if v == "enum":
        return [(path, "%s is not one of %s" % (short(error.instance), ", ".join(json.dumps(x) for x in error.validator_value)))]
    if v == "const":
        return [(path, "%s is not %s" % (short(error.instance), json.dumps(error.validator_value)))]
    if v == "type":
        return [(path, "expected %s, got %s" % (_type_names(error.validator_value), short(error.instance)))]
    if v in _RANGE:
        return [(path, "%s is out of range: must be %s" % (_number(error.instance), _RANGE[v] % _number(error.validator_value)))]
    if v == "pattern":
        return [(path, _described(error))]
    if v == "not":
        return [(path, _described(error, "is not valid here (low)"))]
    if v == "minProperties":
        return [(path, "%s is empty: name at least one call" % short(error.instance))]
    if v in ("minItems", "maxItems"):
        n = len(error.instance)
        fixed = error.schema.get("prefixItems") is not None and error.schema.get("items") is False
        if fixed and error.schema.get("minItems") == len(error.schema["prefixItems"]):
            return [(path, "expected %d values, got %d" % (len(error.schema["prefixItems"]), n))]
        if v == "minItems":
            return [(path, "expected at least %d item%s, got %d" % (error.validator_value, "" if error.validator_value == 1 else "s", n))]
        return [(path, "expected at most %d items, got %d" % (error.validator_value, n))]
    if v == "items" and error.validator_value is False:
        return [(path, "expected at most %d values, got %d" % (len(error.schema.get("prefixItems", [])), len(error.instance)))]
    if v == "contains":
        return [(path, _described(error))]
    return [(path, error.message)]


# ---------------------------------------------------------------- validator

def _pattern(validator, pattern, instance, schema):
    """`pattern` as ECMA-262 reads it: Python's `$` also matches before a
    final newline, so a trailing `$` is read as `\\Z` (end of string)."""
    if not validator.is_type(instance, "string"):
        return
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + "\\Z"
    if not re.search(pattern, instance):
        yield ValidationError("%r does not match %r" % (instance, pattern))


SceneValidator = validators.extend(Draft202012Validator, {"pattern": _pattern})


# ---------------------------------------------------------------- main

schema_root = None


def check(path, validator):
    """The problems of one file, as printable lines."""
    try:
        scene = load(path)
    except OSError as e:
        return ["%s: (root): cannot read: %s" % (path, e.strerror or e)]
    except JSONError as e:
        return ["%s: (root): %s" % (path, e)]
    problems = []
    for error in sorted(validator.iter_errors(scene), key=lambda e: [str(x) for x in e.absolute_path]):
        problems += [(format_path(components), message) for components, message in explain(error)]
    # A value of the wrong type needs no further explanation.
    mistyped = {p for p, m in problems if m.startswith("expected ")}
    # A `not` says little: only when nothing else is said about the value.
    explained = {p for p, m in problems if " is not valid here (low)" not in m}
    lines = []
    for p, message in problems:
        if " is not valid here (low)" in message:
            if p in explained:
                continue
            message = message.replace(" is not valid here (low)", " is not valid here")
        line = "%s: %s: %s" % (path, p, message)
        if (p in mistyped and not message.startswith("expected ")) or line in lines:
            continue
        lines.append(line)
    return lines


def main(argv):
    global schema_root
    if not argv or argv[0] in ("-h", "--help"):
        sys.stderr.write("usage: python3 schema/check.py FILE...\n")
        return 2
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        schema_root = json.load(f)
    Draft202012Validator.check_schema(schema_root)
    validator = SceneValidator(schema_root)
    ok = True
    for path in argv:
        lines = check(path, validator)
        for line in lines:
            print(line)
        ok = ok and not lines
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

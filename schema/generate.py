#!/usr/bin/env python3
"""Generates scene.schema.json (next to this file) from the decoder's key
lists and value rules (Sources/SceneModel, Sources/Timing/AnimationParser.swift).

The schema is generated: edit this file, then run
    /usr/bin/python3 schema/generate.py && /usr/bin/python3 schema/agree.py
"""
import json
import os
from collections import OrderedDict as O

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scene.schema.json")

NAMED_COLORS = ['red', 'orange', 'yellow', 'green', 'mint', 'teal', 'cyan', 'blue', 'indigo', 'purple', 'pink', 'brown', 'gray', 'systemRed', 'systemOrange', 'systemYellow', 'systemGreen', 'systemMint', 'systemTeal', 'systemCyan', 'systemBlue', 'systemIndigo', 'systemPurple', 'systemPink', 'systemBrown', 'systemGray', 'systemGray2', 'systemGray3', 'systemGray4', 'systemGray5', 'systemGray6', 'label', 'secondaryLabel', 'tertiaryLabel', 'quaternaryLabel', 'systemBackground', 'secondarySystemBackground', 'tertiarySystemBackground', 'systemGroupedBackground', 'secondarySystemGroupedBackground', 'tertiarySystemGroupedBackground', 'separator', 'opaqueSeparator', 'link', 'placeholderText', 'systemFill', 'secondarySystemFill', 'tertiarySystemFill', 'quaternarySystemFill', 'black', 'white', 'clear']
# Swift's Character.hexDigitValue also takes the fullwidth forms (０-９, Ａ-Ｆ, ａ-ｆ), and so does the decoder.
HEX = "[0-9A-Fa-f\uff10-\uff19\uff21-\uff26\uff41-\uff46]"
HEX_PATTERN = "^#(%s{3}|%s{6}|%s{8})$" % (HEX, HEX, HEX)
LAYER_TYPES = ["rect", "circle", "ellipse", "capsule", "path", "text", "image", "group", "vstack", "hstack", "zstack"]
ID_PATTERN = "^[A-Za-z_][A-Za-z0-9_-]*$"
WEIGHTS = ["ultraLight", "thin", "light", "regular", "medium", "semibold", "bold", "heavy", "black"]
EDGES = ["leading", "trailing", "top", "bottom"]
EASING_FAMILIES = ["Sine", "Quad", "Cubic", "Quart", "Quint", "Expo", "Circ", "Back", "Elastic", "Bounce"]
EASING_MODES = ["easeIn", "easeOut", "easeInOut"]

ANIMATION_EXAMPLES = [
    "default", "linear", "easeInOut", "smooth", "snappy", "bouncy", "spring", "interactiveSpring",
    "linear(duration: 0.3)", "easeInOut(duration: 0.35)", "timingCurve(0.2, 0.8, 0.2, 1, duration: 0.5)",
    "spring(duration: 0.5, bounce: 0.2)", "spring(response: 0.55, dampingFraction: 0.825)",
    "interpolatingSpring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0)",
    "smooth(duration: 0.4)", "snappy(duration: 0.4, extraBounce: 0.1)", "bouncy(extraBounce: 0.1)",
    "easeOutBack(duration: 1)", "easeInOutCirc(duration: 1.5)",
    "uikitSpring(duration: 0.4, dampingRatio: 0.5, initialVelocity: 0)",
    "easeInOut(duration: 0.35).delay(0.1)", ".snappy", "default.repeatForever(autoreverses: false)",
    "easeInOut.repeatCount(3, autoreverses: true)", "spring.speed(2)",
]
TRANSITION_EXAMPLES = [
    "opacity", "scale", "scale(0.5)", "scale(0.5, anchor: [0, 0])", "slide", "move(edge: .bottom)",
    "offset(x: 0, y: 20)", "push(from: .trailing)", "blur(radius: 10)", "identity",
    "slide.combined(with: .opacity)", "asymmetric(insertion: .slide, removal: .opacity)", ".scale.combined(with: .opacity)",
]


def num(desc=None, **kw):
    s = O(type="number")
    s.update(kw)
    if desc:
        s["description"] = desc
    return s


def pair(desc=None, item=None, default=None, examples=None):
    item = item or {"type": "number"}
    s = O(type="array", prefixItems=[item, item], minItems=2, items=False)
    if desc:
        s["description"] = desc
    if default is not None:
        s["default"] = default
    if examples:
        s["examples"] = examples
    return s


def ref(name, desc=None, **kw):
    s = O([("$ref", "#/$defs/" + name)])
    if desc:
        s["description"] = desc
    s.update(kw)
    return s


defs = O()

# ---------------------------------------------------------------- values

defs["point"] = pair("[x, y] in points.")
defs["color"] = O(
    type="string",
    description="A colour: \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\", or an iOS system colour name (light mode); \"clear\" is transparent.",
    anyOf=[O(enum=NAMED_COLORS), O(pattern=HEX_PATTERN)],
    examples=["#007AFF", "#FFF", "#00000033", "blue", "clear"],
)
defs["gradientStops"] = O(
    type="array",
    description="Stops [[offset, colour], …]: offsets sorted, in 0…1; outside them the end colours extend.",
    minItems=1,
    items=O(type="array", description="A stop [offset, colour].",
            prefixItems=[num("Offset, 0…1.", minimum=0, maximum=1), ref("color")], minItems=2, items=False),
    examples=[[[0, "#FF9500"], [1, "#FF2D55"]]],
)
defs["linearGradient"] = O(
    type="object",
    description="SwiftUI's LinearGradient: `from` and `to` are unit points of the bounds.",
    properties=O(
        linear=O(
            type="object",
            description="A linear gradient from one unit point of the bounds to another.",
            properties=O(
                **{"from": pair("Start, a unit point [u, v] of the bounds.", examples=[[0.5, 0]])},
                to=pair("End, a unit point [u, v] of the bounds.", examples=[[0.5, 1]]),
                stops=ref("gradientStops"),
            ),
            required=["from", "to", "stops"],
            additionalProperties=False,
        )
    ),
    required=["linear"],
    additionalProperties=False,
)
defs["radialGradient"] = O(
    type="object",
    description="SwiftUI's RadialGradient: centre a unit point of the bounds, radii in points.",
    properties=O(
        radial=O(
            type="object",
            description="A radial gradient around a unit point of the bounds.",
            properties=O(
                center=pair("Centre, a unit point [u, v] of the bounds.", default=[0.5, 0.5]),
                startRadius=num("Radius of the first stop, in points.", minimum=0, default=0),
                endRadius=num("Radius of the last stop, in points.", minimum=0),
                stops=ref("gradientStops"),
            ),
            required=["endRadius", "stops"],
            additionalProperties=False,
        )
    ),
    required=["radial"],
    additionalProperties=False,
)
defs["paint"] = O(
    description="A paint: a colour string, or a gradient object {\"linear\": …} or {\"radial\": …}.",
    anyOf=[ref("color"), ref("linearGradient"), ref("radialGradient")],
)
defs["stroke"] = O(
    type="object",
    description="An outline centred on the shape, as SwiftUI's StrokeStyle plus a paint. In `set`, only the fields given change.",
    properties=O(
        color=ref("paint", "Paint of the stroke (animatable).", default="#000000"),
        width=num("Line width in points (animatable).", minimum=0, default=1),
        cap=O(type="string", description="Line cap.", enum=["butt", "round", "square"], default="butt"),
        join=O(type="string", description="Line join.", enum=["miter", "round", "bevel"], default="miter"),
        miterLimit=num("Miter limit.", minimum=1, default=10),
        dash=O(type="array", description="Dash pattern [on, off, …] in points; not all zeros. Leave out for a solid line.",
               items=num(minimum=0),
               anyOf=[O(maxItems=0), O(contains=num(exclusiveMinimum=0))],
               examples=[[4, 2]]),
        dashPhase=num("Offset into the dash pattern, in points (animatable).", default=0),
    ),
    additionalProperties=False,
)
defs["shadow"] = O(
    type="object",
    description="A drop shadow of the layer's silhouette; all fields animatable. In `set`, only the fields given change.",
    properties=O(
        color=ref("color", "Shadow colour (a colour, not a gradient).", default="#00000055"),
        radius=num("Blur radius in points: σ of the Gaussian; at most 100.", minimum=0, maximum=100, default=0),
        offset=pair("Offset [dx, dy] in points.", default=[0, 0]),
    ),
    additionalProperties=False,
)

defs["backdrop"] = O(
    type="object",
    description="A material: what lies beneath the shape, blurred and saturated, then covered with the tint, drawn inside the shape beneath its fill; all fields animatable. In `set`, only the fields given change.",
    properties=O(
        blur=num("σ of the Gaussian in points; at most 100.", minimum=0, maximum=100, default=0),
        saturation=num("1 leaves the colours as they are, 0 makes them grey; at most 10.", minimum=0, maximum=10, default=1),
        tint=ref("color", "Drawn over the blurred backdrop (a colour, not a gradient).", default="clear"),
    ),
    additionalProperties=False,
)
MATERIALS = ["ultraThin", "thin", "regular", "thick", "ultraThick"]
MATERIAL = O(type="string",
             description="A named material (SwiftUI's .ultraThinMaterial … .ultraThickMaterial): a backdrop with the documented light and dark values; `backdrop` fields given override it.",
             enum=MATERIALS + [m + "Material" for m in MATERIALS])

# ---------------------------------------------------------------- properties

ANIMATABLE = O(
    position=pair("Where the anchor point sits, in the parent's coordinates [x, y] (animatable). A stacked child's position is computed by the layout.", default=[0, 0]),
    size=pair("Bounds size [w, h] in points (animatable); for a circle w = h = diameter. Default: the type's intrinsic size.", item=num(minimum=0)),
    anchor=pair("Unit point [u, v] of the bounds that `position` names, and around which `scale` and `rotation` act (animatable).", default=[0.5, 0.5]),
    offset=pair("[dx, dy] added to position after layout, as SwiftUI's .offset (animatable).", default=[0, 0]),
    scale=O(description="Scale around the anchor: a number or [sx, sy] (animatable).",
            anyOf=[num(), pair()], default=1),
    rotation=num("Rotation in degrees, clockwise, around the anchor (animatable).", default=0),
    opacity=num("Opacity 0…1 of the layer with its children as one group (animatable).", minimum=0, maximum=1, default=1),
    fill=ref("paint", "Interior paint (animatable). Default for shapes: none if `stroke`, `backdrop` or `material` is given, else \"#000000\"."),
    stroke=ref("stroke"),
    trim=pair("[from, to] in 0…1, from ≤ to: draws only that part of the outline (animatable).",
              item=num(minimum=0, maximum=1), default=[0, 1]),
    cornerRadius=num("Corner radius in points, for `rect` and the clip of a layer with `clip` (animatable).", minimum=0, default=0),
    shadow=ref("shadow"),
    blur=num("Gaussian blur radius in points, σ of the Gaussian (animatable); at most 100.", minimum=0, maximum=100, default=0),
    backdrop=ref("backdrop"),
)
# Shared definitions: layers, `set` and transition modifiers refer to them.
for k in list(ANIMATABLE):
    if k not in defs:
        defs[k] = ANIMATABLE[k]
ANIMATABLE_INLINE = O(ANIMATABLE)
ANIMATABLE = O((k, ref(k)) for k in ANIMATABLE)
HIDDEN = O(type="boolean", description="Hides the layer and its children (not animatable).", default=False)
TEXT_COLOR = ref("paint", "Text colour (paint, animatable).", default="#000000")

defs["layerID"] = O(type="string", description="A layer id: unique in the scene, [A-Za-z_][A-Za-z0-9_-]*.",
                    pattern=ID_PATTERN)

COMMON = O()
COMMON["id"] = ref("layerID", "Optional unique id, [A-Za-z_][A-Za-z0-9_-]*, by which the timeline names the layer.")
COMMON["type"] = O(type="string", description="The layer's type.", enum=LAYER_TYPES)
COMMON.update(ANIMATABLE)
COMMON["cornerStyle"] = O(type="string", description="Corner shape: \"continuous\" (the iOS squircle) or \"circular\".",
                          enum=["continuous", "circular"], default="continuous")
COMMON["clip"] = O(type="boolean", description="Clip children to the bounds and corner radius.", default=False)
COMMON["hidden"] = HIDDEN
COMMON["material"] = MATERIAL
COMMON["rotation3D"] = O(
    type="object",
    description="SwiftUI's rotation3DEffect: the layer with its children, drawn flat, turned about `axis` through its anchor and projected. `angle` animates.",
    properties=O(
        angle=num("Degrees (animatable).", default=0),
        axis=O(type="array", description="The axis [x, y, z]; not all zero ([0, 1, 0] flips like a card).",
               prefixItems=[num(), num(), num()], minItems=3, items=False),
        anchor=pair("Unit point of the bounds the axis passes through.", default=[0.5, 0.5]),
        anchorZ=num("Points toward the viewer of the axis' anchor.", default=0),
        perspective=num("1 is SwiftUI's; 0 is none.", minimum=0, default=1),
    ),
    required=["axis"],
    additionalProperties=False,
)

CHILDREN = O(type="array", description="Child layers, drawn above the parent in list order, in the parent's own space.",
             items=ref("layer"))
PADDING = O(description="Padding: a number, or [top, leading, bottom, trailing].",
            anyOf=[num(), O(type="array", prefixItems=[num()] * 4, minItems=4, items=False)], default=0)

TYPE_KEYS = O(
    rect=O(), circle=O(), ellipse=O(), capsule=O(),
    path=O(
        d=O(type="string", description="SVG path data (M L H V C S Q T A Z, absolute and relative) in the layer's own coordinates.",
            maxLength=1000000, examples=["M 0 0 L 20 10 L 0 20 Z"]),
        fillRule=O(type="string", description="Fill rule.", enum=["nonzero", "evenodd"], default="nonzero"),
    ),
    text=O(
        text=O(type="string", description="The text; any Unicode the font covers.", maxLength=100000),
        font=ref("font"),
        color=TEXT_COLOR,
        align=O(type="string", description="Alignment of the lines.", enum=["leading", "center", "trailing"], default="leading"),
        width=num("Points: the text wraps within it, and the layer's box is that wide.", exclusiveMinimum=0),
        lineLimit=O(type="integer", description="At most this many lines; the last one shown ends with … when text is left over.", minimum=1),
        lineSpacing=num("Points added between lines.", minimum=0, default=0),
        contentTransition=O(type="string",
                            description="How a change of `text` shows: opacity (a cross-fade), numericText (the characters that differ roll), numericText(countsDown: true|false), identity.",
                            pattern="^\\s*\\.?(opacity|identity|numericText)\\s*(\\(\\s*(countsDown\\s*:\\s*(true|false)\\s*)?\\))?\\s*$",
                            default="opacity", examples=["numericText", "numericText(countsDown: true)"]),
    ),
    image=O(
        asset=O(type="string", description="A name from the scene's `assets` (PNG)."),
        contentMode=O(type="string", description="fill: aspect-fill, cropped to the bounds; fit: aspect-fit; stretch: fill the bounds.",
                      enum=["fill", "fit", "stretch"], default="fill"),
    ),
    group=O(children=CHILDREN),
    vstack=O(
        spacing=num("Space between children, in points.", default=8),
        alignment=O(type="string", description="Horizontal alignment of the children.", enum=["leading", "center", "trailing"], default="center"),
        padding=PADDING,
        children=CHILDREN,
    ),
    hstack=O(
        spacing=num("Space between children, in points.", default=8),
        alignment=O(type="string", description="Vertical alignment of the children.", enum=["top", "center", "bottom"], default="center"),
        padding=PADDING,
        children=CHILDREN,
    ),
    zstack=O(
        alignment=O(type="string", description="Where the children are aligned in the stack.",
                    enum=["center", "leading", "trailing", "top", "bottom", "topLeading", "topTrailing", "bottomLeading", "bottomTrailing"],
                    default="center"),
        padding=PADDING,
        children=CHILDREN,
    ),
)
REQUIRED_BY_TYPE = {"path": ["d"], "text": ["text"], "image": ["asset"]}
TYPE_DESCRIPTIONS = {
    "rect": "A rectangle, optionally rounded (cornerRadius, cornerStyle).",
    "circle": "A circle: the largest one centred in its size.",
    "ellipse": "An ellipse filling its size.",
    "capsule": "A capsule: a rectangle with semicircular ends.",
    "path": "An SVG path (`d`).",
    "text": "A run of text; its intrinsic size is the measured text.",
    "image": "A PNG from `assets`; intrinsic size is pixels divided by the asset's scale.",
    "group": "A container with no layout of its own.",
    "vstack": "Lays its children out in a column.",
    "hstack": "Lays its children out in a row.",
    "zstack": "Overlays its children, aligned in the stack.",
}

defs["font"] = O(
    type="object",
    description="The text's font.",
    properties=O(
        family=O(type="string", description="Font family: one of the scene's `fonts`, or a system font. Default: the system's default family."),
        size=num("Point size.", exclusiveMinimum=0, default=17),
        weight=O(type="string", description="Weight, as SwiftUI's Font.Weight.", enum=WEIGHTS, default="regular"),
    ),
    additionalProperties=False,
)

COMMON["type"]["enumDescriptions"] = [TYPE_DESCRIPTIONS[t] for t in LAYER_TYPES]  # VS Code's extension keyword
layer_all_of = []
for t in LAYER_TYPES:
    then = O(description=TYPE_DESCRIPTIONS[t])
    if TYPE_KEYS[t]:
        then["properties"] = TYPE_KEYS[t]
    if t in REQUIRED_BY_TYPE:
        then["required"] = REQUIRED_BY_TYPE[t]
    layer_all_of.append(O([("if", O(properties=O(type=O(const=t)), required=["type"])), ("then", then)]))
# A layer whose type is missing or unknown: report that alone, not every other key too.
layer_all_of.append(O([
    ("if", O(anyOf=[O(required=["type"], properties=O(type=O(**{"not": O(enum=LAYER_TYPES)}))),
                    O(**{"not": O(required=["type"])})])),
    ("then", O(unevaluatedProperties=True)),
]))

defs["layer"] = O(
    type="object",
    description="A layer: a `type`, geometry, style and, for containers, `children`.",
    required=["type"],
    properties=COMMON,
    allOf=layer_all_of,
    unevaluatedProperties=False,
)

# ---------------------------------------------------------------- animations

def args_schema(overloads, description=None):
    """JSON-object-form arguments of one call. overloads: list of lists of
    (name, labelled, required, schema). Forms: null/true/{}/[] for no
    arguments, an object of labelled arguments (unlabelled parameters by
    name), an array or a lone number of unlabelled arguments in order."""
    forms = []
    if any(all(not req for (_, _, req, _) in ov) for ov in overloads):
        forms += [O(const=None), O(const=True), O(type="array", maxItems=0)]
    objects = []
    for ov in overloads:
        objects.append(O(type="object",
                         properties=O((n, s) for (n, _, _, s) in ov),
                         required=[n for (n, _, req, _) in ov if req],
                         additionalProperties=False))
        # Leading unlabelled parameters as an array / a lone value.
        lead = []
        for (n, labelled, req, s) in ov:
            if labelled:
                break
            lead.append((n, req, s))
        rest_required = any(req for (n, labelled, req, s) in ov[len(lead):])
        if lead and not rest_required:
            nreq = sum(1 for (_, req, _) in lead if req)
            forms.append(O(type="array", prefixItems=[s for (_, _, s) in lead], minItems=max(nreq, 0),
                           items=False))
            if nreq <= 1:
                forms.append(lead[0][2])
    for o in objects:
        if not o["required"]:
            del o["required"]
    forms = objects + forms
    s = O()
    if description:
        s["description"] = description
    s["anyOf"] = forms
    return s


P = lambda **kw: num(**kw)
DURATION = num("Duration in seconds.", exclusiveMinimum=0)
BLEND = num("Accepted for SwiftUI source compatibility.", minimum=0)

anim_props = O()


def extra_bounce(bounce):
    desc = "Added to the preset's bounce of %g; the sum must be greater than -1 and less than 1." % bounce
    if bounce == 0:
        return num(desc, exclusiveMinimum=-1, exclusiveMaximum=1, default=0)
    # Inclusive bounds: the decoder checks the floating-point sum, which may
    # round inside the range at the boundary itself.
    return num(desc, minimum=round(-1 - bounce, 10), maximum=round(1 - bounce, 10), default=0)
curve_ov = [[("duration", True, False, O(num("Duration in seconds.", exclusiveMinimum=0), default=0.35))]]
defs["curveArguments"] = args_schema(curve_ov, "Arguments of a timing curve: {\"duration\": 0.35}, or null / true / {} for the defaults.")
for name, d in [("linear", "Constant speed."), ("easeIn", "Cubic Bézier (0.42, 0, 1, 1)."),
                ("easeOut", "Cubic Bézier (0, 0, 0.58, 1)."), ("easeInOut", "Cubic Bézier (0.42, 0, 0.58, 1).")]:
    anim_props[name] = ref("curveArguments", d + " Arguments: {\"duration\": 0.35}.")
for mode in EASING_MODES:
    for fam in EASING_FAMILIES:
        anim_props[mode + fam] = ref("curveArguments", "The standard %s%s easing. Arguments: {\"duration\": 0.35}." % (mode, fam))
anim_props["timingCurve"] = args_schema([[
    ("p1x", False, True, num("First control point x, 0…1.", minimum=0, maximum=1)),
    ("p1y", False, True, num("First control point y.")),
    ("p2x", False, True, num("Second control point x, 0…1.", minimum=0, maximum=1)),
    ("p2y", False, True, num("Second control point y.")),
    ("duration", True, False, O(DURATION, default=0.35)),
]], "A cubic Bézier timing curve: [p1x, p1y, p2x, p2y] or {\"p1x\", \"p1y\", \"p2x\", \"p2y\", \"duration\"}.")
for preset, (dur, bounce) in [("smooth", (0.5, 0)), ("snappy", (0.5, 0.15)), ("bouncy", (0.5, 0.3)),
                              ("interactiveSpring", (0.15, 0.15))]:
    ovs = [[
        ("duration", True, False, O(DURATION, default=dur)),
        ("extraBounce", True, False, extra_bounce(bounce)),
        ("blendDuration", True, False, BLEND),
    ]]
    if preset == "interactiveSpring":
        ovs.append([
            ("response", True, False, num("Response in seconds.", exclusiveMinimum=0, default=0.15)),
            ("dampingFraction", True, False, num("Damping ratio, greater than 0.", exclusiveMinimum=0, default=0.86)),
            ("blendDuration", True, False, O(BLEND, default=0.25)),
        ])
    anim_props[preset] = args_schema(ovs, "Spring preset: duration %g, bounce %g." % (dur, bounce))
anim_props["default"] = args_schema([[]], "spring(duration: 0.55, bounce: 0). Takes no arguments.")
BOUNCE = num("Bounce, greater than -1 and less than 1.", exclusiveMinimum=-1, exclusiveMaximum=1, default=0)
anim_props["spring"] = args_schema([
    [("duration", True, False, O(DURATION, default=0.5)), ("bounce", True, False, BOUNCE), ("blendDuration", True, False, BLEND)],
    [("response", True, False, num("Response in seconds.", exclusiveMinimum=0, default=0.5)),
     ("dampingFraction", True, False, num("Damping ratio, greater than 0.", exclusiveMinimum=0, default=0.825)),
     ("blendDuration", True, False, BLEND)],
], "A spring: {\"duration\", \"bounce\"} or {\"response\", \"dampingFraction\"}.")
VEL = num("Initial velocity.", default=0)
anim_props["interpolatingSpring"] = args_schema([
    [("mass", True, False, num("Mass.", exclusiveMinimum=0, default=1)),
     ("stiffness", True, True, num("Stiffness.", exclusiveMinimum=0)),
     ("damping", True, True, num("Damping.", exclusiveMinimum=0)),
     ("initialVelocity", True, False, VEL)],
    [("duration", True, False, O(DURATION, default=0.5)), ("bounce", True, False, BOUNCE), ("initialVelocity", True, False, VEL)],
], "A spring from physical parameters {\"mass\", \"stiffness\", \"damping\", \"initialVelocity\"}, or {\"duration\", \"bounce\", \"initialVelocity\"}.")
anim_props["uikitSpring"] = args_schema([[
    ("duration", True, True, DURATION),
    ("dampingRatio", True, True, num("Damping ratio, greater than 0 and at most 1.", exclusiveMinimum=0, maximum=1)),
    ("initialVelocity", True, False, num("Initial velocity, in whole distances per second.", default=0)),
]], "UIView.animate(withDuration:usingSpringWithDamping:initialSpringVelocity:).")
ANIMATION_BASES = list(anim_props.keys())
MODIFIERS = ["delay", "speed", "repeatCount", "repeatForever"]
anim_props["delay"] = args_schema([[("delay", False, True, num("Delay in seconds.", minimum=0))]], "Modifier: delay in seconds.")
anim_props["speed"] = args_schema([[("speed", False, True, num("Speed factor.", exclusiveMinimum=0))]], "Modifier: speed factor.")
anim_props["repeatCount"] = args_schema([[
    ("count", False, True, O(type="integer", description="Passes, each direction counting one.", minimum=1, maximum=1000000)),
    ("autoreverses", True, False, O(type="boolean", description="Whether every other pass runs in reverse.", default=True)),
]], "Modifier: repeat a number of passes; a number or {\"count\", \"autoreverses\"}.")
anim_props["repeatForever"] = args_schema([[("autoreverses", True, False, O(type="boolean", description="Whether every other pass runs in reverse.", default=True))]],
                                          "Modifier: repeat forever.")

defs["animationObject"] = O(
    type="object",
    description="An animation as a JSON object, one key per call in the order written: the animation first, then modifiers.",
    properties=anim_props,
    additionalProperties=False,
    minProperties=1,
    # At least one key that is not a modifier (the animation itself)…
    **{"not": O(propertyNames=O(enum=MODIFIERS))},
    # …and no more than one.
    dependentSchemas=O((b, O(propertyNames=O(enum=[b] + MODIFIERS))) for b in ANIMATION_BASES),
    examples=[{"spring": {"duration": 0.5, "bounce": 0.2}, "delay": 0.1}],
)
defs["animation"] = O(
    description="An animation, written as in SwiftUI source (a leading '.' allowed), followed by any chain of "
                ".delay(s), .speed(x), .repeatCount(n, autoreverses: true), .repeatForever(autoreverses: true); "
                "or as a JSON object with one key per call. Leave out for an immediate change.",
    markdownDescription="An animation, written as in SwiftUI source:\n\n"
                        "`default` `linear` `easeIn` `easeOut` `easeInOut` `smooth` `snappy` `bouncy` `spring` `interactiveSpring`, "
                        "`linear(duration: 0.3)`, `timingCurve(0.2, 0.8, 0.2, 1, duration: 0.5)`, "
                        "`spring(duration: 0.5, bounce: 0.2)`, `spring(response: 0.55, dampingFraction: 0.825)`, "
                        "`interpolatingSpring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0)`, "
                        "`snappy(duration: 0.4, extraBounce: 0.1)`, `easeOutBack(duration: 1)` (the easing family "
                        "`easeIn|easeOut|easeInOut` × `Sine|Quad|Cubic|Quart|Quint|Expo|Circ|Back|Elastic|Bounce`), "
                        "`uikitSpring(duration: 0.4, dampingRatio: 0.5, initialVelocity: 0)`\n\n"
                        "followed by any chain of `.delay(s)`, `.speed(x)`, `.repeatCount(n, autoreverses: true)`, "
                        "`.repeatForever(autoreverses: true)`. A leading `.` is allowed.\n\n"
                        "Or a JSON object with one key per call: `{\"spring\": {\"duration\": 0.5, \"bounce\": 0.2}, \"delay\": 0.1}`.",
    anyOf=[
        O(type="string", description="An animation in SwiftUI syntax, such as \"spring(duration: 0.5, bounce: 0.2)\" or \"easeInOut.delay(0.1)\".",
          pattern="[A-Za-z_]", examples=ANIMATION_EXAMPLES),
        ref("animationObject"),
    ],
    examples=ANIMATION_EXAMPLES,
)

# ---------------------------------------------------------------- transitions

NO_ARGS = [O(const=None), O(const=True), O(type="object", maxProperties=0), O(type="array", maxItems=0)]
EDGE = O(description="An edge: leading, trailing, top or bottom.",
         anyOf=[O(type="string", enum=EDGES),
                O(type="object", propertyNames=O(enum=EDGES), minProperties=1, maxProperties=1,
                  additionalProperties=O(enum=[None, True]))])
trans_props = O(
    identity=O(description="No effect.", anyOf=NO_ARGS),
    opacity=O(description="Fades in and out.", anyOf=NO_ARGS),
    slide=O(description="In from the leading edge, out toward the trailing edge, by the layer's own width.", anyOf=NO_ARGS),
    scale=O(description="Scales from a factor around the centre (default 1e-5); scale(_:anchor:) is written as a string.",
            anyOf=NO_ARGS + [num(), O(type="array", prefixItems=[num()], items=False)]),
    move=O(type="object", description="Moves in and out on an edge by the layer's own size: {\"edge\": \"bottom\"}.",
           properties=O(edge=EDGE), required=["edge"], additionalProperties=False),
    push=O(type="object", description="Moves in from an edge while fading in, out toward the opposite edge: {\"from\": \"trailing\"}.",
           properties=O(**{"from": EDGE}), required=["from"], additionalProperties=False),
    offset=O(description="Offsets by {\"x\", \"y\"} points.",
             anyOf=NO_ARGS[:2] + [O(type="array", maxItems=0),
                                  O(type="object", properties=O(x=num("Horizontal offset in points.", default=0), y=num("Vertical offset in points.", default=0)), additionalProperties=False)]),
    blur=O(type="object", description="Blurs by {\"radius\"} points.",
           properties=O(radius=num("Blur radius in points.", minimum=0)), required=["radius"], additionalProperties=False),
    asymmetric=O(type="object", description="One transition for insertion, another for removal.",
                 properties=O(insertion=ref("transition", "Transition when inserted."), removal=ref("transition", "Transition when removed.")),
                 required=["insertion", "removal"], additionalProperties=False),
    modifier=O(type="object", description="A custom .modifier(active:identity:): two property sets; numeric properties of `active` may be expressions of the progress p.",
               properties=O(active=ref("modifierActive"), identity=ref("modifierIdentity")),
               required=["active", "identity"], additionalProperties=False),
    combined=O(description="Combined with another transition (follows the first key): a transition or {\"with\": transition}.",
               anyOf=[ref("transition"),
                      O(type="object", properties=O(**{"with": ref("transition")}), required=["with"], additionalProperties=False)]),
)
TRANSITION_BASES = [k for k in trans_props if k != "combined"]
defs["transitionObject"] = O(
    type="object",
    description="A transition as a JSON object, one key per call: a transition, then optionally \"combined\". The only way to write a custom modifier.",
    properties=trans_props,
    additionalProperties=False,
    minProperties=1,
    dependentSchemas=O((b, O(propertyNames=O(enum=[b, "combined"]))) for b in TRANSITION_BASES),
    examples=[{"asymmetric": {"insertion": "slide.combined(with: .opacity)", "removal": "opacity"}}],
)
defs["transition"] = O(
    description="A transition, as in SwiftUI (leading '.' optional): opacity, scale, scale(0.5, anchor: [0, 0]), slide, "
                "move(edge: …), offset(x:y:), push(from: …), blur(radius:), identity, asymmetric(insertion:removal:), "
                "a.combined(with: b); or a JSON object with one key per call (for a custom modifier).",
    anyOf=[O(type="string", description="A transition in SwiftUI syntax, such as \"slide.combined(with: .opacity)\".",
             pattern="[A-Za-z_]", examples=TRANSITION_EXAMPLES),
           ref("transitionObject")],
    default="opacity",
    examples=TRANSITION_EXAMPLES,
)
MODIFIER_KEYS = [k for k in ANIMATABLE if k not in ("stroke", "shadow", "backdrop")]
EXPRESSION_KEYS = ["opacity", "scale", "rotation", "blur", "cornerRadius"]
EXPR = O(type="string", description="An expression of the progress p (0 at identity, 1 at active): numbers, p, + - * / ^, parentheses, sin cos exp sqrt min max abs.",
         examples=["-6.8*p*p + 5.8*p + 1", "1 - p"])
defs["modifierIdentity"] = O(
    type="object",
    description="The identity state of a custom modifier: properties as in `set` (no stroke or shadow).",
    properties=O((k, ANIMATABLE[k]) for k in MODIFIER_KEYS),
    additionalProperties=False,
)
defs["modifierActive"] = O(
    type="object",
    description="The active state of a custom modifier: properties as in `set` (no stroke or shadow); opacity, scale, rotation, blur and cornerRadius may be expressions of p.",
    properties=O((k, O(description=ANIMATABLE_INLINE[k].get("description", ""), anyOf=[ANIMATABLE[k], EXPR]) if k in EXPRESSION_KEYS else ANIMATABLE[k])
                 for k in MODIFIER_KEYS),
    additionalProperties=False,
)

# ---------------------------------------------------------------- timeline

SET_PROPS = O(ANIMATABLE)
SET_PROPS["hidden"] = HIDDEN
SET_PROPS["color"] = TEXT_COLOR
SET_PROPS["material"] = MATERIAL
SET_PROPS["text"] = O(type="string", description="A text layer's new text, shown with the event's animation as the layer's contentTransition says.",
                      maxLength=100000)
SET_PROPS["rotation3D"] = O(
    type="object",
    description="The rotation3D's new angle. Only the angle animates: an axis, anchor, anchorZ or perspective given must be the layer's own (or the default the layer leaves).",
    properties=O(
        angle=num("Degrees."),
        **{k: v for k, v in COMMON["rotation3D"]["properties"].items() if k != "angle"},
    ),
    additionalProperties=False,
)
defs["propertyChanges"] = O(
    type="object",
    description="New values of a layer's properties. `stroke`, `shadow` and `backdrop` merge: only the fields given change.",
    properties=SET_PROPS,
    additionalProperties=False,
)
VELOCITY_KEYS = ["position", "size", "anchor", "offset", "scale", "rotation", "opacity", "trim", "cornerRadius", "blur"]
def _rate(k):
    two = k in ("position", "size", "anchor", "offset", "trim")
    desc = "Initial velocity of %s, units per second (any finite number%s)." % (k, ", per component" if two else "")
    if two:
        return pair(desc)
    if k == "scale":
        return O(description=desc, anyOf=[num(), pair()])
    return num(desc)
defs["velocityValues"] = O(
    type="object",
    description="Initial velocities, in property units per second, per component.",
    properties=O((k, _rate(k)) for k in VELOCITY_KEYS),
    additionalProperties=False,
)

# Keyframes, phases, animators (docs/scene-format.md, "Keyframes", "Phases", "Interactive animators").
KEYFRAME_DURATION = num("Seconds (0 or more).", minimum=0, maximum=3600)
KEYFRAME_VALUE = O(description="The keyframe's value: a number, [x, y], a colour string or a gradient object, as the property takes.")
KEYFRAME_VELOCITY = O(description="Units per second: a number, or [x, y] for a point property.", anyOf=[num(), pair()])
def _keyframe_object(kind, extra, required_duration):
    props = O(to=KEYFRAME_VALUE)
    if kind != "move":
        props["duration"] = KEYFRAME_DURATION
    props.update(extra)
    req = ["to"] + (["duration"] if required_duration else [])
    return O(type="object", properties=props, required=req, additionalProperties=False)
defs["keyframe"] = O(
    description="A keyframe as in SwiftUI: \"LinearKeyframe(1, duration: 0.2, timingCurve: .easeOut)\", "
                "\"CubicKeyframe(0.9, duration: 0.1)\", \"SpringKeyframe(1.4, duration: 0.15, spring: .bouncy)\", \"MoveKeyframe(0)\"; "
                "or an object with one key: {\"linear\": {\"to\": 1, \"duration\": 0.2, \"timingCurve\": \"easeOut\"}}.",
    anyOf=[
        O(type="string", pattern="^\\s*(Linear|Cubic|Spring|Move)Keyframe\\s*\\(",
          examples=["LinearKeyframe(1, duration: 0.2, timingCurve: .easeOut)", "CubicKeyframe(0.9, duration: 0.1)",
                    "SpringKeyframe(1.4, duration: 0.15, spring: .bouncy)", "MoveKeyframe(-8)"]),
        O(type="object", minProperties=1, maxProperties=1, additionalProperties=False, properties=O(
            linear=_keyframe_object("linear", O(timingCurve=O(description="linear, easeIn, easeOut, easeInOut, or {\"bezier\": {\"startControlPoint\", \"endControlPoint\"}}.",
                                                              anyOf=[O(type="string"), O(type="object")])), True),
            cubic=_keyframe_object("cubic", O(startVelocity=KEYFRAME_VELOCITY, endVelocity=KEYFRAME_VELOCITY), True),
            spring=_keyframe_object("spring", O(spring=O(description="A spring: \"bouncy\", \"Spring(duration: 0.4, bounce: 0.3)\", or an animation object of a spring.",
                                                         anyOf=[O(type="string"), O(type="object")]),
                                                startVelocity=KEYFRAME_VELOCITY), False),
            move=_keyframe_object("move", O(), False),
        )),
    ],
)
KEYFRAME_TRACK = O(type="array", description="Keyframes played one after another.", items=ref("keyframe"), minItems=1, maxItems=100000)
TRACK_KEYS = [k for k in SET_PROPS if k not in ("hidden", "stroke", "shadow", "rotation3D", "backdrop", "material", "text")]
defs["keyframeTracks"] = O(
    type="object",
    description="Property → keyframe track; the fields of stroke and shadow inside their objects.",
    properties=O([(k, KEYFRAME_TRACK) for k in TRACK_KEYS] + [
        ("stroke", O(type="object", properties=O((f, KEYFRAME_TRACK) for f in ["color", "width", "dashPhase"]), additionalProperties=False)),
        ("shadow", O(type="object", properties=O((f, KEYFRAME_TRACK) for f in ["color", "radius", "offset"]), additionalProperties=False)),
        ("rotation3D", O(type="object", properties=O(angle=KEYFRAME_TRACK), additionalProperties=False)),
        ("backdrop", O(type="object", properties=O((f, KEYFRAME_TRACK) for f in ["blur", "saturation", "tint"]), additionalProperties=False)),
    ]),
    additionalProperties=False,
)
ANIMATOR_TIMING = O(
    description="UICubicTimingParameters(.easeInOut), UICubicTimingParameters(controlPoint1: [x, y], controlPoint2: [x, y]), "
                "UISpringTimingParameters(dampingRatio: 0.8, initialVelocity: [dx, dy]), "
                "UISpringTimingParameters(mass: 1, stiffness: 100, damping: 10), UISpringTimingParameters(duration: 0.5, bounce: 0.2); "
                "or an object with one of those names as its key.",
    anyOf=[O(type="string", pattern="^\\s*UI(Cubic|Spring)TimingParameters\\b"),
           O(type="object", minProperties=1, maxProperties=1, propertyNames=O(enum=["UICubicTimingParameters", "UISpringTimingParameters"]))],
)
defs["animator"] = O(
    type="object",
    description="UIKit's UIViewPropertyAnimator: animates `set` with `timing` over `duration`, scrubbed, then continued or reversed.",
    properties=O(
        set=O(type="object", description="Layer id → properties → targets.", propertyNames=ref("layerID"), additionalProperties=ref("propertyChanges")),
        timing=ANIMATOR_TIMING,
        duration=num("Seconds (default 0.2).", exclusiveMinimum=0, maximum=3600),
        scrub=O(type="array", description="[[t, fractionComplete], …]: t after `at`, increasing; fractions 0…1.", minItems=1, maxItems=100000,
                items=O(type="array", prefixItems=[num(minimum=0), num(minimum=0, maximum=1)], minItems=2, items=False)),
        **{"continue": O(type="object", description="How it finishes after the scrub.",
                         properties=O(timing=ANIMATOR_TIMING, durationFactor=num("0 keeps the duration.", minimum=0)),
                         additionalProperties=False)},
        reversed=O(type="boolean", description="After the scrub, finish toward the start values."),
    ),
    required=["set"],
    additionalProperties=False,
)

defs["insertion"] = O(
    type="object",
    description="Adds a layer into a container.",
    properties=O(
        into=ref("layerID", "Id of the container (group, vstack, hstack, zstack) to insert into."),
        index=O(type="integer", description="Index among the container's children after the event's removals. Default: the end.",
                minimum=0, exclusiveMaximum=1e15),
        transition=ref("transition", "How the layer appears (default opacity)."),
        layer=O(allOf=[ref("layer")], required=["id"], description="The layer to insert; it needs an id."),
    ),
    required=["into", "layer"],
    additionalProperties=False,
)
defs["removal"] = O(
    type="object",
    description="Removes a layer; its transition animates it out, then the layout closes the gap.",
    properties=O(
        id=ref("layerID", "Id of the layer to remove."),
        transition=ref("transition", "How the layer disappears (default opacity)."),
    ),
    required=["id"],
    additionalProperties=False,
)
defs["drag"] = O(
    type="object",
    description="Moves a layer's position with a finger, linearly between points, from `at` until the last point (the release).",
    properties=O(
        layer=ref("layerID", "Id of the dragged layer."),
        points=O(type="array", description="[[t, x, y], …]: at least two points, t relative to `at`, increasing.",
                 minItems=2, maxItems=100000,
                 items=O(type="array", description="A point [t, x, y].",
                         prefixItems=[num("Time since `at`, seconds.", minimum=0), num("x"), num("y")], minItems=3, items=False)),
    ),
    required=["layer", "points"],
    additionalProperties=False,
)
defs["event"] = O(
    type="object",
    description="withAnimation(animation) { change state } at a moment of scene time.",
    properties=O(
        at=num("Scene time in seconds; events may be listed in any order.", minimum=0),
        animation=ref("animation"),
        set=O(type="object", description="Layer id → properties → new values.",
              propertyNames=ref("layerID"), additionalProperties=ref("propertyChanges"),
              examples=[{"knob": {"position": [300, 100]}}]),
        insert=O(type="array", description="Layers to insert.", items=ref("insertion")),
        remove=O(type="array", description="Layers to remove.", items=ref("removal")),
        velocity=O(type="object", description="Layer id → initial velocities handed to the springs this event starts.",
                   propertyNames=ref("layerID"), additionalProperties=ref("velocityValues")),
        drag=ref("drag"),
        keyframes=O(type="object", description="Layer id → property → keyframe track (SwiftUI's KeyframeAnimator).",
                    propertyNames=ref("layerID"), additionalProperties=ref("keyframeTracks")),
        repeating=O(type="boolean", description="The keyframe tracks start over whenever they end."),
        phases=O(type="array", description="At least two property sets, cycled through (SwiftUI's PhaseAnimator).", minItems=2, maxItems=100000,
                 items=O(type="object", propertyNames=ref("layerID"), additionalProperties=ref("propertyChanges"))),
        animations=O(type="array", description="One animation per phase.", items=ref("animation")),
        repeat=O(type="boolean", description="The phase cycle goes on for ever (default: one cycle)."),
        animator=ref("animator"),
    ),
    required=["at"],
    anyOf=[O(required=[k]) for k in ["set", "insert", "remove", "velocity", "drag", "keyframes", "phases", "animator"]],
    additionalProperties=False,
)

# ---------------------------------------------------------------- file

schema = O()
schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
schema["$id"] = "https://springframe.dev/schema/scene.schema.json"
schema["title"] = "Springframe scene"
schema["description"] = "A Springframe scene, version 1: a canvas, a tree of layers and a timeline of state changes (docs/scene-format.md)."
schema["type"] = "object"
schema["properties"] = O(
    version=O(type="number", description="The format version: always 1.", const=1),
    name=O(type="string", description="Used for default output file names: one file-name component of at most 200 bytes (not empty, not . or .., no /, \\ or NUL). Default: the file name without extension.",
           minLength=1, maxLength=200, pattern="^(?!\\.\\.?$)[^/\\\\\\u0000]+$"),
    size=pair("Canvas size [w, h] in points.", item=num(exclusiveMinimum=0), examples=[[390, 844]]),
    scale=num("Pixels per point; the CLI may override.", exclusiveMinimum=0, default=1),
    appearance=O(type="string", enum=["light", "dark"], default="light",
                 description="Which variant the named colours take; the command line's --appearance overrides it."),
    background=O(description="Background colour, or \"transparent\". Default: systemBackground (white, black in dark mode).",
                 anyOf=[O(type="string", const="transparent"), ref("color")], default="systemBackground"),
    duration=num("Scene length in seconds. Default: the latest end of any event's animation.", exclusiveMinimum=0),
    assets=O(type="object",
             description="Image assets: name → PNG file path relative to the scene file, or {\"file\", \"scale\"}. A file named x@2x.png or x@3x.png has scale 2 or 3 unless given.",
             additionalProperties=O(description="A PNG file path relative to the scene file, or {\"file\": path, \"scale\": 2}.", anyOf=[
                 O(type="string", description="PNG file path, relative to the scene file."),
                 O(type="object", properties=O(
                     file=O(type="string", description="PNG file path, relative to the scene file."),
                     scale=num("Pixels per point of the image. Default: 2 or 3 for x@2x.png / x@3x.png, else 1.", exclusiveMinimum=0),
                 ), required=["file"], additionalProperties=False),
             ]),
             default={}, examples=[{"tomato": "assets/tomato.png"}, {"photo": {"file": "assets/photo.png", "scale": 2}}]),
    fonts=O(type="object", description="Font family name → font file (TTF/OTF), relative to the scene file; consulted before the system's fonts.",
            additionalProperties=O(type="string", description="Font file (TTF/OTF), relative to the scene file."), default={}),
    layers=O(type="array", description="Bottom-to-top list of layers.", items=ref("layer")),
    timeline=O(type="array", description="Events: timed state changes.", items=ref("event"), maxItems=100000, default=[]),
)
schema["properties"] = {"$schema": O(type="string", description="The JSON Schema of the file, for editors: e.g. \"../schema/scene.schema.json\". Ignored by the renderer."), **schema["properties"]}
schema["required"] = ["version", "size", "layers"]
schema["additionalProperties"] = False
schema["$defs"] = defs

with open(OUT, "w", encoding="utf-8") as f:
    json.dump(schema, f, indent=2, ensure_ascii=False)
    f.write("\n")
print("wrote", OUT)

// One Cypher text for one question, however the document words it (issue 32). Neo4j plans every
// text it has not seen before it reads a row, and a document's aliases and the order of its fields
// change nothing in what is read: `{ topics { id name } }` and `{ topics { title: name id } }`
// ask the same. A root field is compiled from its selection with each field under a key named by
// the field itself, in the order of those keys ({@link canonicalSelection}); the rows' maps are
// then given the request's response keys ({@link withResponseKeys}), where they differ.
import { unionOf, type Selection } from "./request.js";

/** At one level of a projection, each key the Cypher writes, the response key it answers and the keys below it. */
type Keys = readonly (readonly [written: string, responseKey: string, below: ResponseKeys | undefined])[];

/** How the keys of a projection's maps become the request's response keys, level by level. */
export interface ResponseKeys {
  /** The keys of every map at this level. */
  readonly always: Keys;
  /** The further keys of a map of one element type, under an interface (a `Node`, tagged `@type` by compile.ts). */
  readonly byType: Readonly<Record<string, Keys>>;
}

/** The key a map of a node of an element type names its type under (compile.ts, `NODE_TYPE_KEY`). */
const TYPE_KEY = "@type";
/** The key a node's `id` is projected under when the request does not select it as `id` (compile.ts). */
const ID_KEY = "@id";

/**
 * `selection` with every field below it keyed by its own name (`name@2` for the second of the
 * response keys one field is selected under at one level, in their order: `@` is in no GraphQL
 * name), each type's fields in the order of those keys; with the renaming back to the request's
 * response keys, undefined when every key is its response key already, as for most documents.
 * `elementTypes` names the object types selected under an interface by a fragment, whose own
 * fields a map of that type alone holds.
 */
export function canonicalSelection(
  selection: Selection,
  elementTypes: ReadonlySet<string>,
): { selection: Selection; responseKeys: ResponseKeys | undefined } {
  const levels = Object.entries(selection.fieldsByTypeName);
  // Which response keys each field name is selected under, over every type of the level.
  const keysOfField = new Map<string, Set<string>>();
  for (const [, fields] of levels)
    for (const [responseKey, field] of Object.entries(fields)) {
      const keys = keysOfField.get(field.name) ?? new Set<string>();
      keys.add(responseKey);
      keysOfField.set(field.name, keys);
    }
  // A response key of an interface's fields that a fragment on one of its types selects too is
  // one field of that type (GraphQL's validation: the same name and arguments), compiled from both
  // selections merged (compile.ts, `anyNodeValue`): every type's entry of it holds the union of
  // all of them, keyed once, so that the keys below it agree.
  const ofInterface = new Map<string, Selection[]>();
  for (const [typeName, fields] of levels)
    if (!elementTypes.has(typeName))
      for (const [responseKey, field] of Object.entries(fields)) ofInterface.set(responseKey, [field]);
  for (const [typeName, fields] of levels)
    if (elementTypes.has(typeName))
      for (const [responseKey, field] of Object.entries(fields)) ofInterface.get(responseKey)?.push(field);
  const merged = new Map<string, ReturnType<typeof canonicalSelection>>();
  const canonicalBelow = (responseKey: string, field: Selection) => {
    const selections = ofInterface.get(responseKey);
    if (selections === undefined) return canonicalSelection(field, elementTypes);
    const known = merged.get(responseKey) ?? canonicalSelection(selections.reduce(unionOf), elementTypes);
    merged.set(responseKey, known);
    return known;
  };
  // A field asked under several response keys is keyed by each one's place among them.
  const places = new Map<string, string[]>();
  for (const [name, keys] of keysOfField) if (keys.size > 1) places.set(name, [...keys].sort());
  const written = (responseKey: string, field: Selection) => {
    const place = places.get(field.name)?.indexOf(responseKey);
    return place === undefined ? field.name : `${field.name}@${String(place + 1)}`;
  };
  // Under an interface, an element type's fields are its fragment's: only its maps hold them.
  const typed = levels.some(([typeName]) => !elementTypes.has(typeName));
  const always: Keys[number][] = [];
  const byType: Record<string, Keys> = {};
  const fieldsByTypeName: Selection["fieldsByTypeName"] = {};
  for (const [typeName, fields] of levels) {
    const entries = Object.entries(fields)
      .map(([responseKey, field]) => {
        const key = written(responseKey, field);
        const { selection: canonical, responseKeys } = canonicalBelow(responseKey, field);
        return { key, responseKey, field: { ...canonical, alias: key }, below: responseKeys };
      })
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    // GraphQL answers `__typename` itself, from the type.
    const keys = entries
      .filter(({ field }) => field.name !== "__typename")
      .map(({ key, responseKey, below }) => [key, responseKey, below] as const);
    if (typed && elementTypes.has(typeName)) byType[typeName] = keys;
    else always.push(...keys);
    fieldsByTypeName[typeName] = Object.fromEntries(entries.map(({ key, field }) => [key, field]));
  }
  const renamed = [...always, ...Object.values(byType).flat()].some(
    ([key, responseKey, below]) => key !== responseKey || below !== undefined,
  );
  return {
    selection: { ...selection, fieldsByTypeName },
    responseKeys: renamed ? { always, byType } : undefined,
  };
}

/**
 * A value of a projection written with {@link canonicalSelection}'s keys, with the request's
 * response keys: each map's fields under their response keys (a field asked under two keeps its
 * value under both), the compiler's own `@` keys as they are, and a node's `id` also under `@id`
 * when the request selects it only under another key (the stored-value checks name a node by it).
 */
export function withResponseKeys(keys: ResponseKeys, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => withResponseKeys(keys, item));
  if (typeof value !== "object" || value === null) return value;
  const source = value as Record<string, unknown>;
  const target: Record<string, unknown> = {};
  for (const key of Object.keys(source)) if (key.startsWith("@")) target[key] = source[key];
  const add = (level: Keys) => {
    for (const [written, responseKey, below] of level) {
      if (!Object.hasOwn(source, written)) continue;
      const held = source[written];
      target[responseKey] = below === undefined ? held : withResponseKeys(below, held);
      if (written === "id" && responseKey !== "id") target[ID_KEY] = held;
    }
  };
  add(keys.always);
  const type = source[TYPE_KEY];
  const own = typeof type === "string" && Object.hasOwn(keys.byType, type) ? keys.byType[type] : undefined;
  if (own !== undefined) add(own);
  return target;
}

// One walk of the operation (issue 33): its variables coerced once, each field's arguments coerced
// once, `@skip`/`@include` read once, into a tree that every stage after validation reads (the
// argument checks and the cost estimate) instead of walking the document again.
import {
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getOperationAST,
  getVariableValues,
  isInterfaceType,
  isObjectType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLField,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from "graphql";
import type { Selection as FieldSelection } from "../cypher/request.js";
import { fragmentsByName } from "./fragments.js";

/** A field of the document, with its arguments coerced. */
export interface PlannedField {
  node: FieldNode;
  parent: GraphQLObjectType | GraphQLInterfaceType;
  field: GraphQLField<unknown, unknown>;
  args: Record<string, unknown>;
  /** Its selection, when it has one. */
  selection?: PlannedSelection;
}

/** What a selection set holds, in order; `included` is the selection's own `@skip`/`@include`. */
export type PlannedItem =
  | { kind: "field"; included: boolean; field: PlannedField }
  | {
      kind: "fragment";
      included: boolean;
      /** A named fragment's selection is built once and shared by every spread of it. */
      named: boolean;
      type: GraphQLNamedType | undefined;
      selection: PlannedSelection;
    };

export interface PlannedSelection {
  items: PlannedItem[];
}

/** The operation that runs, walked once. */
export interface OperationPlan {
  operation: OperationDefinitionNode;
  variables: Record<string, unknown>;
  root: PlannedSelection;
  /** Every field the operation's selection reaches, each once (skipped ones too), in document order. */
  fields: PlannedField[];
}

/**
 * Walks `operation` once: O(size of the document), each fragment walked once however often it is
 * spread. Returns the variables' coercion errors instead when they do not coerce (execution
 * reports those). The document has passed validation: fragments are known and acyclic, fields exist.
 */
export function planOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  rawVariables: Record<string, unknown> | undefined,
): OperationPlan | readonly GraphQLError[] {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables ?? {});
  if (coerced.errors !== undefined) return coerced.errors;
  const variables = coerced.coerced;
  const definitions = fragmentsByName(document);
  const fragments = new Map<string, PlannedSelection>();
  const fields: PlannedField[] = [];
  const included = (node: SelectionNode) =>
    getDirectiveValues(GraphQLSkipDirective, node, variables)?.if !== true &&
    getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;

  const selectionOf = (selectionSet: SelectionSetNode, parent: GraphQLNamedType | undefined) => {
    const selection: PlannedSelection = { items: [] };
    for (const node of selectionSet.selections) {
      if (node.kind === Kind.FIELD) {
        const field =
          isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[node.name.value] : undefined;
        if (parent === undefined || field === undefined || !(isObjectType(parent) || isInterfaceType(parent)))
          continue;
        const planned: PlannedField = {
          node,
          parent,
          field,
          args: getArgumentValues(field, node, variables),
        };
        fields.push(planned);
        if (node.selectionSet !== undefined)
          planned.selection = selectionOf(node.selectionSet, getNamedType(field.type));
        selection.items.push({ kind: "field", included: included(node), field: planned });
      } else if (node.kind === Kind.INLINE_FRAGMENT) {
        const type =
          node.typeCondition === undefined
            ? parent
            : (schema.getType(node.typeCondition.name.value) ?? undefined);
        selection.items.push({
          kind: "fragment",
          included: included(node),
          named: false,
          type,
          selection: selectionOf(node.selectionSet, type),
        });
      } else {
        const definition = definitions.get(node.name.value);
        if (definition === undefined) continue;
        const type = schema.getType(definition.typeCondition.name.value) ?? undefined;
        selection.items.push({
          kind: "fragment",
          included: included(node),
          named: true,
          type,
          selection: fragmentSelection(definition, type),
        });
      }
    }
    return selection;
  };
  const fragmentSelection = (definition: FragmentDefinitionNode, type: GraphQLNamedType | undefined) => {
    const name = definition.name.value;
    const known = fragments.get(name);
    if (known !== undefined) return known;
    // Remembered before its own fields are walked: a cycle (refused by validation) ends here.
    const selection: PlannedSelection = { items: [] };
    fragments.set(name, selection);
    selection.items = selectionOf(definition.selectionSet, type).items;
    return selection;
  };

  const rootType = schema.getRootType(operation.operation) ?? undefined;
  return { operation, variables, root: selectionOf(operation.selectionSet, rootType), fields };
}

/** The plan of a document's one operation, for tools and tests: throws when it has none or its variables do not coerce. */
export function planDocument(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables?: Record<string, unknown>,
): OperationPlan {
  const operation = getOperationAST(document);
  if (operation === null || operation === undefined) throw new Error("no single operation");
  const planned = planOperation(schema, document, operation, variables);
  if (!("root" in planned)) throw planned[0] ?? new Error("variables do not coerce");
  return planned;
}

/**
 * The root field answered under `responseKey`, as the compiler reads it: the fields the operation
 * runs below it (`@skip`/`@include` applied, fragments flattened into their type's fields, fields
 * of one response key merged), each with its arguments as coerced once. Undefined when no included
 * root field has that key.
 */
export function rootSelection(plan: OperationPlan, responseKey: string): FieldSelection | undefined {
  let roots = rootSelections.get(plan);
  if (roots === undefined) {
    roots = fieldsByType(plan.root, ROOT)[ROOT] ?? {};
    rootSelections.set(plan, roots);
  }
  return roots[responseKey];
}

/** The root type of every operation that runs (the pipeline refuses the others). */
const ROOT = "Query";

/** Each plan's root fields by response key, merged once for all of them. */
const rootSelections = new WeakMap<OperationPlan, Record<string, FieldSelection>>();

/**
 * The included fields of `selection`, a selection on type `typeName`, by type and response key:
 * fragments flattened, those on an object type (`... on Decision` under a `Node`) into that
 * type's fields, the others into `typeName`'s; same keys merged.
 */
function fieldsByType(
  selection: PlannedSelection,
  typeName: string,
): Record<string, Record<string, FieldSelection>> {
  const byType: Record<string, Record<string, FieldSelection>> = { [typeName]: {} };
  const add = (items: readonly PlannedItem[], into: string) => {
    for (const item of items) {
      if (!item.included) continue;
      if (item.kind === "fragment") {
        const type = isObjectType(item.type) ? item.type.name : into;
        byType[type] ??= {};
        add(item.selection.items, type);
        continue;
      }
      const { node, field, args, selection: below } = item.field;
      const alias = node.alias?.value ?? node.name.value;
      const children = below === undefined ? {} : fieldsByType(below, getNamedType(field.type).name);
      const fields = (byType[into] ??= {});
      const known = fields[alias];
      if (known === undefined) fields[alias] = { name: field.name, alias, args, fieldsByTypeName: children };
      else mergeInto(known.fieldsByTypeName, children);
    }
  };
  add(selection.items, typeName);
  return byType;
}

function mergeInto(
  target: Record<string, Record<string, FieldSelection>>,
  source: Record<string, Record<string, FieldSelection>>,
): void {
  for (const [type, fields] of Object.entries(source)) {
    const into = (target[type] ??= {});
    for (const [alias, field] of Object.entries(fields)) {
      const known = into[alias];
      if (known === undefined) into[alias] = field;
      else mergeInto(known.fieldsByTypeName, field.fieldsByTypeName);
    }
  }
}

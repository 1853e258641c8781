// The operation walked once (src/graphql/operation-plan.ts) gives the compiler the same selection
// graphql-parse-resolve-info reads from graphql-js's execution: on random documents of the fuzz
// test's generator, every root field, fragments, aliases, @skip/@include and variables included.
import { expect } from "chai";
import fc from "fast-check";
import { execute, getOperationAST, parse, type GraphQLSchema } from "graphql";
import { parseResolveInfo, type ResolveTree } from "graphql-parse-resolve-info";
import { library, readTypeDefs } from "../src/graphql/schema.js";
import { validationErrors } from "../src/graphql/validation-stage.js";
import { planOperation, rootSelection } from "../src/graphql/operation-plan.js";
import { documentArbitrary } from "./support/fuzz.js";

/** A resolve tree without `__typename` fields, which the compiler never reads and the plan leaves out. */
function withoutTypename(tree: ResolveTree): unknown {
  return {
    ...tree,
    fieldsByTypeName: Object.fromEntries(
      Object.entries(tree.fieldsByTypeName).map(([type, fields]) => [
        type,
        Object.fromEntries(
          Object.entries(fields as Record<string, ResolveTree>)
            .filter(([, field]) => field.name !== "__typename")
            .map(([alias, field]) => [alias, withoutTypename(field)]),
        ),
      ]),
    ),
  };
}

describe("the operation walked once (issue 33)", () => {
  let schema: GraphQLSchema;
  /** Each root field's resolve tree, as graphql-js hands it over, by response key. */
  const seen: [string, unknown][] = [];
  before(async () => {
    // A schema of this test's own: its root fields only record what they are asked.
    schema = await library(await readTypeDefs()).getSchema();
    for (const field of Object.values(schema.getQueryType()?.getFields() ?? {}))
      field.resolve = (_source, _args, _context, info) => {
        seen.push([info.path.key as string, withoutTypename(parseResolveInfo(info) as ResolveTree)]);
        return null;
      };
  });

  it("selects for each root field exactly what graphql-parse-resolve-info does, on the valid ones of 900 random documents", async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(documentArbitrary(schema), async ({ text, variables }) => {
        let document;
        try {
          document = parse(text);
        } catch {
          return;
        }
        if (validationErrors(schema, document).length > 0) return;
        const operation = getOperationAST(document);
        if (operation === null || operation === undefined) return;
        const plan = planOperation(schema, document, operation, variables);
        if (!("root" in plan)) return;
        seen.length = 0;
        await execute({ schema, document, variableValues: variables });
        for (const [key, tree] of seen) {
          expect(rootSelection(plan, key), text).to.deep.equal(tree);
          compared++;
        }
      }),
      { numRuns: 900, seed: 33 },
    );
    expect(compared, "root fields compared").to.be.above(80);
  });
});

import { isObjectType, type GraphQLSchema } from "graphql";
import { cursorFromCypher } from "../cypher/cursor.js";
import { aliasedValue } from "./stored-values.js";

/**
 * Writes every cursor the schema serves (`<Type>Edge.cursor`, `PageInfo.endCursor`) from the
 * position its statement returns (src/cypher/cursor.ts): the encoding is the service's, not the
 * database's, so Neo4j needs no plugin for it.
 */
export function writeCursors(schema: GraphQLSchema): void {
  const fields = Object.values(schema.getTypeMap()).flatMap((type) => {
    if (!isObjectType(type)) return [];
    const own = type.getFields();
    if (type.name === "PageInfo") return own.endCursor === undefined ? [] : [own.endCursor];
    return type.name.endsWith("Edge") && own.cursor !== undefined ? [own.cursor] : [];
  });
  for (const field of fields) {
    const read = field.resolve ?? aliasedValue;
    field.resolve = (source, args, context, info) => {
      const position: unknown = read(source, args, context, info);
      return position === null || position === undefined ? position : cursorFromCypher(position);
    };
  }
}

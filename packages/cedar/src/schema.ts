import { cedarWasm, type SchemaJson, type TypeOfAttribute } from "./cedar-wasm.js";

/** A tool as the host knows it: its name and the JSON Schema of its arguments, when it has one. */
export interface CedarToolDescription {
  readonly name: string;
  readonly inputSchema?: unknown;
}

type CedarType = TypeOfAttribute<string>;
type Attributes = Record<string, CedarType>;

const string: CedarType = { type: "String" };

/**
 * The Cedar schema (JSON form) of toolgate's requests: entity types `Agent` (principal) and `Tool`
 * (resource), a common type `Session`, and one action per tool whose context holds the fixed fields
 * and, as `args`, the tool's input schema in Cedar types. With no tools it holds the types alone.
 */
export function cedarSchema(tools: readonly CedarToolDescription[]): SchemaJson<string> {
  const actions: SchemaJson<string>[string]["actions"] = {};
  for (const tool of tools) {
    actions[tool.name] = { appliesTo: { principalTypes: ["Agent"], resourceTypes: ["Tool"], context: contextType(tool.inputSchema) } };
  }
  return {
    "": {
      entityTypes: { Agent: {}, Tool: {} },
      commonTypes: { Session: { type: "Record", attributes: { id: string, user: { ...string, required: false } } } },
      actions,
    },
  };
}

/** The same schema in Cedar's own syntax. */
export function cedarSchemaText(tools: readonly CedarToolDescription[]): string {
  const answer = cedarWasm().schemaToText(cedarSchema(tools));
  if (answer.type === "failure") throw new Error(`the generated Cedar schema does not print: ${answer.errors.map((error) => error.message).join("; ")}`);
  // The printer spells built-in types in full (`__cedar::String`); this schema declares no type that could shadow them.
  return answer.text.replace(/__cedar::(String|Long|Boolean)\b/g, "$1");
}

function contextType(inputSchema: unknown): CedarType {
  const args = recordType(inputSchema) ?? { type: "Record", attributes: {} };
  return {
    type: "Record",
    attributes: {
      tool: string,
      kind: string,
      args,
      callId: string,
      session: { type: "Session" },
      agent: { ...string, required: false },
      cwd: string,
    },
  };
}

/**
 * JSON Schema to Cedar: string → String, integer and number → Long (toolgate passes a fraction as its
 * text), boolean → Boolean, array → Set of its items, object → Record of its properties (optional
 * unless `required`). What Cedar cannot type (unions, null, untyped values) is left out of the schema,
 * so a policy that reads it does not validate.
 */
function cedarType(schema: unknown): CedarType | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const node = schema as { type?: unknown; items?: unknown; enum?: unknown };
  const type = singleType(node.type) ?? (Array.isArray(node.enum) && node.enum.every((item) => typeof item === "string") ? "string" : undefined);
  switch (type) {
    case "string":
      return string;
    case "integer":
    case "number":
      return { type: "Long" };
    case "boolean":
      return { type: "Boolean" };
    case "array": {
      const element = cedarType(node.items);
      return element === undefined ? undefined : { type: "Set", element };
    }
    case "object":
      return recordType(schema);
    default:
      return undefined;
  }
}

function recordType(schema: unknown): CedarType | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const { properties, required } = schema as { properties?: unknown; required?: unknown };
  const attributes: Attributes = {};
  const requiredNames = new Set(Array.isArray(required) ? required.filter((name) => typeof name === "string") : []);
  if (typeof properties === "object" && properties !== null) {
    for (const [name, property] of Object.entries(properties)) {
      const type = cedarType(property);
      if (type !== undefined) attributes[name] = requiredNames.has(name) ? type : { ...type, required: false };
    }
  }
  return { type: "Record", attributes };
}

/** `"string"`, or `["string", "null"]` read as `"string"` (toolgate leaves a null argument out). */
function singleType(type: unknown): string | undefined {
  if (typeof type === "string") return type;
  if (!Array.isArray(type)) return undefined;
  const kinds = type.filter((kind) => kind !== "null");
  return kinds.length === 1 && typeof kinds[0] === "string" ? kinds[0] : undefined;
}

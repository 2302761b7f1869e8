/**
 * GraphQL over HTTP with Node's built-in fetch: one POST per operation, the seat's token as
 * a Bearer header. The document's generated type gives the result and variable types, so a
 * caller never writes them by hand.
 */
import type { TypedDocumentString } from "./generated/graphql.js";

/** The server answered with `errors` (unexpected failures; expected ones come back as data). */
export class GraphQLResponseError extends Error {
  constructor(
    readonly operation: string,
    readonly errors: readonly { message: string }[],
  ) {
    super(`${operation}: ${errors.map((e) => e.message).join("; ")}`);
    this.name = "GraphQLResponseError";
  }
}

interface Response<TResult> {
  data?: TResult | null;
  errors?: { message: string }[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

export class ConclaveClient {
  constructor(readonly url: string) {}

  async execute<TResult, TVariables>(
    document: TypedDocumentString<TResult, TVariables>,
    variables: TVariables,
    token?: string,
  ): Promise<TResult> {
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      Accept: "application/graphql-response+json, application/json",
    };
    if (token !== undefined) headers["Authorization"] = `Bearer ${token}`;
    const response = await fetch(this.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ query: document.toString(), variables }),
    });
    const body: unknown = await response.json();
    const operation = /(query|mutation)\s+(\w+)/.exec(document.toString())?.[2] ?? "operation";
    if (!isObject(body)) throw new Error(`${operation}: HTTP ${response.status}, not a GraphQL response`);
    // The one unchecked step: the server's answer is taken to match the schema it was generated from.
    const { data, errors } = body as Response<TResult>;
    if (errors !== undefined && errors.length > 0) throw new GraphQLResponseError(operation, errors);
    if (data === undefined || data === null) throw new Error(`${operation}: HTTP ${response.status}, no data`);
    return data;
  }
}

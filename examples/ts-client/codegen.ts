/**
 * graphql-codegen reads the server's checked-in SDL (the repository's schema.graphql, which
 * `./dev schema --out schema.graphql` regenerates and a test keeps current) and the
 * operations written in src/operations.ts, and writes typed documents to src/generated/.
 *
 * JSON scalars map to `unknown`, never `any`, and `strictScalars` makes codegen fail on a
 * scalar the server adds without a mapping here, so no `any` slips into the generated types.
 */
import type { CodegenConfig } from "@graphql-codegen/cli";

const scalars = { JSON: "unknown" };

const config: CodegenConfig = {
  schema: "../../schema.graphql",
  documents: ["src/**/*.ts", "!src/generated/**"],
  ignoreNoDocuments: false,
  generates: {
    // The client preset: a `graphql()` function whose documents carry their result and
    // variable types; `documentMode: "string"` keeps them plain strings for fetch.
    "src/generated/": {
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: {
        documentMode: "string",
        scalars,
        strictScalars: true,
        useTypeImports: true,
        enumsAsTypes: true,
        // Node's ES modules need the ".js" on relative imports
        emitLegacyCommonJSImports: false,
      },
    },
    // Every schema type (Table included) for code that names them; the preset emits only
    // the types the operations use.
    "src/generated/schema.ts": {
      plugins: ["typescript"],
      config: { scalars, strictScalars: true, useTypeImports: true, enumsAsTypes: true },
    },
  },
};

export default config;

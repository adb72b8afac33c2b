/** The shipped JSON Schemas (schemas/*.json), compiled with Ajv (draft 2020-12, strict mode). */
import { readdirSync, readFileSync } from 'node:fs';
import * as Ajv2020Module from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';

// Under NodeNext the CommonJS module's class arrives as `.default` of the namespace: take it once, here.
const Ajv2020 = Ajv2020Module.default.default ?? Ajv2020Module.default;

export const SCHEMA_DIR = new URL('../../schemas/', import.meta.url);
export const SCHEMA_BASE = 'https://unpkg.com/tao-solver/schemas/';

export type SchemaName = 'problem' | 'plan' | 'snapshot' | 'predictor' | 'request' | 'response' | 'trace' | 'setting';

/** Every schema file by name, and a compiled validator of each. */
export function loadSchemas(): { files: string[]; validate: Record<SchemaName, ValidateFunction> } {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  const files = readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.schema.json'))
    .sort();
  for (const f of files) ajv.addSchema(JSON.parse(readFileSync(new URL(f, SCHEMA_DIR), 'utf8')) as object);
  const get = (name: SchemaName): ValidateFunction => {
    const v = ajv.getSchema(`${SCHEMA_BASE}${name}.schema.json`);
    if (v === undefined) throw new Error(`schema ${name} is missing`);
    return v;
  };
  return {
    files,
    validate: {
      problem: get('problem'),
      plan: get('plan'),
      snapshot: get('snapshot'),
      predictor: get('predictor'),
      request: get('request'),
      response: get('response'),
      trace: get('trace'),
      setting: get('setting'),
    },
  };
}

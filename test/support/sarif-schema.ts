import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';

/**
 * The official SARIF 2.1.0 JSON schema (OASIS, draft-04; the rtm.5 text GitHub's upload
 * validates against) as shipped in Microsoft's `@microsoft/jest-sarif` (MIT), compiled the
 * way test/links/sarif.test.ts compiles it, for tests outside that file. `validateSarif.errors`
 * says what failed.
 */
const require = createRequire(import.meta.url);
const schemaPath = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
// unicodeRegExp off: the schema's language pattern has a stray `]` that only a u-flag RegExp rejects.
// Both packages are CommonJS with a `default` property; NodeNext sees the module object.
const ajv = new AjvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats.default(ajv, ['uri', 'uri-reference', 'date-time']);
export const validateSarif = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));

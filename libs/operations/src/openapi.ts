import { z } from 'zod';
import { ACTION_ROLE, OPERATOR_ROLES } from './operators.js';
import { PROBLEM_JSON, PROBLEM_SCHEMA, PROBLEM_TITLES } from './problem-details.js';
import { errors, type Json } from './http/openapi-parts.js';
import { type OpsRoute } from './http/ops-route.js';
import { OPS_ROUTES } from './http/routes.js';
import { approvalSchemas } from './openapi-approvals.js';
import { fourEyesSchemas } from './openapi-four-eyes.js';
import { fundsSchemas } from './openapi-funds.js';
import { accessSchemas } from './openapi-schemas-access.js';
import { payoutSchemas } from './openapi-schemas.js';
import { proposalInput } from './use-cases/propose-settlement/propose-settlement.command.js';
import { decisionInput } from './use-cases/shared/notes.js';
import { acknowledgementInput } from './use-cases/acknowledge-contradiction/acknowledge-contradiction.command.js';
import { tokenInput } from './sign-in/ops-tokens.js';

/**
 * The operations API as OpenAPI 3.1: served at GET /ops/openapi.json and checked in as
 * docs/ops-openapi.json (`node dist/scripts/ops-openapi.js`; its `--check` fails when the two
 * differ). The paths are the route registry's (http/routes.ts: method, path, least role, inputs,
 * answer), the request bodies the schemas the commands are parsed with (zod, or the contracts'
 * JSON Schema); only the answers' shapes are written here (openapi-schemas*.ts).
 */

/** A zod schema as JSON Schema, as a request is checked against it (input side). */
function jsonSchemaOf(schema: z.ZodType): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input' });
  return rest as Json;
}

/** One route as an OpenAPI operation. */
function operationOf(r: OpsRoute): Json {
  const a = r.answer;
  const answer: Json =
    'csv' in a
      ? { description: a.description, content: { 'text/csv': { schema: { type: 'string' } } } }
      : { description: a.description, content: { 'application/json': { schema: a.schema } } };
  return {
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    'x-required-role': ACTION_ROLE[r.action],
    ...(r.parameters ? { parameters: [...r.parameters] } : {}),
    ...(r.body
      ? {
          requestBody: {
            required: r.body.required,
            content: { 'application/json': { schema: r.body.schema } },
          },
        }
      : {}),
    responses: { [String(a.status)]: answer, ...errors(r.errors) },
  };
}

function pathsOf(routes: readonly OpsRoute[]): Record<string, Json> {
  const paths: Record<string, Record<string, Json>> = {};
  for (const r of routes) (paths[r.path] ??= {})[r.method] = operationOf(r);
  return paths;
}

export function opsOpenApi(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'payouts operations API',
      version: '1.0.0',
      description: `The operator's side of the payout service: masked lookups, search and CSV export, timelines, recheck and replay, and four-eyes settlement of REQUIRES_ATTENTION payouts. Every call needs \`Authorization: Bearer <token>\` (a configured operator's, OPS_OPERATORS, or an issued automation token, POST /ops/tokens) or the web console's session cookie (OpenID Connect sign-in, ADR 0021). Roles: ${OPERATOR_ROLES.join(' < ')}; each route says the least role it needs in \`x-required-role\`. Every action is attributed to a human (a configured operator's id; a console session's identity provider issuer and subject; an automation token's issuer): a proposal is decided by another human, signed in as themselves (no token approves, rejects, confirms or manages tokens), a contradiction is acknowledged by one person and confirmed by another, and a person's beneficiary change waits for another person's approval. Lists are newest first with an opaque \`nextCursor\` (keyset: stable, no duplicates). Every error, an unknown /ops path's 404 included, is RFC 9457 problem details (\`${PROBLEM_JSON}\`): \`type\` urn:payouts:problem:<code>, \`title\`, \`status\`, \`detail\`, \`instance\` (the path) and \`code\`. Codes: ${Object.keys(PROBLEM_TITLES).join(', ')}.`,
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }, { session: [] }],
    paths: pathsOf(OPS_ROUTES),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            "one operator's own token (OPS_OPERATORS: bootstrap, break-glass) or an issued automation token (POST /ops/tokens); the service keeps only its SHA-256",
        },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'payouts_console_session',
          description:
            "the web console's session after an OpenID Connect sign-in (/console/auth/login); a change made with it must carry the `X-Ops-Console` header",
        },
      },
      schemas: {
        ...approvalSchemas(),
        Problem: PROBLEM_SCHEMA as unknown as Json,
        ...fourEyesSchemas(),
        ...fundsSchemas(),
        ...accessSchemas(),
        ...payoutSchemas(),
        ProposalInput: jsonSchemaOf(proposalInput),
        DecisionInput: jsonSchemaOf(decisionInput),
        AcknowledgementInput: jsonSchemaOf(acknowledgementInput),
        TokenInput: jsonSchemaOf(tokenInput),
      },
    },
  };
}

/** The checked-in text: stable key order as written, two-space indent, a final newline. */
export function opsOpenApiText(): string {
  return `${JSON.stringify(opsOpenApi(), null, 2)}\n`;
}

/*
 * The approval routes of the operations API (issue 30), spread into opsOpenApi (openapi.ts). The
 * helpers are openapi.ts's own, handed in, so neither module imports the other.
 */

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

export interface OpenApiHelpers {
  readonly ref: (name: string) => Json;
  readonly ok: (description: string, schema: Json, status?: string) => Record<string, Json>;
  readonly errors: (...codes: number[]) => Record<string, Json>;
  readonly role: (r: string) => Record<string, Json>;
  readonly path: (name: string, description: string) => Json;
  readonly query: (name: string, description: string, schema?: Json) => Json;
  readonly readRole: string;
  readonly decideRole: string;
  readonly maxPage: number;
}

export function approvalPaths(x: OpenApiHelpers): Record<string, Json> {
  const param = x.query;
  const kind = x.path('kind', '`payouts` (a single payout) or `batches` (a whole batch)');
  const params = [
    kind,
    x.path('accountId', 'the provider account (the service default: `default`)'),
    x.path('transferId', "the payout's transferId, or the batch's batchTransferId"),
  ];
  const note: Json = {
    required: false,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: {
            note: { type: 'string', maxLength: 500, description: 'digit runs of 9 or more are masked' },
          },
        },
      },
    },
  };
  const decide = (what: string): Json => ({
    post: {
      summary: what,
      description:
        "A person's decision, recorded with them (operator actions, the payout's or batch's history). A person decides a hold once: approvers are distinct people. Refused (403) to an automation token, to a role below the hold's `approverRole`, and to whoever changed a beneficiary it pays (`excluded`).",
      ...x.role(x.decideRole),
      parameters: params,
      requestBody: note,
      responses: {
        ...x.ok('the hold after the decision', x.ref('Approval')),
        ...x.errors(400, 401, 403, 404, 409),
      },
    },
  });
  return {
    '/ops/approvals': {
      get: {
        summary: "payouts and batches waiting for approval under their account's policy, oldest first",
        ...x.role(x.readRole),
        parameters: [
          param('accountId', 'only this account'),
          param('limit', `page size, 1 to ${x.maxPage} (default 50)`, { type: 'integer' }),
          param('after', '`next` of the previous page'),
        ],
        responses: { ...x.ok('one page', x.ref('ApprovalPage')), ...x.errors(400, 401) },
      },
    },
    '/ops/approvals/{kind}/{accountId}/{transferId}': {
      get: {
        summary: 'the latest approval hold of a payout or batch, with every decision on it',
        ...x.role(x.readRole),
        parameters: params,
        responses: { ...x.ok('the hold', x.ref('Approval')), ...x.errors(401, 404) },
      },
    },
    '/ops/approvals/{kind}/{accountId}/{transferId}/approve': decide(
      'approve: once enough distinct people approved, the payout (or the whole batch) is RECEIVED again and sent',
    ),
    '/ops/approvals/{kind}/{accountId}/{transferId}/reject': decide(
      'reject: the payout (or the whole batch) is REJECTED with reason approval_rejected; nothing was sent',
    ),
  };
}

export function approvalSchemas(): Record<string, Json> {
  const str: Json = { type: 'string' };
  const int: Json = { type: 'integer' };
  const time: Json = { type: 'string', format: 'date-time' };
  return {
    Approval: {
      type: 'object',
      properties: {
        holdId: str,
        subject: { type: 'string', enum: ['payout', 'batch'] },
        accountId: str,
        transferId: { type: 'string', description: "the payout's transferId or the batch's batchTransferId" },
        amount: { type: 'string', description: 'exact decimal (a batch: its total)' },
        rules: {
          type: 'array',
          description: 'the rules that caught it, each with what it saw',
          items: { type: 'object', properties: { rule: str, detail: str }, required: ['rule', 'detail'] },
        },
        policyVersion: {
          type: 'string',
          description: "sha256:<16 hex digits> of the policy's canonical form",
        },
        approvalsNeeded: int,
        approvals: int,
        approvedBy: { type: 'array', items: str },
        approverRole: { type: 'string', enum: ['operator', 'approver'] },
        excluded: { type: 'array', items: str, description: 'people who may not decide it' },
        state: { type: 'string', enum: ['waiting', 'approved', 'rejected', 'expired'] },
        reason: { type: ['string', 'null'] },
        createdAt: time,
        expiresAt: time,
        decidedAt: { type: ['string', 'null'], format: 'date-time' },
        decisions: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              operatorId: str,
              role: str,
              decision: { type: 'string', enum: ['approve', 'reject'] },
              note: { type: ['string', 'null'] },
              at: time,
            },
          },
        },
      },
      required: ['holdId', 'subject', 'accountId', 'transferId', 'amount', 'rules', 'policyVersion', 'state'],
    },
    ApprovalPage: {
      type: 'object',
      properties: {
        items: { type: 'array', items: { $ref: '#/components/schemas/Approval' } },
        next: { type: ['string', 'null'] },
      },
      required: ['items', 'next'],
    },
  };
}

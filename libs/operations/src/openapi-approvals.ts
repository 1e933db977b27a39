import { type Json, int, str, time } from './http/openapi-parts.js';

/** Approval before sending (issue 30): the holds, components of the OpenAPI document (openapi.ts). */
export function approvalSchemas(): Record<string, Json> {
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

import { type Json, nullable, ref, str, time } from './http/openapi-parts.js';

/** A person's beneficiary change waiting for another's approval (issue 30): components of openapi.ts. */
export function fourEyesSchemas(): Record<string, Json> {
  return {
    BeneficiaryProposal: {
      type: 'object',
      description:
        'a change of a beneficiary made by a person, waiting for (or decided by) another human (issue 30)',
      properties: {
        id: str,
        accountId: str,
        beneId: str,
        change: { type: 'string', enum: ['create', 'delete'] },
        summary: {
          type: ['object', 'null'],
          description: 'a registration: its details, masked (account number, VPA, phone, e-mail)',
        },
        proposedBy: { type: 'string', description: 'the human id of the proposer' },
        proposedByName: str,
        proposedVia: { type: 'string', description: 'configured, session or token:<name>' },
        proposedAt: time,
        state: { type: 'string', enum: ['open', 'approved', 'rejected', 'failed'] },
        decidedBy: nullable('string'),
        decidedByName: nullable('string'),
        decidedVia: nullable('string'),
        decidedAt: { type: ['string', 'null'], format: 'date-time' },
        decisionNote: nullable('string'),
        result: {
          type: ['string', 'null'],
          description:
            "the provider's answer once approved (created, exists, deleted, absent), or the refusal's code (failed)",
        },
        generation: { type: 'string', enum: ['v1', 'v2'] },
        beneficiary: { type: 'object', description: 'the answer of an approval: the beneficiary, masked' },
      },
      required: [
        'id',
        'accountId',
        'beneId',
        'change',
        'proposedBy',
        'proposedByName',
        'proposedVia',
        'state',
      ],
    },
    BeneficiaryProposalPage: {
      type: 'object',
      properties: {
        items: { type: 'array', items: ref('BeneficiaryProposal') },
        nextCursor: nullable('string'),
      },
      required: ['items', 'nextCursor'],
    },
  };
}

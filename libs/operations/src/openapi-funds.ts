import { type Json, time } from './http/openapi-parts.js';

const figure = (description: string): Json => ({
  type: 'object',
  description,
  properties: {
    count: { type: 'integer', description: 'payouts and batch entries' },
    amount: { type: 'string', description: 'their sum, exact decimal' },
  },
  required: ['count', 'amount'],
});

/** What each account has committed (issue 32): components of the OpenAPI document (openapi.ts). */
export function fundsSchemas(): Record<string, Json> {
  return {
    AccountFunds: {
      type: 'object',
      properties: {
        accountId: { type: 'string' },
        inFlight: figure('sent to the provider and not settled'),
        waiting: figure('not sent yet: queued and awaitingApproval together'),
        queued: figure('accepted, waiting to be sent (RECEIVED)'),
        awaitingApproval: figure("held by the account's approval policy; it may never be sent"),
        balance: {
          type: ['object', 'null'],
          description: "the provider's available balance as last read; null while none is known",
          properties: { available: { type: 'string', description: 'exact decimal' }, readAt: time },
          required: ['available', 'readAt'],
        },
      },
      required: ['accountId', 'inFlight', 'waiting', 'queued', 'awaitingApproval', 'balance'],
    },
    Funds: {
      type: 'object',
      properties: {
        accounts: { type: 'array', items: { $ref: '#/components/schemas/AccountFunds' } },
        at: { type: 'string', format: 'date-time', description: 'when the figures were read' },
      },
      required: ['accounts', 'at'],
    },
  };
}
